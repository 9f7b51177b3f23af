import { createHmac } from 'node:crypto';

/**
 * The two fields a sensitive value carries in place of itself (spec 2 "Sensitive values"),
 * derived here and nowhere else, from the value's source text: `value`, or for a Number the
 * number written in plain decimal (CONTRACT 6).
 */
export interface SecretMarks {
  hint: string;
  hash: string;
}

/** Hints show the first characters only of a text longer than this (whitespace not counted). */
const SHORT_TEXT = 15;
const HINT_LENGTH = 4;

/**
 * More than 15 non-whitespace characters: the first 4 of them (whitespace is neither counted nor
 * shown); otherwise one asterisk per non-whitespace character. Characters are code points, so an
 * emoji counts once and is never split in half.
 */
export function hintOf(text: string): string {
  const visible = Array.from(text.replace(/\s/gu, ''));
  return visible.length > SHORT_TEXT ? visible.slice(0, HINT_LENGTH).join('') : '*'.repeat(visible.length);
}

/**
 * SHA-256 of the text exactly as given, salted with the organization id: HMAC-SHA256 keyed by the
 * organization id (the standard way to salt a hash with a key), as 64 lowercase hex digits. Two
 * organizations storing the same secret get different hashes.
 */
export function hashOf(organizationId: string, text: string): string {
  return createHmac('sha256', organizationId).update(text, 'utf8').digest('hex');
}

export function secretMarks(organizationId: string, sourceText: string): SecretMarks {
  return { hint: hintOf(sourceText), hash: hashOf(organizationId, sourceText) };
}

/**
 * A number in plain decimal, never with an exponent (CONTRACT 6): the shortest digits that read
 * back as the same number, with the exponent written out (1e21 is 1000000000000000000000, 1e-7 is
 * 0.0000001).
 */
export function plainDecimal(value: number): string {
  const written = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(written);
  if (!match) return written;
  const [, sign, lead, fraction = '', exponentText] = match;
  const digits = `${lead}${fraction}`;
  const exponent = Number(exponentText);
  if (exponent >= 0) {
    const point = 1 + exponent;
    return (
      sign +
      (digits.length <= point
        ? digits.padEnd(point, '0')
        : `${digits.slice(0, point)}.${digits.slice(point)}`)
    );
  }
  return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
}
