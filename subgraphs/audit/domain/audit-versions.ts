import { MAX_POSTGRES_INTEGER } from '../../../platform/db/postgres-integer.js';
import { ConflictError } from '../../../platform/errors/domain-errors.js';

/**
 * The id after the organization's highest one. Past the highest storable id there is none:
 * a conflict the writer can resolve by writing a version of an existing id, not a fault.
 */
export function nextId(lastId: number): number {
  if (lastId >= MAX_POSTGRES_INTEGER) {
    throw new ConflictError(
      `This organization's audit entries have taken every id up to ${MAX_POSTGRES_INTEGER}; write a new version of an existing id instead.`,
    );
  }
  return lastId + 1;
}

/**
 * The version a new audit entry is stored as. A new id takes the version the writer gave
 * (its entity's version), or 1. Writing an id that exists adds a version after the
 * highest stored one, and never overwrites: the writer's version is kept when it is
 * higher, else the next free one is used. An id stored at the highest storable version
 * takes no more.
 */
export function nextVersion(highestStored: number | undefined, requested: number | undefined): number {
  if (highestStored === undefined) return requested ?? 1;
  if (highestStored >= MAX_POSTGRES_INTEGER) {
    throw new ConflictError(
      `This audit entry is at version ${MAX_POSTGRES_INTEGER}, the highest there can be; it takes no further versions.`,
    );
  }
  return Math.max(requested ?? 0, highestStored + 1);
}
