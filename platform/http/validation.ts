import type { z } from 'zod';
import { BadRequestError } from '../errors/domain-errors.js';

/**
 * Parses untrusted input with its schema. A failure is a 400 naming every bad field by
 * where it came from (`query.take`, `body[0].field`), with the schema's reason.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, location: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw BadRequestError.invalidFields(
    result.error.issues.map((issue) => ({
      field: fieldName(location, issue.path),
      message: issue.message,
    })),
  );
}

function fieldName(location: string, path: PropertyKey[]): string {
  return path.reduce<string>(
    (name, part) => (typeof part === 'number' ? `${name}[${part}]` : `${name}.${String(part)}`),
    location,
  );
}
