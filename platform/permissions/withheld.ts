import { ForbiddenError } from '../errors/domain-errors.js';

/**
 * A field of a view the caller may not see, decided by the service (the same rule for REST and
 * GraphQL). It is an error the caller is shown where the field is: GraphQL raises an Error a
 * field resolves to as that field's error (FORBIDDEN, at its path), and JSON leaves the field out.
 */
export class Withheld extends ForbiddenError {
  toJSON(): undefined {
    return undefined;
  }
}

/** The one instance: a withheld field carries nothing of its own. */
export const WITHHELD = new Withheld();

/** A view whose fields K may be withheld. */
export type WithholdingFields<V, K extends keyof V> = Omit<V, K> & { [P in K]: V[P] | Withheld };

/** The view as it is, or with the fields K withheld. */
export function withholdUnless<V extends object, K extends keyof V>(
  visible: boolean,
  view: V,
  fields: readonly K[],
): WithholdingFields<V, K> {
  if (visible) return view;
  return { ...view, ...Object.fromEntries(fields.map((field) => [field, WITHHELD])) };
}
