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
      return plusMonths(now, 1);
    case 'OneYear':
      return plusMonths(now, 12);
    case 'NoExpiry':
      return null;
  }
}

/**
 * The same day and time `months` calendar months later, on the target month's last day when
 * it is shorter (Jan 31 + 1 month = Feb 28 or 29; Feb 29 + 1 year = Feb 28), never spilling
 * into the month after.
 */
function plusMonths(from: Date, months: number): Date {
  const monthIndex = from.getUTCMonth() + months;
  const year = from.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = monthIndex % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const at = new Date(from);
  at.setUTCFullYear(year, month, Math.min(from.getUTCDate(), lastDay));
  return at;
}

/** A new key: 256 random bits, so its unsalted hash cannot be reversed by guessing. */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The SHA-256 of a key, in hex: what is stored and what a lookup presents. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Hex digits of a key's hash that find its row: not secret, they only narrow the search. */
export const KEY_HASH_PREFIX_LENGTH = 16;

/** The indexed, non-secret part of a hash by which a lookup finds candidate keys. */
export function keyHashPrefix(hash: string): string {
  return hash.slice(0, KEY_HASH_PREFIX_LENGTH).toLowerCase();
}

/**
 * Whether a presented hex hash is the stored one. The database finds candidates by the
 * prefix only; this compare of the whole hash decides, in constant time, so the time a
 * lookup takes says nothing about how much of the rest of a guess was right.
 */
export function sameKeyHash(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(presented, 'hex');
  return a.length === 32 && b.length === 32 && timingSafeEqual(a, b);
}

/** The 4-character hint shown in lists: the key's last four characters (its start is a fixed prefix). */
export function keyHint(key: string): string {
  return key.slice(-4);
}

/** A key past its expiry no longer resolves (spec section 3). */
export function isExpired(expiresAt: Date | null | undefined, now: Date): boolean {
  return expiresAt !== null && expiresAt !== undefined && expiresAt.getTime() <= now.getTime();
}
