/**
 * Resolution (spec 4.1 "Resolution rules"): one value per variable name for a batch of sets and a
 * set of tags. Plain data in, plain data out.
 */

export interface ResolutionSet {
  id: number;
  name: string;
  parentId: number | null;
}

export interface ResolutionVariable {
  id: number;
  setId: number;
  name: string;
}

export interface ResolutionValue {
  id: number;
  variableId: number;
  tagIds: readonly number[];
}

/** A library as resolution reads it: values by variable in id order; richer variables and values pass through. */
export interface ResolutionLibrary<
  V extends ResolutionVariable = ResolutionVariable,
  W extends ResolutionValue = ResolutionValue,
> {
  sets: ReadonlyMap<number, ResolutionSet>;
  variablesBySet: ReadonlyMap<number, readonly V[]>;
  valuesByVariable: ReadonlyMap<number, readonly W[]>;
}

export interface Winner<
  V extends ResolutionVariable = ResolutionVariable,
  W extends ResolutionValue = ResolutionValue,
> {
  variable: V;
  value: W;
}

/**
 * The order sets are walked in (rule 4): the requested sets by name without regard to case (then id), each from its root
 * down to itself, a set walked once, where first reached. So an ancestor always comes before its
 * children, and of two sets unrelated by parentage, the one reached through the later-named
 * requested set comes later; never the order the sets were asked for in.
 */
export function walkOrder(sets: ReadonlyMap<number, ResolutionSet>, requested: readonly number[]): number[] {
  const byName = [...new Set(requested)]
    .map((id) => sets.get(id))
    .filter((set): set is ResolutionSet => set !== undefined)
    .sort((a, b) => compareNames(a, b) || a.id - b.id);
  const walked: number[] = [];
  const seen = new Set<number>();
  for (const set of byName) {
    const chain: number[] = [];
    for (let current: ResolutionSet | undefined = set; current && !chain.includes(current.id);) {
      chain.push(current.id);
      current = current.parentId === null ? undefined : sets.get(current.parentId);
    }
    for (const id of chain.reverse()) {
      if (!seen.has(id)) walked.push(id);
      seen.add(id);
    }
  }
  return walked;
}

/** Names compared without regard to case first (set names are unique so), as people sort them: `api` before `Web`. */
function compareNames(a: ResolutionSet, b: ResolutionSet): number {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The winner of each variable name (names compared without regard to case), keyed by the name in
 * lower case:
 * 1. a value is a candidate only if every one of its tags is requested (an untagged value always is);
 * 2. a value tagged exactly with the requested tags wins;
 * 3. otherwise the candidate with the most tags (rule 3's tie clause, "fewest tags overall",
 *    cannot part two candidates: every tag of a candidate is requested, so both counts agree);
 * 4. of equally specific candidates, the one in the set walked later wins (walkOrder: a child after
 *    its ancestors, unrelated sets by name); of two in one set, the value with the lower id;
 * 5. a name with no candidate is absent.
 * Specificity is compared across the whole batch before the sets are.
 */
export function resolve<V extends ResolutionVariable, W extends ResolutionValue>(
  library: ResolutionLibrary<V, W>,
  requestedSets: readonly number[],
  requestedTags: ReadonlySet<number>,
): Map<string, Winner<V, W>> {
  const best = new Map<string, Winner<V, W> & { tags: number; position: number }>();
  walkOrder(library.sets, requestedSets).forEach((setId, position) => {
    for (const variable of library.variablesBySet.get(setId) ?? []) {
      const key = variable.name.toLowerCase();
      for (const value of library.valuesByVariable.get(variable.id) ?? []) {
        if (!value.tagIds.every((tag) => requestedTags.has(tag))) continue;
        const tags = new Set(value.tagIds).size;
        const current = best.get(key);
        if (!current || tags > current.tags || (tags === current.tags && position > current.position)) {
          best.set(key, { variable, value, tags, position });
        }
      }
    }
  });
  return new Map([...best].map(([key, { variable, value }]) => [key, { variable, value }]));
}
