import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../platform/auth/caller.js';
import { withConstraintErrors } from '../../../platform/db/database-errors.js';
import { ACROSS_ORGANIZATIONS, scopeToOrganization } from '../../../platform/db/tenancy.js';
import { BadRequestError, NotFoundError } from '../../../platform/errors/domain-errors.js';
import type { ListQuery, Page } from '../../../platform/http/query-schemas.js';
import { holds, requireCaller, requirePermission } from '../../../platform/permissions/authorize.js';
import {
  expiryDate,
  generateApiKey,
  hashApiKey,
  isExpired,
  keyHashPrefix,
  keyHint,
  sameKeyHash,
} from '../domain/api-keys.js';
import { Organization } from '../organizations/organization.entity.js';
import { UserApiKey } from './user-api-key.entity.js';
import { User } from '../users/user.entity.js';
import { permissionsOf } from '../groups/memberships.js';
import { readerFor, recordAudit, type AccountDependencies } from '../account-dependencies.js';
import { apiKeyDeletion, apiKeyRecord, apiKeyView } from './api-key.views.js';
import type { ApiKeyCreateBody, ApiKeyCreatedView, ApiKeyView } from './api-key.schemas.js';
import type { SessionAccountView } from '../users/user.schemas.js';
import { findUser } from '../users/user.service.js';

const KEY_NOT_FOUND = 'No such API key.';

/**
 * API keys (spec 4.2, "Key creation rules" 1 to 5). A key is minted for the account in the
 * token (own route) or in the path (service-account route), never for one named in the
 * body, and carries the permissions of that account's groups.
 */
export class ApiKeyService {
  constructor(private readonly deps: AccountDependencies) {}

  /** GET /users/me/apikeys: the caller's own keys, newest first. */
  async listOwn(caller: Caller | undefined, query: ListQuery): Promise<Page<ApiKeyView>> {
    const known = requireCaller(caller);
    return this.listOf(readerFor(this.deps, known), known.accountId, query);
  }

  /** GET /users/{id}/apikeys: UserRead; newest first. */
  async listFor(caller: Caller | undefined, userId: string, query: ListQuery): Promise<Page<ApiKeyView>> {
    const known = requirePermission(caller, 'UserRead');
    const em = readerFor(this.deps, known);
    await findUser(em, userId);
    return this.listOf(em, userId, query);
  }

  /** POST /users/me/apikeys: ProfileCreateApiKey; NoExpiry also needs ProfileNeverExpiresApiKey, else 400 naming it. */
  async createOwn(caller: Caller | undefined, body: ApiKeyCreateBody): Promise<ApiKeyCreatedView> {
    const known = requirePermission(caller, 'ProfileCreateApiKey');
    this.assertExpiryAllowed(known, body);
    return this.mint(known, known.accountId, body);
  }

  /**
   * POST /users/{id}/apikeys: UserCreateServiceAccountApiKey (which depends on UserRead).
   * A target of another organization is 404; one that is not a service account is 400.
   */
  async createFor(
    caller: Caller | undefined,
    userId: string,
    body: ApiKeyCreateBody,
  ): Promise<ApiKeyCreatedView> {
    const known = requirePermission(caller, 'UserCreateServiceAccountApiKey');
    const target = await findUser(readerFor(this.deps, known), userId);
    if (!target.serviceAccount) {
      throw new BadRequestError('API keys can only be minted this way for service accounts.', [
        { field: 'path.id', message: 'not a service account' },
      ]);
    }
    this.assertExpiryAllowed(known, body);
    return this.mint(known, userId, body);
  }

  /** DELETE /users/me/apikeys/{id}: one's own key, no permission needed. */
  async deleteOwn(caller: Caller | undefined, keyId: number): Promise<void> {
    const known = requireCaller(caller);
    await this.revoke(known, known.accountId, keyId);
  }

  /** DELETE /users/{id}/apikeys/{apiKeyId}: UserDelete. */
  async deleteFor(caller: Caller | undefined, userId: string, keyId: number): Promise<void> {
    const known = requirePermission(caller, 'UserDelete');
    await this.revoke(known, userId, keyId);
  }

  /**
   * POST /apikeys/lookup: anonymous. The account holding the key with this SHA-256, with its
   * groups' permissions. Unknown, revoked and expired keys, and keys of a disabled
   * organization, all give the same 404. The database finds candidates by the hash's
   * non-secret prefix; the constant-time compare of the whole hash picks the key.
   */
  async lookup(sha: string): Promise<SessionAccountView> {
    const em = this.deps.orm.em.fork();
    const candidates = await em.find(UserApiKey, { keyHashPrefix: keyHashPrefix(sha) }, ACROSS_ORGANIZATIONS);
    const key = candidates.find((candidate) => sameKeyHash(candidate.keyHash, sha));
    if (!key || isExpired(key.expiresAt, this.deps.clock.now())) {
      throw new NotFoundError(KEY_NOT_FOUND);
    }
    const organization = await em.findOne(Organization, { id: key.organizationId, active: true });
    if (!organization) throw new NotFoundError(KEY_NOT_FOUND);
    scopeToOrganization(em, key.organizationId);
    const user = await em.findOne(User, { id: key.userId });
    if (!user) throw new NotFoundError(KEY_NOT_FOUND);
    const { permissions, variableSets } = await permissionsOf(em, user.id);
    return {
      user: {
        id: user.id,
        organizationId: user.organizationId,
        name: user.name,
        email: user.email,
        serviceAccount: user.serviceAccount,
      },
      permissions,
      variableSets,
    };
  }

  private async listOf(em: EntityManager, userId: string, query: ListQuery): Promise<Page<ApiKeyView>> {
    const [keys, total] = await em.findAndCount(
      UserApiKey,
      { userId },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: query.take, offset: query.skip },
    );
    const now = this.deps.clock.now();
    return { total, items: keys.map((key) => apiKeyView(key, now)) };
  }

  private assertExpiryAllowed(caller: Caller, body: ApiKeyCreateBody): void {
    if (body.expiry === 'NoExpiry' && !holds(caller, 'ProfileNeverExpiresApiKey')) {
      throw new BadRequestError('A key that never expires needs the ProfileNeverExpiresApiKey permission.', [
        { field: 'body.expiry', message: 'NoExpiry needs ProfileNeverExpiresApiKey' },
      ]);
    }
  }

  private mint(caller: Caller, userId: string, body: ApiKeyCreateBody): Promise<ApiKeyCreatedView> {
    const now = this.deps.clock.now();
    const apiKey = generateApiKey();
    const keyHash = hashApiKey(apiKey);
    return this.deps.transactions.run(async ({ em, outbox }) => {
      await findUser(em, userId);
      const key = em.create(UserApiKey, {
        userId,
        organizationId: caller.organizationId,
        keyHash,
        keyHashPrefix: keyHashPrefix(keyHash),
        hint: keyHint(apiKey),
        description: body.description,
        createdAt: now,
        expiresAt: expiryDate(body.expiry, now),
        bootstrap: false,
      });
      // The account was deleted meanwhile, alone or with its organization: whoever deletes it
      // locks it first, so a key is either refused here or recorded by that delete.
      await withConstraintErrors(() => em.flush(), {
        foreignKey: () => NotFoundError.entity('User', userId),
      });
      recordAudit(this.deps, outbox, caller, {
        entryType: 'UserApiKey',
        entityName: 'UserApiKey',
        entityId: key.id,
        change: { action: 'Create', after: apiKeyRecord(key, now) },
      });
      const { id, hint, description, createdAt, expiresAt } = apiKeyView(key, now);
      return { id, apiKey, hint, description, createdAt, expiresAt };
    }, caller.organizationId);
  }

  private async revoke(caller: Caller, userId: string, keyId: number): Promise<void> {
    await this.deps.transactions.run(async ({ em, outbox }) => {
      const key = await em.findOne(UserApiKey, { id: keyId, userId });
      if (!key) throw NotFoundError.entity('API key', keyId);
      const deletion = apiKeyDeletion(key, this.deps.clock.now());
      // Removed meanwhile with its account or organization, whose delete recorded it.
      if ((await em.nativeDelete(UserApiKey, { id: keyId })) === 0)
        throw NotFoundError.entity('API key', keyId);
      recordAudit(this.deps, outbox, caller, deletion);
    }, caller.organizationId);
  }
}
