import { decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import { z } from 'zod';
import type { Settings } from '../config/settings.js';
import { UnauthorizedError } from '../errors/domain-errors.js';
import { isPermissionName, type PermissionName } from '../permissions/catalogue.js';
import type { Clock } from '../time/clock.js';
import type { Caller } from './caller.js';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys.js';

const claimsSchema = z.object({
  sub: z.uuid(),
  org: z.uuid(),
  iat: z.number(),
  exp: z.number(),
  permissions: z.array(z.string()).default([]),
  variableSets: z.record(z.string(), z.array(z.number().int())).optional(),
  auth_time: z.number().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
});
type Claims = z.output<typeof claimsSchema>;

/**
 * Verifies session tokens: RS256 only (the algorithm is pinned, so `none` and HMAC
 * confusion are refused), `iss`, `aud` and `exp` required and checked against settings
 * and the clock. Anything wrong is the same 401; the reason is not told to the caller.
 */
export class TokenVerifier {
  /**
   * Tokens verified already, by their text, until they expire: a program reads with one token
   * all day, and an RS256 check costs more than the rest of its request. The oldest is forgotten
   * first once `capacity` are kept.
   */
  private readonly verified = new Map<string, Caller>();

  constructor(
    private readonly keys: SigningKeys,
    private readonly jwt: Settings['jwt'],
    private readonly clock: Clock,
    private readonly capacity = 10_000,
  ) {}

  /** The caller of a token verified already and not expired since, without waiting; undefined otherwise. */
  remembered(token: string): Caller | undefined {
    const known = this.verified.get(token);
    return known && this.clock.now() < known.expiresAt ? known : undefined;
  }

  async verify(token: string): Promise<Caller> {
    const known = this.remembered(token);
    if (known) return known;
    this.verified.delete(token);
    const now = this.clock.now();
    const caller = toCaller(token, await this.claims(token, now));
    if (this.verified.size >= this.capacity) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, caller);
    return caller;
  }

  /**
   * For renewing a session (the identity service's /refreshjwt): everything is checked but
   * expiry, since an expired token is exactly what gets refreshed. The caller decides
   * whether the session is still within its refresh window (`authTime`).
   */
  async verifyForRefresh(
    token: string,
  ): Promise<{ caller: Caller; authTime: Date; name?: string; email?: string }> {
    let issuedAt: unknown;
    try {
      issuedAt = decodeJwt(token).iat;
    } catch {
      throw new UnauthorizedError('The session token is not valid.');
    }
    if (typeof issuedAt !== 'number') throw new UnauthorizedError('The session token is not valid.');
    // Checked as of its own issue time: the signature and every claim must hold, expiry aside.
    const claims = await this.claims(token, new Date(issuedAt * 1000));
    return {
      caller: toCaller(token, claims),
      authTime: new Date((claims.auth_time ?? claims.iat) * 1000),
      name: claims.name,
      email: claims.email,
    };
  }

  private async claims(token: string, at: Date): Promise<Claims> {
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, this.keys.publicKey, {
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.jwt.issuer,
        audience: this.jwt.audience,
        requiredClaims: ['iss', 'aud', 'exp', 'iat', 'sub'],
        currentDate: at,
      }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError)
        throw new UnauthorizedError('The session token is not valid.');
      throw error;
    }
    const claims = claimsSchema.safeParse(payload);
    if (!claims.success) throw new UnauthorizedError('The session token is not valid.');
    return claims.data;
  }
}

function toCaller(token: string, claims: Claims): Caller {
  const { sub, org, iat, exp, permissions, variableSets } = claims;
  return {
    accountId: sub,
    organizationId: org,
    permissions: new Set(permissions.filter(isPermissionName)),
    variableSets: new Map(
      Object.entries(variableSets ?? {})
        .filter((entry): entry is [PermissionName, number[]] => isPermissionName(entry[0]))
        .map(([name, ids]) => [name, new Set(ids)]),
    ),
    token,
    issuedAt: new Date(iat * 1000),
    expiresAt: new Date(exp * 1000),
  };
}
