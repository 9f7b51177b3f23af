import fc from 'fast-check';
import { hashOf, hintOf, plainDecimal } from './sensitive-values.js';

describe('spec 2 "Sensitive values": the hint', () => {
  it.each([
    ['more than 15 non-whitespace characters: the first 4', 'correct horse battery staple', 'corr'],
    ['whitespace is neither counted nor shown', '  a b c d e f g h i j k l m n o p', 'abcd'],
    ['exactly 16 characters: the first 4', '0123456789abcdef', '0123'],
    ['15 or fewer: one asterisk per non-whitespace character', 'secret', '******'],
    ['exactly 15: asterisks', '123456789012345', '***************'],
    ['whitespace inside a short text is not counted', 'a b\tc\nd', '****'],
    ['an empty text: nothing', '', ''],
    ['an emoji is one character and never split', '🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑', '🔑🔑🔑🔑'],
  ])('%s', (_rule, text, hint) => {
    expect(hintOf(text)).toBe(hint);
  });

  it('never shows more than 4 characters of a long text, nor any of a short one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const hint = hintOf(text);
        const visible = Array.from(text.replace(/\s/gu, ''));
        if (visible.length > 15) expect(hint).toBe(visible.slice(0, 4).join(''));
        else expect(hint).toBe('*'.repeat(visible.length));
      }),
    );
  });
});

describe('spec 2 "Sensitive values" / CONTRACT 6: the hash', () => {
  it('is 64 lowercase hexadecimal digits', () => {
    expect(hashOf('org', 'value')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is salted with the organization: the same value hashes differently in two organizations', () => {
    expect(hashOf('7b2e6c3a-0000-4000-8000-000000000001', 'same')).not.toBe(
      hashOf('7b2e6c3a-0000-4000-8000-000000000002', 'same'),
    );
  });

  it('is over the value exactly as given, whitespace included', () => {
    expect(hashOf('org', 'value')).not.toBe(hashOf('org', 'value '));
    expect(hashOf('org', 'value')).toBe(hashOf('org', 'value'));
  });
});

describe('CONTRACT 6: a Number written in plain decimal (no exponent)', () => {
  it.each([
    [10, '10'],
    [3.5, '3.5'],
    [-0.25, '-0.25'],
    [1e21, '1000000000000000000000'],
    [1.5e22, '15000000000000000000000'],
    [1e-7, '0.0000001'],
    [-1.25e-8, '-0.0000000125'],
    [123456789012345680000, '123456789012345680000'],
  ])('%p is %s', (value, text) => {
    expect(plainDecimal(value)).toBe(text);
  });

  it('reads back as the same number and never has an exponent', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = plainDecimal(value);
        expect(text).not.toMatch(/e/i);
        expect(Number(text)).toBe(value === 0 ? 0 : value);
      }),
    );
  });
});
