import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** API key lifetimes (spec section 8); OneHour when none is asked for. */
export const API_KEY_EXPIRIES = ['OneHour', 'OneDay', 'OneMonth', 'OneYear', 'NoExpiry'] as const;
export type ApiKeyExpiry = (typeof API_KEY_EXPIRIES)[number];

const KEY_PREFIX = 'svc_';

/** When a key created now with this lifetime expires; null for NoExpiry. Computed server-side only. */
export function expiryDate(expiry: ApiKeyExpiry, now: Date): Date | null {
  const at = new Date(now);
  switch (expiry) {
    case 'OneHour':
      at.setUTCHours(at.getUTCHours() + 1);
      return at;
    case 'OneDay':
      at.setUTCDate(at.getUTCDate() + 1);
      return at;
    case 'OneMonth':
      at.setUTCMonth(at.getUTCMonth() + 1);
      return at;
    case 'OneYear':
      at.setUTCFullYear(at.getUTCFullYear() + 1);
      return at;
    case 'NoExpiry':
      return null;
  }
}

/** A new key: 256 random bits, so its unsalted hash cannot be reversed by guessing. */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The SHA-256 of a key, in hex: what is stored and what a lookup presents. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether a presented hash is the stored one, compared in constant time. */
export function sameKeyHash(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'utf8');
  const b = Buffer.from(presented.toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The 4-character hint shown in lists: the key's last four characters (its start is a fixed prefix). */
export function keyHint(key: string): string {
  return key.slice(-4);
}

/** A key past its expiry no longer resolves (spec section 3). */
export function isExpired(expiresAt: Date | null | undefined, now: Date): boolean {
  return expiresAt !== null && expiresAt !== undefined && expiresAt.getTime() <= now.getTime();
}
