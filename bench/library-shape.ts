/**
 * A library built deterministically through the REST API, for the read-path benchmark (issue 11
 * item 8). Shape M: 100 sets in chains of depth 5, 500 variables, 5,000 values, 3 tag groups of
 * 5 tags, 20% of values with references, 5% of variables sensitive. Shape L: the same with
 * 1,000 sets and 100,000 values.
 */
export interface Shape {
  chains: number;
  depth: number;
  variablesPerSet: number;
  valuesPerVariable: number;
}

export const SHAPES: Record<string, Shape> = {
  M: { chains: 20, depth: 5, variablesPerSet: 5, valuesPerVariable: 10 },
  L: { chains: 200, depth: 5, variablesPerSet: 5, valuesPerVariable: 20 },
};

export const TAG_GROUPS: Record<string, string[]> = {
  Environment: ['Dev', 'Test', 'Stage', 'Prod', 'Lab'],
  Region: ['EU', 'US', 'APAC', 'LATAM', 'MEA'],
  Tier: ['Free', 'Basic', 'Pro', 'Team', 'Enterprise'],
};

/** Every combination of at most one tag per group, one to three tags: 215 of them. */
const COMBINATIONS: string[][] = (() => {
  const choices = Object.entries(TAG_GROUPS).map(([group, tags]) => [
    undefined,
    ...tags.map((tag) => `${group}/${tag}`),
  ]);
  const all: string[][] = [];
  for (const a of choices[0]!)
    for (const b of choices[1]!)
      for (const c of choices[2]!) {
        const combination = [a, b, c].filter((tag): tag is string => tag !== undefined);
        if (combination.length > 0) all.push(combination);
      }
  return all;
})();

/** A small seeded generator (mulberry32), so every run builds the same library. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct items, chosen by `next` (a partial Fisher-Yates shuffle). */
function pick<T>(items: readonly T[], count: number, next: () => number): T[] {
  const pool = [...items];
  for (let n = 0; n < count; n++) {
    const chosen = n + Math.floor(next() * (pool.length - n));
    [pool[n], pool[chosen]] = [pool[chosen]!, pool[n]!];
  }
  return pool.slice(0, count);
}

export interface PlannedVariable {
  chain: number;
  depth: number;
  body: {
    name: string;
    type: 'String' | 'Number';
    sensitive: boolean;
    values: { value?: string; numberValue?: number; tags: string[] }[];
  };
}

/**
 * The variables of one set: three names every set of the chain holds (Shared0..2, so a child
 * overrides its ancestors), and own ones. References point only to a name of lower rank
 * (Shared1 to Shared0; an own name to a Shared one), so no cycle can form.
 */
export function plannedVariables(shape: Shape, chain: number, depth: number): PlannedVariable[] {
  const planned: PlannedVariable[] = [];
  for (let index = 0; index < shape.variablesPerSet; index++) {
    const serial = (chain * shape.depth + depth) * shape.variablesPerSet + index;
    const next = random(serial + 1);
    const shared = index < 3;
    const name = shared ? `Shared${index}` : `C${chain}D${depth}Own${index}`;
    const sensitive = serial % 20 === 7;
    const type = !sensitive && serial % 10 === 3 ? 'Number' : 'String';
    const referable = shared
      ? [0, 1, 2].filter((k) => k < index).map((k) => `Shared${k}`)
      : ['Shared0', 'Shared1', 'Shared2'];
    const combinations = pick(COMBINATIONS, shape.valuesPerVariable - 1, next);
    const values = [[], ...combinations].map((tags, n) => {
      if (type === 'Number') return { numberValue: serial * 100 + n, tags };
      const text = sensitive
        ? `secret-${serial}-${n}-${Math.floor(next() * 1e9)}`
        : `value-${chain}-${depth}-${index}-${n}`;
      const target = referable[Math.floor(next() * referable.length)];
      // About 70% of values can hold a reference (not Shared0's, a secret's or a Number's): 0.29 of them makes 20% of all.
      const withReference = !sensitive && target !== undefined && next() < 0.29;
      return { value: withReference ? `${text}:@[${target}]` : text, tags };
    });
    planned.push({ chain, depth, body: { name, type, sensitive, values } });
  }
  return planned;
}

/** The question the load asks for a chain: its deepest set, and one tag of each group. */
export function readQuery(setId: number, chain: number): string {
  const tags = Object.entries(TAG_GROUPS).map(
    ([group, names], n) => `tag=${group}/${names[(chain + n) % names.length]}`,
  );
  return `/variablevalues?set=${setId}&${tags.join('&')}`;
}

/** Set `chain`'s set at `depth`, as both builds name it. */
export function setName(chain: number, depth: number): string {
  return `Chain${chain}Depth${depth}`;
}

/**
 * The same library as an import file (spec 4.1 "Import"): each set named as the API build names
 * it, its parent by slug, its variables' values with their scopes.
 */
export function libraryFileOf(shape: Shape): {
  tagGroups: Record<string, string[]>;
  librarySets: Record<string, { parent?: string; variables: Record<string, unknown[]> }>;
} {
  const librarySets: Record<string, { parent?: string; variables: Record<string, unknown[]> }> = {};
  for (let chain = 0; chain < shape.chains; chain++) {
    for (let depth = 0; depth < shape.depth; depth++) {
      const variables = Object.fromEntries(
        plannedVariables(shape, chain, depth).map(({ body }) => [
          body.name,
          body.values.map((value) => ({
            value: value.numberValue ?? value.value,
            sensitive: body.sensitive,
            scopes: value.tags,
          })),
        ]),
      );
      librarySets[setName(chain, depth)] = {
        ...(depth > 0 ? { parent: setName(chain, depth - 1).toLowerCase() } : {}),
        variables,
      };
    }
  }
  return { tagGroups: TAG_GROUPS, librarySets };
}
