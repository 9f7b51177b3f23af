import type { z } from 'zod';
import { BadRequestError, UnsupportedMediaTypeError } from '../errors/domain-errors.js';
import { jsonPath } from './json-path.js';
import { findUnstorableText } from './storable-text.js';

export const JSON_MEDIA_TYPE = 'application/json';

/**
 * A body the host did not read because it is not JSON, handed as it is to a route with a
 * signed body (Route.signedBody), whose handler checks the signature first. Parsing it is the
 * 415 that other routes answer before their handler runs.
 */
export class BodyInOtherMediaType {
  constructor(readonly contentType: string | undefined) {}
}

/**
 * Parses untrusted input with its schema. A failure is a 400 naming every bad field by
 * where it came from (`query.take`, `body[0].field`), with the schema's reason; a body in
 * another media type than JSON is 415. Before the schema, text that could not be stored as
 * sent (storable-text.ts) is refused wherever it is, so no rule of a schema needs to remember it.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, location: string): z.output<S> {
  if (value instanceof BodyInOtherMediaType) {
    throw UnsupportedMediaTypeError.expected(JSON_MEDIA_TYPE, value.contentType);
  }
  const unstorable = findUnstorableText(value);
  if (unstorable.length > 0) {
    throw BadRequestError.invalidFields(
      unstorable.map((issue) => ({ field: jsonPath(location, issue.path), message: issue.message })),
    );
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw BadRequestError.invalidFields(
    result.error.issues.map((issue) => ({
      field: jsonPath(location, issue.path),
      message: issue.message,
    })),
  );
}
