import { combinationKey, repeatedCombinations } from './tag-combination.js';

describe('spec 2 Variable rule 4: two values of one variable with the same tag combination', () => {
  it('a combination is a set: order and repeats do not matter', () => {
    expect(combinationKey([3, 1, 3])).toBe(combinationKey([1, 3]));
    expect(combinationKey([1])).not.toBe(combinationKey([1, 3]));
  });

  it('finds a repeated combination, and two untagged values (one default only)', () => {
    expect(repeatedCombinations([[1, 2], [2, 1], [], [3], []])).toEqual([
      { index: 1, first: 0 },
      { index: 4, first: 2 },
    ]);
    expect(repeatedCombinations([[1], [2], [1, 2], []])).toEqual([]);
  });
});
