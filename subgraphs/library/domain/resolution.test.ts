import fc from 'fast-check';
import { resolve, walkOrder, type ResolutionLibrary, type ResolutionSet } from './resolution.js';

interface Row {
  set: number;
  name: string;
  tags: number[];
}

/** A library from rows (set, variable name, tags); value ids in row order, variable ids per set and name. */
function library(sets: ResolutionSet[], rows: Row[]): ResolutionLibrary {
  const variables = new Map<string, { id: number; setId: number; name: string }>();
  const valuesByVariable = new Map<number, { id: number; variableId: number; tagIds: number[] }[]>();
  rows.forEach((row, index) => {
    const key = `${row.set}/${row.name.toLowerCase()}`;
    let variable = variables.get(key);
    if (!variable) {
      variable = { id: variables.size + 1, setId: row.set, name: row.name };
      variables.set(key, variable);
    }
    const values = valuesByVariable.get(variable.id) ?? [];
    values.push({ id: index + 1, variableId: variable.id, tagIds: row.tags });
    valuesByVariable.set(variable.id, values);
  });
  const variablesBySet = new Map<number, { id: number; setId: number; name: string }[]>();
  for (const variable of variables.values())
    variablesBySet.set(variable.setId, [...(variablesBySet.get(variable.setId) ?? []), variable]);
  return { sets: new Map(sets.map((set) => [set.id, set])), variablesBySet, valuesByVariable };
}

const set = (id: number, name: string, parentId: number | null = null): ResolutionSet => ({
  id,
  name,
  parentId,
});
/** The value text each winner stands for: the row index (value id) it came from. */
const winners = (lib: ResolutionLibrary, sets: number[], tags: number[]) =>
  Object.fromEntries([...resolve(lib, sets, new Set(tags))].map(([name, winner]) => [name, winner.value.id]));

const PROD = 1;
const EU = 2;
const DEV = 3;

describe('spec 4.1 "Resolution rules"', () => {
  const sets = [set(1, 'Base'), set(2, 'Web', 1), set(3, 'Api')];

  it('rule 1: a value is a candidate only if every tag of it is requested; an untagged value always is', () => {
    const lib = library(sets, [
      { set: 1, name: 'url', tags: [] },
      { set: 1, name: 'url', tags: [PROD, EU] },
      { set: 1, name: 'url', tags: [DEV] },
    ]);
    expect(winners(lib, [1], [PROD])).toEqual({ url: 1 });
    expect(winners(lib, [1], [PROD, EU])).toEqual({ url: 2 });
  });

  it('rule 2: a value tagged exactly with the requested tags wins', () => {
    const lib = library(sets, [
      { set: 2, name: 'url', tags: [PROD] },
      { set: 1, name: 'url', tags: [PROD, EU] },
    ]);
    expect(winners(lib, [2], [PROD, EU])).toEqual({ url: 2 });
  });

  it('rule 3: otherwise the candidate with the most tags wins', () => {
    const lib = library(sets, [
      { set: 1, name: 'url', tags: [] },
      { set: 1, name: 'url', tags: [PROD] },
      { set: 1, name: 'url', tags: [PROD, EU] },
    ]);
    expect(winners(lib, [1], [PROD, EU, DEV])).toEqual({ url: 3 });
  });

  it('rule 4: specificity is decided across the whole batch before nearness: a more specific value in an ancestor beats a nearer default', () => {
    const lib = library(sets, [
      { set: 1, name: 'url', tags: [PROD] },
      { set: 2, name: 'url', tags: [] },
    ]);
    expect(winners(lib, [2], [PROD])).toEqual({ url: 1 });
  });

  it('rule 4: among equally specific candidates, a child beats its ancestor, whatever their names', () => {
    const lib = library(
      [set(1, 'Zulu'), set(2, 'Alpha', 1)],
      [
        { set: 1, name: 'url', tags: [PROD] },
        { set: 2, name: 'url', tags: [PROD] },
      ],
    );
    expect(winners(lib, [2], [PROD])).toEqual({ url: 2 });
    expect(winners(lib, [2, 1], [PROD])).toEqual({ url: 2 });
  });

  it('rule 4: among unrelated sets, the set that sorts later by name wins, never the query-string order', () => {
    const lib = library(sets, [
      { set: 3, name: 'url', tags: [] },
      { set: 2, name: 'url', tags: [] },
    ]);
    expect(winners(lib, [3, 2], [])).toEqual({ url: 2 });
    expect(winners(lib, [2, 3], [])).toEqual({ url: 2 });
  });

  it('rule 4 (decisions "The read path"): names sort without regard to case, as people sort them: Web after api', () => {
    const named = new Map([set(1, 'Web'), set(2, 'api')].map((s) => [s.id, s]));
    expect(walkOrder(named, [1, 2])).toEqual([2, 1]);
    const lib = library(
      [...named.values()],
      [
        { set: 1, name: 'url', tags: [] },
        { set: 2, name: 'url', tags: [] },
      ],
    );
    expect(winners(lib, [2, 1], [])).toEqual({ url: 1 });
  });

  it('rule 4: ancestors are followed to the root; sets are walked requested set by name, each from its root down', () => {
    expect(
      walkOrder(
        new Map([set(1, 'Root'), set(2, 'Mid', 1), set(3, 'Leaf', 2), set(4, 'Api')].map((s) => [s.id, s])),
        [4, 3],
      ),
    ).toEqual([4, 1, 2, 3]);
  });

  it('rule 5: a variable with no untagged value and no matching candidate is absent', () => {
    const lib = library(sets, [
      { set: 1, name: 'onlyProd', tags: [PROD] },
      { set: 1, name: 'always', tags: [] },
    ]);
    expect(winners(lib, [1], [DEV])).toEqual({ always: 2 });
  });

  it("names are one variable without regard to case across sets: the child's URL replaces the parent's url", () => {
    const lib = library(sets, [
      { set: 1, name: 'url', tags: [] },
      { set: 2, name: 'URL', tags: [] },
    ]);
    const resolved = resolve(lib, [2], new Set());
    expect([...resolved.keys()]).toEqual(['url']);
    expect(resolved.get('url')!.variable.name).toBe('URL');
  });

  it('decisions "Tags removed from values": of two equally specific values of one set, the lower value id wins', () => {
    const lib = library(sets, [
      { set: 1, name: 'twin', tags: [] },
      { set: 1, name: 'twin', tags: [] },
    ]);
    expect(winners(lib, [1], [])).toEqual({ twin: 1 });
  });
});

/** A straightforward reference: every candidate of the batch, ranked by tags, then walk position, then value id. */
function reference(lib: ResolutionLibrary, requested: number[], tags: Set<number>): Record<string, number> {
  const order = walkOrder(lib.sets, requested);
  const candidates: { name: string; tags: number; position: number; id: number }[] = [];
  order.forEach((setId, position) => {
    for (const variable of lib.variablesBySet.get(setId) ?? []) {
      for (const value of lib.valuesByVariable.get(variable.id) ?? []) {
        if (value.tagIds.some((tag) => !tags.has(tag))) continue;
        candidates.push({
          name: variable.name.toLowerCase(),
          tags: new Set(value.tagIds).size,
          position,
          id: value.id,
        });
      }
    }
  });
  candidates.sort((a, b) => b.tags - a.tags || b.position - a.position || a.id - b.id);
  const result: Record<string, number> = {};
  for (const candidate of candidates) result[candidate.name] ??= candidate.id;
  return result;
}

const arbitraryLibrary = fc
  .record({
    parents: fc.array(fc.option(fc.nat(), { nil: null }), { minLength: 1, maxLength: 6 }),
    names: fc.array(fc.constantFrom('alpha', 'beta', 'Gamma', 'delta'), { minLength: 6, maxLength: 6 }),
    rows: fc.array(
      fc.record({
        set: fc.nat(),
        name: fc.constantFrom('url', 'Url', 'port', 'key'),
        tags: fc.subarray([1, 2, 3, 4]),
      }),
      { maxLength: 25 },
    ),
  })
  .map(({ parents, names, rows }) => {
    // A forest: a set's parent is a set made before it.
    const sets = parents.map((parent, index) =>
      set(index + 1, `${names[index]}${index}`, parent === null || index === 0 ? null : (parent % index) + 1),
    );
    // library() makes one variable per set and name without regard to case, as saving requires.
    return { sets, rows: rows.map((row) => ({ ...row, set: (row.set % sets.length) + 1 })) };
  });

describe('spec 4.1 "Resolution rules" (properties): the rules that interact, against a reference', () => {
  const requestOf = (count: number) =>
    fc.tuple(
      fc.subarray(
        [...Array(count).keys()].map((i) => i + 1),
        { minLength: 1 },
      ),
      fc.subarray([1, 2, 3, 4]),
    );

  it('specificity across the batch, then child before ancestor, then later name: as the reference ranks them', () => {
    fc.assert(
      fc.property(
        arbitraryLibrary.chain((lib) => fc.tuple(fc.constant(lib), requestOf(lib.sets.length))),
        ([{ sets, rows }, [requested, tags]]) => {
          const lib = library(sets, rows);
          expect(winners(lib, requested, tags)).toEqual(reference(lib, requested, new Set(tags)));
        },
      ),
    );
  });

  it('never depends on the order the sets were asked for in', () => {
    fc.assert(
      fc.property(
        arbitraryLibrary.chain((lib) => fc.tuple(fc.constant(lib), requestOf(lib.sets.length))),
        ([{ sets, rows }, [requested, tags]]) => {
          const lib = library(sets, rows);
          expect(winners(lib, [...requested].reverse(), tags)).toEqual(winners(lib, requested, tags));
        },
      ),
    );
  });

  it('a winner has only requested tags, and no candidate of its name has more', () => {
    fc.assert(
      fc.property(
        arbitraryLibrary.chain((lib) => fc.tuple(fc.constant(lib), requestOf(lib.sets.length))),
        ([{ sets, rows }, [requested, tags]]) => {
          const lib = library(sets, rows);
          const requestedTags = new Set(tags);
          const reached = new Set(walkOrder(lib.sets, requested));
          for (const [name, winner] of resolve(lib, requested, requestedTags)) {
            expect(winner.value.tagIds.every((tag) => requestedTags.has(tag))).toBe(true);
            const rivals = rows.filter(
              (row) =>
                reached.has(row.set) &&
                row.name.toLowerCase() === name &&
                row.tags.every((tag) => requestedTags.has(tag)),
            );
            expect(Math.max(...rivals.map((row) => new Set(row.tags).size))).toBe(
              new Set(winner.value.tagIds).size,
            );
          }
        },
      ),
    );
  });
});
