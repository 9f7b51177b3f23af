import { z } from 'zod';
import { MAX_POSTGRES_INTEGER } from '../db/postgres-integer.js';

/**
 * A boolean from a query string (`true` or `false`, any case) or from a typed caller such
 * as a GraphQL resolver (a real boolean).
 */
export const booleanInput = z
  .preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      const lower = value.toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : value;
    },
    z.boolean({ error: 'must be true or false' }),
  )
  .meta({ type: 'boolean' });

const DECIMAL_INTEGER = /^-?\d+$/;

/** A record's integer id in a path, from 1 to the largest `integer`. */
export const integerIdInput = () => integerInput(1, MAX_POSTGRES_INTEGER);

/**
 * An integer within bounds, from a query string or path (decimal digits, optionally after
 * a minus, which the bounds then judge) or from a typed caller such as a GraphQL resolver
 * (a number). `0x10`, `1e2`, `1.0`, ` 1` and `true` are refused, not read as numbers the
 * caller did not write.
 */
export function integerInput(min: number, max: number) {
  return z
    .preprocess(
      (value) => (typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value),
      z
        .number({ error: 'must be an integer' })
        .int('must be an integer')
        .min(min, `must be at least ${min}`)
        .max(max, `must be at most ${max}`),
    )
    .meta({ type: 'integer', minimum: min, maximum: max });
}

/** Upper bound of `take` on every list (the spec leaves it open; see docs/decisions.md). */
export const MAX_TAKE = 1000;

/** A list answer: `total` counts every match, before paging. */
export function pageSchema<T extends z.ZodType>(item: T, id: string) {
  return z.object({ total: z.number().int(), items: z.array(item) }).meta({ id });
}

export interface Page<T> {
  total: number;
  items: T[];
}

/**
 * Paging of every list but the audit lists (CONTRACT section 6): everything unless `take`
 * is given; `skip` defaults to 0.
 */
export const listQuery = z.object({
  take: integerInput(0, MAX_TAKE)
    .optional()
    .describe(`How many to return, at most ${MAX_TAKE}; all when omitted.`),
  skip: integerInput(0, Number.MAX_SAFE_INTEGER).default(0),
});
export type ListQuery = z.output<typeof listQuery>;
