/**
 * A set may not be its own ancestor, directly or through any number of generations (spec 2
 * "Library set" rule 1). Answers the chain from the set back to itself that giving it this
 * parent would close (`[7, 3, 7]`: 7's parent would be 3, whose parent is 7), or undefined when
 * the parent is allowed.
 */
export function parentCycle(
  setId: number,
  parentId: number | null,
  parentOf: ReadonlyMap<number, number | null>,
): number[] | undefined {
  const chain = [setId];
  const seen = new Set<number>();
  for (let current = parentId; current !== null; current = parentOf.get(current) ?? null) {
    chain.push(current);
    if (current === setId) return chain;
    // A cycle above the set, not through it, is not this write's to refuse; it cannot be stored anyway.
    if (seen.has(current)) return undefined;
    seen.add(current);
  }
  return undefined;
}

/** The set and its ancestors, nearest first, followed to the root by parentVariableSetId. */
export function ancestryOf(setId: number, parentOf: ReadonlyMap<number, number | null>): number[] {
  const chain: number[] = [];
  for (let current: number | null = setId; current !== null && !chain.includes(current);) {
    chain.push(current);
    current = parentOf.get(current) ?? null;
  }
  return chain;
}
