import { z } from 'zod';
import { BadRequestError } from '../errors/domain-errors.js';
import {
  findUnstorableText,
  LONE_SURROGATE_MESSAGE,
  NUL_MESSAGE,
  unstorableTextReason,
} from './storable-text.js';
import { parseInput } from './validation.js';

describe('decisions "Text PostgreSQL cannot store": NUL and lone surrogates are refused, every other text is not', () => {
  it.each([
    ['a NUL anywhere', 'ab\u0000c', NUL_MESSAGE],
    ['a NUL alone', '\u0000', NUL_MESSAGE],
    ['a high surrogate at the end', 'abc\ud800', LONE_SURROGATE_MESSAGE],
    ['a low surrogate alone', '\udc00abc', LONE_SURROGATE_MESSAGE],
    ['two high surrogates', '\ud800\ud800\udc00', LONE_SURROGATE_MESSAGE],
    ['a pair reversed', '\udc00\ud800', LONE_SURROGATE_MESSAGE],
  ])('refuses %s', (_name, text, message) => {
    expect(unstorableTextReason(text)).toBe(message);
  });

  it.each([
    ['plain text', 'Production'],
    ['an emoji (a surrogate pair)', 'deploy 🚀 now'],
    ['other control characters', 'tab\there\nline\u0001'],
    ['the replacement character itself', '\ufffd'],
    ['the empty text', ''],
  ])('accepts %s', (_name, text) => {
    expect(unstorableTextReason(text)).toBeUndefined();
  });

  it('finds bad strings at any depth, and bad object keys on their object', () => {
    const found = findUnstorableText({
      name: 'ok',
      tags: ['fine', 'b\u0000d'],
      sets: { 'Web\ud800': { value: 'x' }, Api: [{ value: '\udfff' }] },
    });
    expect(found).toEqual([
      { path: ['tags', 1], message: NUL_MESSAGE },
      { path: ['sets'], message: `has a key that ${LONE_SURROGATE_MESSAGE}` },
      { path: ['sets', 'Api', 0, 'value'], message: LONE_SURROGATE_MESSAGE },
    ]);
  });

  it('parseInput refuses them before the schema runs, naming each field, even where the schema would transform the text', () => {
    const schema = z.object({ name: z.string().trim(), note: z.string().transform(() => 'replaced') });
    let refused: unknown;
    try {
      parseInput(schema, { name: ' a\u0000 ', note: '\ud800' }, 'body');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).errors).toEqual([
      { field: 'body.name', message: NUL_MESSAGE },
      { field: 'body.note', message: LONE_SURROGATE_MESSAGE },
    ]);
  });
});
