import { createSecretKey, randomBytes } from 'node:crypto';
import { SealBrokenError } from '../../../platform/encryption/sealed-box.js';
import { generationOf, OtherGenerationError, ValueCipher } from './value-cipher.js';

const organizationId = '1f0c7d44-0000-4000-8000-000000000001';
const cipher = (generation = 3, key = randomBytes(32)) =>
  new ValueCipher(organizationId, generation, createSecretKey(key));

describe("issue 12 item 4: a sensitive value sealed under its organization's data key (AES-256-GCM)", () => {
  it('opens to the text or number it sealed, and its bytes hold neither', () => {
    const key = randomBytes(32);
    const text = { value: 'correct horse battery staple', numberValue: null, booleanValue: null };
    const number = { value: null, numberValue: 3.25, booleanValue: null };
    for (const stored of [text, number]) {
      const sealed = cipher(3, key).seal(17, stored);
      expect(sealed.includes(Buffer.from('correct horse'))).toBe(false);
      expect(cipher(3, key).open(17, sealed)).toEqual(stored);
    }
  });

  it('starts with the generation of the key that sealed it; another generation is OtherGenerationError', () => {
    const key = randomBytes(32);
    const sealed = cipher(7, key).seal(1, { value: 'x', numberValue: null, booleanValue: null });
    expect(generationOf(sealed)).toBe(7);
    expect(() => cipher(8, key).open(1, sealed)).toThrow(OtherGenerationError);
  });

  it('opens only for its own variable and organization, with its own key, unchanged', () => {
    const key = randomBytes(32);
    const sealed = cipher(1, key).seal(5, { value: 'secret', numberValue: null, booleanValue: null });
    expect(() => cipher(1, key).open(6, sealed)).toThrow(SealBrokenError);
    expect(() =>
      new ValueCipher('1f0c7d44-0000-4000-8000-000000000002', 1, createSecretKey(key)).open(5, sealed),
    ).toThrow(SealBrokenError);
    expect(() => cipher(1).open(5, sealed)).toThrow(SealBrokenError);
    const changed = Buffer.from(sealed);
    changed[changed.length - 1]! ^= 1;
    expect(() => cipher(1, key).open(5, changed)).toThrow(SealBrokenError);
  });
});
