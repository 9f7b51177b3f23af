/**
 * The version a new audit entry is stored as. A new id takes the version the writer gave
 * (its entity's version), or 1. Writing an id that exists adds a version after the
 * highest stored one, and never overwrites: the writer's version is kept when it is
 * higher, else the next free one is used.
 */
export function nextVersion(highestStored: number | undefined, requested: number | undefined): number {
  if (highestStored === undefined) return requested ?? 1;
  return Math.max(requested ?? 0, highestStored + 1);
}
