import { X509Certificate } from 'node:crypto';
import { plainDecimal } from './sensitive-values.js';

/** The six variable types (spec 2 "Variable"); String is the default. */
export const VARIABLE_TYPES = ['String', 'Multiline', 'Number', 'Boolean', 'Json', 'Certificate'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** A value as it is stored: each type uses one of the three fields (spec 2 "Type storage"). */
export interface StoredValue {
  value: string | null;
  numberValue: number | null;
  booleanValue: boolean | null;
}

/** A value as a writer sends it, before its type is applied. */
export interface WrittenValue {
  value?: string | null;
  numberValue?: number | null;
  booleanValue?: boolean | null;
}

export type TypedValue = { ok: true; stored: StoredValue } | { ok: false; problem: string };

const LINE_BREAK = /[\r\n]/;

/** Why a text is not a value of a text type, or undefined when it is. */
function textProblem(type: Exclude<VariableType, 'Number' | 'Boolean'>, text: string): string | undefined {
  switch (type) {
    case 'String':
      return LINE_BREAK.test(text) ? 'a String has no line breaks; use Multiline' : undefined;
    case 'Multiline':
      return undefined;
    case 'Json':
      try {
        JSON.parse(text);
        return undefined;
      } catch {
        return 'is not JSON';
      }
    case 'Certificate':
      try {
        new X509Certificate(text);
        return undefined;
      } catch {
        return 'is not a PEM certificate';
      }
  }
}

const ok = (stored: StoredValue): TypedValue => ({ ok: true, stored });
const fail = (problem: string): TypedValue => ({ ok: false, problem });
const text = (value: string): StoredValue => ({ value, numberValue: null, booleanValue: null });

/**
 * A written value as a value of the type (spec 2 Variable rule 1: every value has its variable's
 * type): the type's storage field must be given, and a text must be a text of that type (a String
 * has no line breaks, a Json parses, a Certificate is a PEM certificate). The other fields are
 * left empty.
 */
export function typedValue(type: VariableType, written: WrittenValue): TypedValue {
  if (type === 'Number') {
    const number = written.numberValue;
    return typeof number === 'number' && Number.isFinite(number)
      ? ok({ value: null, numberValue: number, booleanValue: null })
      : fail('a Number value needs numberValue, a finite number');
  }
  if (type === 'Boolean') {
    return typeof written.booleanValue === 'boolean'
      ? ok({ value: null, numberValue: null, booleanValue: written.booleanValue })
      : fail('a Boolean value needs booleanValue, true or false');
  }
  if (typeof written.value !== 'string') return fail(`a ${type} value needs value, a text`);
  const problem = textProblem(type, written.value);
  return problem ? fail(problem) : ok(text(written.value));
}

const DECIMAL = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * A stored value converted to another type (spec 3: every type but Boolean switches to any other
 * non-Boolean type after saving): a text is kept when it is a text of the new type, a number
 * becomes its plain decimal text, a text that is a decimal number becomes that number. Anything
 * else cannot be converted, and says why.
 */
export function convertedValue(from: VariableType, to: VariableType, stored: StoredValue): TypedValue {
  if (from === to) return ok(stored);
  if (to === 'Boolean' || from === 'Boolean') return fail('a variable cannot become or stop being a Boolean');
  if (to === 'Number') {
    const source = stored.value ?? '';
    const number = DECIMAL.test(source) ? Number(source) : Number.NaN;
    return Number.isFinite(number) ? typedValue('Number', { numberValue: number }) : fail('is not a number');
  }
  const source = from === 'Number' ? plainDecimal(stored.numberValue ?? 0) : (stored.value ?? '');
  return typedValue(to, { value: source });
}

/** The text a value's hint and hash are derived from: its text, or a Number in plain decimal. */
export function sourceText(type: VariableType, stored: StoredValue): string {
  if (type === 'Number') return plainDecimal(stored.numberValue ?? 0);
  if (type === 'Boolean') return String(stored.booleanValue);
  return stored.value ?? '';
}
