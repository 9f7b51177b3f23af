import type { VariableType } from './variable-types.js';

/** A value as an import file writes it (spec 4.1 "Import": `{value, sensitive, scopes}`). */
export type FileValue = string | number | boolean;

/**
 * The type an import file's values say their variable has when none of them names one: the
 * file has no field for it (decisions "Import and export files"). Booleans are a Boolean, numbers
 * a Number, texts a String, or a Multiline when one holds a line break (a String cannot); no
 * values, a String. Values of different kinds say nothing: undefined.
 */
export function inferredType(values: readonly FileValue[]): VariableType | undefined {
  const kinds = new Set(values.map((value) => typeof value));
  if (kinds.size > 1) return undefined;
  if (kinds.has('boolean')) return 'Boolean';
  if (kinds.has('number')) return 'Number';
  return values.some((value) => typeof value === 'string' && /[\r\n]/.test(value)) ? 'Multiline' : 'String';
}
