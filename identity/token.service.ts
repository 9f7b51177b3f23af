import { createHash, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { exportJWK } from 'jose';
import type { DirectAuditPublisher } from '../platform/audit-log/direct-audit-publisher.js';
import type { AccountClient, SessionAccount } from '../platform/clients/account-client.js';
import type { Settings } from '../platform/config/settings.js';
import type { TokenSigner } from '../platform/auth/token-signer.js';
import type { TokenVerifier } from '../platform/auth/token-verifier.js';
import type { SessionClaims } from '../platform/auth/session-claims.js';
import {
  DomainError,
  ForbiddenError,
  InternalError,
  NotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../platform/errors/domain-errors.js';
import { ConcurrencyLimit } from '../platform/limits/concurrency-limit.js';
import type { Logger } from '../platform/logging/logger.js';
import type { Clock } from '../platform/time/clock.js';
import type { GeneratedKeyView, GenerateJwtBody, RefreshJwtBody } from './identity.schemas.js';

export interface IdentityDependencies {
  account: AccountClient;
  signer: TokenSigner;
  verifier: TokenVerifier;
  audit: DirectAuditPublisher;
  clock: Clock;
  jwt: Settings['jwt'];
  logger: Logger;
}

/** One message for every refused key, whatever the cause (spec 5.12). */
export const API_KEY_REFUSED = 'The API key is missing, unknown, revoked or expired.';

/**
 * Token minting (spec 4.3). Every token, from a login, a key or a refresh, carries the same
 * claims for its account: `sub` (the account id), `org`, the permissions of its groups (with
 * set restrictions), name and address, and lasts Jwt:DurationInMinutes.
 */
export class TokenService {
  /**
   * Key generation is anonymous and costs a core for a tenth of a second or so: one key at a
   * time, made on libuv's thread pool, never on the event loop every service shares.
   */
  private readonly keyGeneration = new ConcurrencyLimit(1, () =>
    ServiceUnavailableError.busy('A key is being generated; try again in a second.', 1),
  );

  constructor(private readonly deps: IdentityDependencies) {}

  /**
   * POST /generatejwt: provisions the login through the account service and mints a token
   * for the account it names. The account's name and address go into the token, not the
   * provider's. Nobody to issue to, and no pattern permits creating one: 403.
   */
  async generate(body: GenerateJwtBody): Promise<string> {
    let account: SessionAccount;
    try {
      account = await this.deps.account.provision({
        provider: body.provider,
        providerUserId: body.providerUserId,
        email: body.email,
        name: body.name,
        organizationId: body.orgId,
        profileImage: body.profileImage,
      });
    } catch (error) {
      if (error instanceof ForbiddenError || error instanceof NotFoundError) {
        this.deps.audit.record(
          { organizationId: null, accountId: null },
          {
            entryType: 'JWT',
            entityName: 'User',
            entityId: body.email,
            change: {
              action: 'Denied',
              after: { email: body.email, organizationId: body.orgId, provider: body.provider },
            },
          },
        );
        throw new ForbiddenError('There is nobody to issue a token to; end the session.');
      }
      throw error;
    }
    const token = await this.mint(claimsOf(account));
    this.deps.audit.record(
      { organizationId: account.user.organizationId, accountId: account.user.id },
      {
        entryType: 'JWT',
        entityName: 'User',
        entityId: account.user.id,
        change: { action: 'Create', after: { provider: body.provider, via: 'login' } },
      },
    );
    return token;
  }

  /**
   * POST /refreshjwt: renews the presented session, which must be the one the body names and
   * within its refresh window (Jwt:RefreshDurationInMinutes from when it began). Reads the
   * permissions again; creates and changes nothing. A service account signs in only with its
   * keys, so its sessions are not renewed: a revoked or expired key ends them within
   * Jwt:DurationInMinutes, not a refresh window later.
   */
  async refresh(presented: string | undefined, body: RefreshJwtBody): Promise<string> {
    if (!presented) throw new UnauthorizedError('The session token to renew is required.');
    const session = await this.deps.verifier.verifyForRefresh(presented);
    if (session.caller.accountId !== body.userId || session.caller.organizationId !== body.orgId) {
      throw new ForbiddenError('The session token is for another account or organization.');
    }
    const windowEnds = session.authTime.getTime() + this.deps.jwt.refreshDurationInMinutes * 60_000;
    if (this.deps.clock.now().getTime() >= windowEnds) {
      throw new UnauthorizedError('The session is past its refresh window; sign in again.');
    }
    const current = await this.deps.account.permissionsOf(body.userId, body.orgId);
    if (!current) throw new UnauthorizedError('The account no longer exists; sign in again.');
    if (current.serviceAccount) {
      throw new UnauthorizedError(
        "A service account's session is not renewed; exchange its API key for a new token.",
      );
    }
    const token = await this.mint({
      sub: body.userId,
      org: body.orgId,
      permissions: current.permissions,
      ...(Object.keys(current.variableSets).length > 0 ? { variableSets: current.variableSets } : {}),
      ...(session.name !== undefined ? { name: session.name } : {}),
      ...(session.email !== undefined ? { email: session.email } : {}),
      auth_time: Math.floor(session.authTime.getTime() / 1000),
    });
    this.deps.audit.record(
      { organizationId: body.orgId, accountId: body.userId },
      {
        entryType: 'JWTRefresh',
        entityName: 'User',
        entityId: body.userId,
        change: { action: 'Refresh' },
      },
    );
    return token;
  }

  /**
   * POST /apikeyjwt: a token for the account holding the key, exactly as a login would get
   * it; the key names the account and organization, nothing else can. Every refusal is the
   * same 401; a key that was accepted but cannot be signed for is a 500.
   */
  async fromApiKey(apiKey: string | undefined): Promise<{ token: string; expiresAt: Date }> {
    const sha = apiKey ? createHash('sha256').update(apiKey, 'utf8').digest('hex') : undefined;
    const account = sha ? await this.deps.account.lookupApiKey(sha) : null;
    if (!account) {
      this.deps.audit.record(
        { organizationId: null, accountId: null },
        {
          entryType: 'JWT',
          entityName: 'UserApiKey',
          // A prefix of the hash lets an operator correlate attempts without the key being kept.
          entityId: sha ? sha.slice(0, 12) : '',
          change: { action: 'ApiKeyDenied' },
        },
      );
      throw new UnauthorizedError(API_KEY_REFUSED);
    }
    const token = await this.mint(claimsOf(account));
    this.deps.audit.record(
      { organizationId: account.user.organizationId, accountId: account.user.id },
      {
        entryType: 'JWT',
        entityName: 'User',
        entityId: account.user.id,
        change: { action: 'Create', after: { via: 'apiKey' } },
      },
    );
    return {
      token,
      expiresAt: new Date(this.deps.clock.now().getTime() + this.deps.jwt.durationInMinutes * 60_000),
    };
  }

  /** GET /generatejwk/{key}: a new RS256 key pair for an operator to configure as Jwt:PrivateKey. */
  async generateKeyPair(kid: string): Promise<GeneratedKeyView> {
    const { publicKey, privateKey } = await this.keyGeneration.run(() =>
      generateRsaKeyPair('rsa', { modulusLength: 2048 }),
    );
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    this.deps.audit.record(
      { organizationId: null, accountId: null },
      {
        entryType: 'JWK',
        entityName: 'SigningKey',
        entityId: kid,
        change: { action: 'Create', after: { kid } },
      },
    );
    return {
      kid,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      jwk,
    };
  }

  /** Signs, turning any signing failure into a 500 (spec 5.12: never a 401). */
  private async mint(claims: SessionClaims): Promise<string> {
    try {
      return await this.deps.signer.sign(claims, this.deps.clock.now());
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new InternalError('The token could not be signed.', { cause: error });
    }
  }
}

const generateRsaKeyPair = promisify(generateKeyPair);

function claimsOf(account: SessionAccount): SessionClaims {
  return {
    sub: account.user.id,
    org: account.user.organizationId,
    permissions: account.permissions,
    ...(Object.keys(account.variableSets).length > 0 ? { variableSets: account.variableSets } : {}),
    name: account.user.name,
    email: account.user.email,
  };
}
