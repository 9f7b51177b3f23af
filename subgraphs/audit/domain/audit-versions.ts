import { MAX_POSTGRES_INTEGER } from '../../../platform/db/postgres-integer.js';
import { BadRequestError, ConflictError } from '../../../platform/errors/domain-errors.js';

/**
 * The highest audit id or version. They are PostgreSQL `bigint`s read as JavaScript numbers,
 * which are exact up to 2^53 - 1.
 */
export const MAX_AUDIT_NUMBER = Number.MAX_SAFE_INTEGER;

/**
 * The highest id or version a writer may name freely: its entity's version is a PostgreSQL
 * `integer` everywhere. Every id or version above it is reached one write at a time, so no
 * sequence of writes can bring an organization near MAX_AUDIT_NUMBER.
 */
export const MAX_WRITER_NUMBER = MAX_POSTGRES_INTEGER;

/**
 * The id after the organization's highest one. Ids move up by one per new id, whoever writes,
 * so MAX_AUDIT_NUMBER is out of reach; the check keeps the arithmetic exact regardless.
 */
export function nextId(lastId: number): number {
  if (lastId >= MAX_AUDIT_NUMBER) {
    throw new ConflictError(
      `This organization's audit entries have taken every id up to ${MAX_AUDIT_NUMBER}.`,
    );
  }
  return lastId + 1;
}

/**
 * The id a writer named, when it may name it: any up to MAX_WRITER_NUMBER, or beyond it one the
 * organization has taken or its next one. Naming any id at all would let one write skip the
 * counter to the end of the id space.
 */
export function givenId(id: number, lastId: number): number {
  const highest = Math.max(MAX_WRITER_NUMBER, nextId(lastId));
  if (id > highest) {
    throw BadRequestError.invalidFields([
      {
        field: 'body.id',
        message: `must be at most ${highest}: an id up to ${MAX_WRITER_NUMBER}, one this organization has taken, or its next one`,
      },
    ]);
  }
  return id;
}

/**
 * The version a new audit entry is stored as. A new id takes the version the writer gave
 * (its entity's version), or 1. Writing an id that exists adds a version after the
 * highest stored one, and never overwrites: the writer's version is kept when it is
 * higher, else the next free one is used.
 */
export function nextVersion(highestStored: number | undefined, requested: number | undefined): number {
  if (highestStored === undefined) return requested ?? 1;
  if (highestStored >= MAX_AUDIT_NUMBER) {
    throw new ConflictError(
      `This audit entry is at version ${MAX_AUDIT_NUMBER}; it takes no further versions.`,
    );
  }
  return Math.max(requested ?? 0, highestStored + 1);
}
