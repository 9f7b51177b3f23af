import { z } from 'zod';

/**
 * An integer setting: a JSON number, or text that is one (`"5001"`, from the environment).
 * Unlike zod's coercion, `true` is not 1 and a blank string is not 0: both are refused.
 */
export function integerSetting() {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
    z.number({ error: 'must be an integer' }).int('must be an integer'),
  );
}

/** A raw value that means "not set": absent, JSON null, or an empty string. */
export function unset(value: unknown): unknown {
  return value === null || value === '' ? undefined : value;
}
