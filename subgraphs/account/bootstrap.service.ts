import { randomUUID } from 'node:crypto';
import { raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SettingsError } from '../../platform/config/settings.js';
import { scopeToOrganization } from '../../platform/db/tenancy.js';
import type { AuditAuthor } from '../../platform/audit-log/audit-log.js';
import type { OutboxWriter, Transaction } from '../../platform/outbox/transaction-runner.js';
import { PERMISSION_CATALOGUE } from '../../platform/permissions/catalogue.js';
import { hashApiKey, keyHashPrefix, keyHint } from './domain/api-keys.js';
import { GroupMember } from './groups/group-member.entity.js';
import { Group } from './groups/group.entity.js';
import { Organization } from './organizations/organization.entity.js';
import { UserApiKey } from './api-keys/user-api-key.entity.js';
import { User } from './users/user.entity.js';
import type { AccountDependencies } from './account-dependencies.js';
import { apiKeyDeletion, apiKeyRecord } from './api-keys/api-key.views.js';
import { GROUPS } from './groups/group.views.js';
import { organizationKind } from './organizations/organization.views.js';
import { USERS } from './users/user.views.js';

export const SYSTEM_ORGANIZATION = 'System';
export const SYSTEM_ADMINISTRATORS_GROUP = 'System administrators';
export const BOOTSTRAP_ACCOUNT_EMAIL = 'bootstrap@system.invalid';

const NOBODY: AuditAuthor = { organizationId: null, accountId: null };

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
    await this.deps.transactions.run(async (tx) => {
      const { em, outbox } = tx;
      await this.takeTurn(em);
      const organization = await this.organization(tx);
      scopeToOrganization(em, organization.id);
      const group = await this.group(tx, organization.id);
      const user = await this.account(tx, organization.id);
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

  /** The start writes as nobody signed in, in the organization it writes to. */
  private author(organizationId: string): AuditAuthor {
    return { organizationId, accountId: null };
  }

  private async organization(tx: Transaction): Promise<Organization> {
    const found = await tx.em.findOne(Organization, {
      [raw('lower(name)')]: SYSTEM_ORGANIZATION.toLowerCase(),
    });
    if (found) return found;
    const fields = {
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
    };
    const created = await this.deps.writes.create(tx, NOBODY, organizationKind(this.deps.credits), fields, {
      author: (organization) => this.author(organization.id),
    });
    return created.row;
  }

  /** The group holds every permission of the catalogue, including ones added since it was made. */
  private async group(tx: Transaction, organizationId: string): Promise<Group> {
    const everything = PERMISSION_CATALOGUE.map((p) => p.name);
    const found = await tx.em.findOne(Group, {
      [raw('lower(name)')]: SYSTEM_ADMINISTRATORS_GROUP.toLowerCase(),
    });
    if (found) {
      await this.deps.writes.updateLocked(tx, this.author(organizationId), GROUPS, found, {
        change: (group) =>
          everything.every((name) => group.permissions.includes(name)) && group.variableSetIds.length === 0
            ? undefined
            : { permissions: everything, variableSetIds: [] },
      });
      return found;
    }
    const created = await this.deps.writes.create(tx, this.author(organizationId), GROUPS, {
      organizationId,
      name: SYSTEM_ADMINISTRATORS_GROUP,
      description: 'Every permission, global ones included. Holds the bootstrap account.',
      permissions: everything,
      variableSetIds: [],
    });
    return created.row;
  }

  private async account(tx: Transaction, organizationId: string): Promise<User> {
    const found = await tx.em.findOne(User, { [raw('lower(email)')]: BOOTSTRAP_ACCOUNT_EMAIL });
    if (found) return found;
    const created = await this.deps.writes.create(tx, this.author(organizationId), USERS, {
      id: randomUUID(),
      organizationId,
      name: 'bootstrap',
      email: BOOTSTRAP_ACCOUNT_EMAIL,
      serviceAccount: true,
      profileImage: null,
    });
    return created.row;
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
