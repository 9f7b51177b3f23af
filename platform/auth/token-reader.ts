import { parse as parseCookie } from 'cookie';
import type { IncomingHttpHeaders } from 'node:http';

export const SESSION_HEADER = 'x-svc-auth';

/**
 * Finds the session token: request header `x-svc-auth` first, then the browser cookie of
 * that name (spec section 5 point 1). `Authorization: Bearer` is deliberately never read.
 */
export function readSessionToken(headers: IncomingHttpHeaders): string | undefined {
  const header = headers[SESSION_HEADER];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader && fromHeader.trim()) return fromHeader.trim();
  const cookieHeader = headers.cookie;
  if (!cookieHeader) return undefined;
  const fromCookie = parseCookie(cookieHeader)[SESSION_HEADER];
  return fromCookie && fromCookie.trim() ? fromCookie.trim() : undefined;
}
