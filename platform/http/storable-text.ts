/**
 * Text PostgreSQL can store. It refuses the NUL character in any text, and it stores a lone
 * UTF-16 surrogate (half of a pair, not a character) as U+FFFD, so the stored text is not the
 * text that was sent: a later look-up by the same text misses it. Both are refused on input,
 * in every field of every request, before any rule of the request's own runs.
 */

// eslint-disable-next-line no-control-regex -- the NUL character is what this looks for
const SUSPECT = /[\u0000\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
export const LONE_SURROGATE_MESSAGE =
  'must not contain an unpaired UTF-16 surrogate (U+D800 to U+DFFF), which is not a character';

/** Why a text cannot be stored as sent, or undefined when it can. */
export function unstorableTextReason(text: string): string | undefined {
  if (!SUSPECT.test(text)) return undefined;
  if (text.includes('\u0000')) return NUL_MESSAGE;
  return LONE_SURROGATE.test(text) ? LONE_SURROGATE_MESSAGE : undefined;
}

export interface UnstorableText {
  /** Where the text is: object keys and array indexes from the value's root. */
  path: PropertyKey[];
  message: string;
}

/**
 * Every text in a JSON value that cannot be stored: strings, and the keys of objects (which
 * bodies such as an import file use as names). A bad key is reported on its object.
 */
export function findUnstorableText(value: unknown, path: PropertyKey[] = []): UnstorableText[] {
  if (typeof value === 'string') {
    const reason = unstorableTextReason(value);
    return reason ? [{ path, message: reason }] : [];
  }
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => findUnstorableText(item, [...path, index]));
  }
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const reason = unstorableTextReason(key);
    const keyIssue = reason ? [{ path, message: `has a key that ${reason}` }] : [];
    return [...keyIssue, ...findUnstorableText(item, [...path, key])];
  });
}
