import { SignJWT } from 'jose';
import type { Settings } from '../config/settings.js';
import { InternalError } from '../errors/domain-errors.js';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys.js';
import type { SessionClaims } from './session-claims.js';

/** Mints session tokens (the identity service). */
export class TokenSigner {
  constructor(
    private readonly keys: SigningKeys,
    private readonly jwt: Settings['jwt'],
  ) {}

  async sign(claims: SessionClaims, now: Date): Promise<string> {
    if (!this.keys.privateKey) throw new InternalError('No private key is configured to sign tokens.');
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({ ...claims, auth_time: claims.auth_time ?? issuedAt })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: this.keys.keyId, typ: 'JWT' })
      .setIssuer(this.jwt.issuer)
      .setAudience(this.jwt.audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.jwt.durationInMinutes * 60)
      .sign(this.keys.privateKey);
  }
}
