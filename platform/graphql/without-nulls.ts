/**
 * An input object without its null fields. GraphQL lets a client send null for an optional
 * input field; where null has no meaning of its own (group and key inputs), it is read as the
 * field left out, as REST reads a missing field, rather than refused.
 */
export function withoutNulls(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null));
}
