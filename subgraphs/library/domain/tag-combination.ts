/**
 * Two values of one variable with the same tag combination are one value too many (spec 2
 * Variable rule 4); two untagged values are the same violation, there being one default. A
 * combination is its tags as a set: order and repeats do not matter.
 */
export function combinationKey(tagIds: readonly number[]): string {
  return [...new Set(tagIds)].sort((a, b) => a - b).join(',');
}

/** The positions of values whose combination an earlier value already has, with the position it repeats. */
export function repeatedCombinations(
  values: readonly (readonly number[])[],
): { index: number; first: number }[] {
  const firstAt = new Map<string, number>();
  const repeated: { index: number; first: number }[] = [];
  values.forEach((tagIds, index) => {
    const key = combinationKey(tagIds);
    const first = firstAt.get(key);
    if (first === undefined) firstAt.set(key, index);
    else repeated.push({ index, first });
  });
  return repeated;
}
