import { randomUUID } from 'node:crypto';
import { raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SettingsError } from '../../platform/config/settings.js';
import { scopeToOrganization } from '../../platform/db/tenancy.js';
import type { OutboxWriter } from '../../platform/outbox/transaction-runner.js';
import { PERMISSION_CATALOGUE } from '../../platform/permissions/catalogue.js';
import { hashApiKey, keyHashPrefix, keyHint } from './domain/api-keys.js';
import { GroupMember } from './groups/group-member.entity.js';
import { Group } from './groups/group.entity.js';
import { Organization } from './organizations/organization.entity.js';
import { UserApiKey } from './api-keys/user-api-key.entity.js';
import { User } from './users/user.entity.js';
import type { AccountDependencies } from './account-dependencies.js';
import { apiKeyDeletion, apiKeyRecord } from './api-keys/api-key.views.js';
import { groupView } from './groups/group.views.js';
import { organizationView } from './organizations/organization.views.js';
import { userView } from './users/user.views.js';
import { groupViews } from './groups/group.service.js';

export const SYSTEM_ORGANIZATION = 'System';
export const SYSTEM_ADMINISTRATORS_GROUP = 'System administrators';
export const BOOTSTRAP_ACCOUNT_EMAIL = 'bootstrap@system.invalid';

/**
 * The first administrator (CONTRACT section 2): with SVC_BOOTSTRAP_API_KEY set, the
 * organization `System`, its service account `bootstrap` in the group `System
 * administrators` holding every permission, and the key itself as a key of that account
 * that never expires. Idempotent across restarts and replicas (an advisory lock makes
 * concurrent starts take turns); a changed key replaces the old one.
 *
 * A start without the setting changes nothing: a replica or a service started alone without it
 * must not delete what the others re-create. The key is an ordinary key of the bootstrap
 * account, so an operator ends it with DELETE /users/{id}/apikeys/{apiKeyId}; it then stays
 * revoked until a start with the setting makes it again.
 */
export class BootstrapService {
  constructor(private readonly deps: AccountDependencies) {}

  /** At each start, with the value of SVC_BOOTSTRAP_API_KEY, if any. */
  async apply(apiKey: string | undefined): Promise<void> {
    if (apiKey) await this.ensure(apiKey);
  }

  private async ensure(apiKey: string): Promise<void> {
    await this.deps.transactions.run(async ({ em, outbox }) => {
      await this.takeTurn(em);
      const organization = await this.organization(em, outbox);
      scopeToOrganization(em, organization.id);
      const group = await this.group(em, outbox, organization.id);
      const user = await this.account(em, outbox, organization.id);
      if (!(await em.findOne(GroupMember, { groupId: group.id, userId: user.id }))) {
        em.create(GroupMember, { groupId: group.id, userId: user.id, organizationId: organization.id });
      }
      await this.key(em, outbox, user, apiKey);
      await em.flush();
    });
  }

  /** Concurrent starts (replicas) take turns. */
  private async takeTurn(em: EntityManager): Promise<void> {
    await em.execute(`select pg_advisory_xact_lock(hashtext('account-bootstrap'))`);
  }

  private async removeKey(em: EntityManager, outbox: OutboxWriter, key: UserApiKey): Promise<void> {
    const deletion = apiKeyDeletion(key, this.deps.clock.now());
    await em.nativeDelete(UserApiKey, { id: key.id });
    this.deps.auditLog.record(outbox, this.author(key.organizationId), deletion);
  }

  private author(organizationId: string) {
    return { organizationId, accountId: null };
  }

  private async organization(em: EntityManager, outbox: OutboxWriter): Promise<Organization> {
    const found = await em.findOne(Organization, { [raw('lower(name)')]: SYSTEM_ORGANIZATION.toLowerCase() });
    if (found) return found;
    const now = this.deps.clock.now();
    const organization = em.create(Organization, {
      id: randomUUID(),
      name: SYSTEM_ORGANIZATION,
      active: true,
      accountPatterns: [],
      adminEmails: [],
      additionalCredits: 0,
      usedCredits: 0,
      pricingBand: null,
      providers: [],
      logo: null,
      logoContentType: null,
      customCss: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
      createdById: null,
      updatedById: null,
    });
    await em.flush();
    this.deps.auditLog.record(outbox, this.author(organization.id), {
      entryType: 'Organization',
      entityName: 'Organization',
      entityId: organization.id,
      version: 1,
      change: { action: 'Create', after: organizationView(organization, this.deps.credits) },
    });
    return organization;
  }

  /** The group holds every permission of the catalogue, including ones added since it was made. */
  private async group(em: EntityManager, outbox: OutboxWriter, organizationId: string): Promise<Group> {
    const everything = PERMISSION_CATALOGUE.map((p) => p.name);
    const now = this.deps.clock.now();
    const found = await em.findOne(Group, {
      [raw('lower(name)')]: SYSTEM_ADMINISTRATORS_GROUP.toLowerCase(),
    });
    if (found) {
      if (everything.every((name) => found.permissions.includes(name)) && found.variableSetIds.length === 0)
        return found;
      const [before] = await groupViews(em, [found]);
      em.assign(found, {
        permissions: everything,
        variableSetIds: [],
        version: found.version + 1,
        updatedAt: now,
      });
      await em.flush();
      this.deps.auditLog.record(outbox, this.author(organizationId), {
        entryType: 'Group',
        entityName: 'Group',
        entityId: found.id,
        version: found.version,
        change: { action: 'Update', before: before!, after: (await groupViews(em, [found]))[0]! },
      });
      return found;
    }
    const group = em.create(Group, {
      organizationId,
      name: SYSTEM_ADMINISTRATORS_GROUP,
      description: 'Every permission, global ones included. Holds the bootstrap account.',
      permissions: everything,
      variableSetIds: [],
      version: 1,
      createdAt: now,
      updatedAt: now,
      createdById: null,
      updatedById: null,
    });
    await em.flush();
    this.deps.auditLog.record(outbox, this.author(organizationId), {
      entryType: 'Group',
      entityName: 'Group',
      entityId: group.id,
      version: 1,
      change: { action: 'Create', after: groupView(group, []) },
    });
    return group;
  }

  private async account(em: EntityManager, outbox: OutboxWriter, organizationId: string): Promise<User> {
    const found = await em.findOne(User, { [raw('lower(email)')]: BOOTSTRAP_ACCOUNT_EMAIL });
    if (found) return found;
    const now = this.deps.clock.now();
    const user = em.create(User, {
      id: randomUUID(),
      organizationId,
      name: 'bootstrap',
      email: BOOTSTRAP_ACCOUNT_EMAIL,
      serviceAccount: true,
      profileImage: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
      createdById: null,
      updatedById: null,
    });
    await em.flush();
    this.deps.auditLog.record(outbox, this.author(organizationId), {
      entryType: 'User',
      entityName: 'User',
      entityId: user.id,
      version: 1,
      change: { action: 'Create', after: userView(user, [], []) },
    });
    return user;
  }

  private async key(em: EntityManager, outbox: OutboxWriter, user: User, apiKey: string): Promise<void> {
    const keyHash = hashApiKey(apiKey);
    const current = await em.find(UserApiKey, { userId: user.id, bootstrap: true });
    if (current.some((key) => key.keyHash === keyHash)) return;
    for (const old of current) await this.removeKey(em, outbox, old);
    const now = this.deps.clock.now();
    const key = em.create(UserApiKey, {
      userId: user.id,
      organizationId: user.organizationId,
      keyHash,
      keyHashPrefix: keyHashPrefix(keyHash),
      hint: keyHint(apiKey),
      description: 'SVC_BOOTSTRAP_API_KEY',
      createdAt: now,
      expiresAt: null,
      bootstrap: true,
    });
    try {
      await em.flush();
    } catch (error) {
      // Keys are unique across organizations: the value is some account's key already.
      if (error instanceof UniqueConstraintViolationException) {
        throw new SettingsError([
          'SVC_BOOTSTRAP_API_KEY: this value is already an API key of an account; choose another value',
        ]);
      }
      throw error;
    }
    this.deps.auditLog.record(outbox, this.author(user.organizationId), {
      entryType: 'UserApiKey',
      entityName: 'UserApiKey',
      entityId: key.id,
      change: { action: 'Create', after: apiKeyRecord(key, now) },
    });
  }
}
