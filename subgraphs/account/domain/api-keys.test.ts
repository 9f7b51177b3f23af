import { expiryDate, hashApiKey, keyHashPrefix, sameKeyHash } from './api-keys.js';

const at = (iso: string) => new Date(iso);

describe('spec 8 / decisions "API keys": OneMonth and OneYear are calendar months and years, clamped to the month end', () => {
  it.each([
    ['OneMonth', '2026-01-31T10:20:30.400Z', '2026-02-28T10:20:30.400Z'],
    ['OneMonth', '2028-01-31T10:20:30.400Z', '2028-02-29T10:20:30.400Z'],
    ['OneMonth', '2026-03-31T23:59:59.999Z', '2026-04-30T23:59:59.999Z'],
    ['OneMonth', '2026-12-31T00:00:00.000Z', '2027-01-31T00:00:00.000Z'],
    ['OneMonth', '2026-01-15T10:00:00.000Z', '2026-02-15T10:00:00.000Z'],
    ['OneYear', '2028-02-29T12:00:00.000Z', '2029-02-28T12:00:00.000Z'],
    ['OneYear', '2026-01-31T12:00:00.000Z', '2027-01-31T12:00:00.000Z'],
    ['OneYear', '2027-02-28T12:00:00.000Z', '2028-02-28T12:00:00.000Z'],
  ] as const)('%s from %s is %s', (expiry, from, expected) => {
    expect(expiryDate(expiry, at(from))?.toISOString()).toBe(expected);
  });

  it('OneHour and OneDay add exact hours and days, NoExpiry is null', () => {
    const now = at('2026-01-31T23:30:00.000Z');
    expect(expiryDate('OneHour', now)?.toISOString()).toBe('2026-02-01T00:30:00.000Z');
    expect(expiryDate('OneDay', now)?.toISOString()).toBe('2026-02-01T23:30:00.000Z');
    expect(expiryDate('NoExpiry', now)).toBeNull();
  });
});

describe('spec 2 API key / issue 3 API keys: only a hash is stored and it is compared in constant time; a non-secret prefix finds the row', () => {
  const hash = hashApiKey('svc_some-long-random-key');

  it('the prefix is the first 16 hex digits of the hash, lower case', () => {
    expect(keyHashPrefix(hash)).toBe(hash.slice(0, 16));
    expect(keyHashPrefix(hash.toUpperCase())).toBe(hash.slice(0, 16));
  });

  it('the whole hash decides: a hash sharing the prefix but not the rest does not match', () => {
    const samePrefix = hash.slice(0, 16) + (hash[16] === '0' ? '1' : '0') + hash.slice(17);
    expect(sameKeyHash(hash, hash)).toBe(true);
    expect(sameKeyHash(hash, hash.toUpperCase())).toBe(true);
    expect(sameKeyHash(hash, samePrefix)).toBe(false);
    expect(sameKeyHash(hash, hash.slice(0, 62))).toBe(false);
  });
});
