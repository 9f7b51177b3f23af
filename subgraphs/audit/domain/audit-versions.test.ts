import fc from 'fast-check';
import { MAX_POSTGRES_INTEGER } from '../../../platform/db/postgres-integer.js';
import { ConflictError } from '../../../platform/errors/domain-errors.js';
import { nextId, nextVersion } from './audit-versions.js';

const version = fc.integer({ min: 1, max: 1_000_000 });

describe('spec 2 Audit entry / 9.2: a new id is stored at the version the writer gives, or 1', () => {
  it('uses the requested version for a new id', () => {
    fc.assert(
      fc.property(version, (requested) => {
        expect(nextVersion(undefined, requested)).toBe(requested);
      }),
    );
  });

  it('uses version 1 for a new id written without a version', () => {
    expect(nextVersion(undefined, undefined)).toBe(1);
  });
});

describe('spec 4.4 / 9.2: writing an id that exists stores another version, never overwriting one', () => {
  it('stores after the highest version when no version is requested', () => {
    expect(nextVersion(1, undefined)).toBe(2);
    expect(nextVersion(7, undefined)).toBe(8);
  });

  it('keeps a requested version above the highest stored one', () => {
    expect(nextVersion(3, 10)).toBe(10);
    expect(nextVersion(3, 4)).toBe(4);
  });

  it('uses the next free version when the requested one is stored already or lower', () => {
    expect(nextVersion(3, 3)).toBe(4);
    expect(nextVersion(3, 1)).toBe(4);
  });

  it('is max(requested, highest + 1): above every stored version, and never below the requested one', () => {
    fc.assert(
      fc.property(version, fc.option(version, { nil: undefined }), (highest, requested) => {
        const next = nextVersion(highest, requested);
        expect(next).toBeGreaterThan(highest);
        if (requested !== undefined) expect(next).toBeGreaterThanOrEqual(requested);
        expect(next).toBe(Math.max(requested ?? 0, highest + 1));
      }),
    );
  });

  it('never repeats a stored version over a run of writes to one id', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(version, { nil: undefined }), { minLength: 1, maxLength: 30 }),
        (requests) => {
          const stored: number[] = [];
          for (const requested of requests) {
            const highest = stored.length > 0 ? Math.max(...stored) : undefined;
            const next = nextVersion(highest, requested);
            expect(stored).not.toContain(next);
            expect(stored.every((v) => v < next)).toBe(true);
            stored.push(next);
          }
        },
      ),
    );
  });
});

describe('spec 2 Audit entry: ids and versions are PostgreSQL integers; past the highest one the write is a conflict, not a fault', () => {
  it('is the int column range', () => {
    expect(MAX_POSTGRES_INTEGER).toBe(2 ** 31 - 1);
  });

  it('gives the id after the last one, up to the highest', () => {
    expect(nextId(0)).toBe(1);
    expect(nextId(41)).toBe(42);
    expect(nextId(MAX_POSTGRES_INTEGER - 1)).toBe(MAX_POSTGRES_INTEGER);
  });

  it('refuses an id after the highest with ConflictError', () => {
    expect(() => nextId(MAX_POSTGRES_INTEGER)).toThrow(ConflictError);
  });

  it('refuses a version after the highest with ConflictError, whatever version is requested', () => {
    expect(() => nextVersion(MAX_POSTGRES_INTEGER, undefined)).toThrow(ConflictError);
    expect(() => nextVersion(MAX_POSTGRES_INTEGER, MAX_POSTGRES_INTEGER)).toThrow(ConflictError);
  });

  it('never answers a version beyond the highest for a stored version below it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_POSTGRES_INTEGER - 1 }),
        fc.option(fc.integer({ min: 0, max: MAX_POSTGRES_INTEGER }), { nil: undefined }),
        (highest, requested) => {
          expect(nextVersion(highest, requested)).toBeLessThanOrEqual(MAX_POSTGRES_INTEGER);
        },
      ),
    );
  });
});
