import fc from 'fast-check';
import { ancestryOf, parentCycle } from './set-ancestry.js';

const parents = (entries: [number, number | null][]) => new Map(entries);

describe('spec 2 "Library set" rule 1: a set may not be its own ancestor, directly or through generations', () => {
  it('refuses the set as its own parent', () => {
    expect(parentCycle(7, 7, parents([[7, null]]))).toEqual([7, 7]);
  });

  it('refuses a parent whose ancestors include the set, naming the chain', () => {
    // 1 <- 2 <- 3: making 3 the parent of 1 closes 1 -> 3 -> 2 -> 1.
    expect(
      parentCycle(
        1,
        3,
        parents([
          [1, null],
          [2, 1],
          [3, 2],
        ]),
      ),
    ).toEqual([1, 3, 2, 1]);
  });

  it('accepts a parent in another branch, and no parent', () => {
    const tree = parents([
      [1, null],
      [2, 1],
      [3, 1],
      [4, 3],
    ]);
    expect(parentCycle(2, 4, tree)).toBeUndefined();
    expect(parentCycle(2, null, tree)).toBeUndefined();
  });

  it('refuses exactly the parents that are the set or its descendants (any depth)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(30), { minLength: 2, maxLength: 30 }), fc.nat(), fc.nat(), (raw, a, b) => {
        // A forest: each set's parent has a lower id, so there is no cycle to begin with.
        const tree = new Map<number, number | null>(raw.map((p, id) => [id, id === 0 ? null : p % id]));
        const setId = a % raw.length;
        const parentId = b % raw.length;
        const descendants = [...tree.keys()].filter((id) => ancestryOf(id, tree).includes(setId));
        expect(parentCycle(setId, parentId, tree) !== undefined).toBe(descendants.includes(parentId));
      }),
    );
  });
});

describe('spec 4.1 "Resolution rules": ancestors are followed to the root', () => {
  it('answers the set and its ancestors, nearest first', () => {
    expect(
      ancestryOf(
        4,
        parents([
          [1, null],
          [2, 1],
          [4, 2],
        ]),
      ),
    ).toEqual([4, 2, 1]);
  });
});
