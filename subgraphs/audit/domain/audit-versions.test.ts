import fc from 'fast-check';
import { BadRequestError, ConflictError } from '../../../platform/errors/domain-errors.js';
import { givenId, MAX_AUDIT_NUMBER, MAX_WRITER_NUMBER, nextId, nextVersion } from './audit-versions.js';

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

describe('decisions "Ids and versions": ids and versions are bigints that no sequence of writes can exhaust', () => {
  it('counts up to the largest exact JavaScript integer, far past a PostgreSQL int', () => {
    expect(MAX_AUDIT_NUMBER).toBe(2 ** 53 - 1);
    expect(MAX_WRITER_NUMBER).toBe(2 ** 31 - 1);
  });

  it('gives the id after the last one, past a PostgreSQL int too', () => {
    expect(nextId(0)).toBe(1);
    expect(nextId(41)).toBe(42);
    expect(nextId(2 ** 31 - 1)).toBe(2 ** 31);
  });

  it('keeps the arithmetic exact at the very end: no id or version after MAX_AUDIT_NUMBER', () => {
    expect(() => nextId(MAX_AUDIT_NUMBER)).toThrow(ConflictError);
    expect(() => nextVersion(MAX_AUDIT_NUMBER, undefined)).toThrow(ConflictError);
  });

  it("stores the version after a writer's highest one: the versions of an entry at 2147483647 go on", () => {
    expect(nextVersion(MAX_WRITER_NUMBER, undefined)).toBe(2 ** 31);
    expect(nextVersion(MAX_WRITER_NUMBER, MAX_WRITER_NUMBER)).toBe(2 ** 31);
  });

  it('moves ids and versions up by at most one per write once past what a writer may ask for', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_WRITER_NUMBER, max: 2 ** 40 }),
        fc.option(fc.integer({ min: 0, max: MAX_WRITER_NUMBER }), { nil: undefined }),
        (highest, requested) => {
          expect(nextVersion(highest, requested)).toBe(highest + 1);
          expect(nextId(highest)).toBe(highest + 1);
        },
      ),
    );
  });
});

describe('decisions "Ids and versions": a writer names any id up to 2147483647, or beyond it one taken or the next', () => {
  it('accepts any id up to 2147483647, whatever the organization has taken', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: MAX_WRITER_NUMBER }),
        (lastId, id) => {
          expect(givenId(id, lastId)).toBe(id);
        },
      ),
    );
  });

  it('accepts beyond 2147483647 an id the organization has taken, or its next one', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_WRITER_NUMBER, max: 2 ** 40 }), fc.nat(), (lastId, back) => {
        const id = Math.max(1, lastId + 1 - back);
        expect(givenId(id, lastId)).toBe(id);
      }),
    );
  });

  it('refuses an id beyond both with a 400 naming body.id and the highest it may be', () => {
    expect(() => givenId(MAX_AUDIT_NUMBER, 0)).toThrow(BadRequestError);
    try {
      givenId(2 ** 31 + 1, 0);
    } catch (error) {
      expect((error as BadRequestError).errors).toEqual([
        {
          field: 'body.id',
          message:
            'must be at most 2147483647: an id up to 2147483647, one this organization has taken, or its next one',
        },
      ]);
    }
    expect.assertions(2);
  });
});
