import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../platform/auth/caller.js';
import type { AuditedKind } from '../../../platform/db/audited-writes.js';
import { scopeToOrganization } from '../../../platform/db/tenancy.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
} from '../../../platform/errors/domain-errors.js';
import type { ListQuery, Page } from '../../../platform/http/query-schemas.js';
import type { OutboxWriter } from '../../../platform/outbox/transaction-runner.js';
import { holds, requireCaller, requirePermission } from '../../../platform/permissions/authorize.js';
import { PERMISSION_CATALOGUE } from '../../../platform/permissions/catalogue.js';
import { filterCustomCss } from '../domain/custom-css.js';
import { totalCredits } from '../domain/credits.js';
import { Group } from '../groups/group.entity.js';
import { Organization, type StoredIdentityProvider } from './organization.entity.js';
import { UserApiKey } from '../api-keys/user-api-key.entity.js';
import { User } from '../users/user.entity.js';
import { recordAudit, type AccountDependencies } from '../account-dependencies.js';
import { apiKeyDeletion } from '../api-keys/api-key.views.js';
import {
  organizationKind,
  organizationView,
  shownOrganization,
  signInView,
  type ShownOrganizationView,
} from './organization.views.js';
import type { ProviderCheckInput, ProviderCheckResult } from './identity-provider-check.js';
import type {
  OrganizationBody,
  OrganizationUpdateBody,
  OrganizationView,
  ProviderCheckBody,
  SignInView,
} from './organization.schemas.js';
import { lockForNoKeyUpdate } from '../../../platform/db/row-locks.js';
import { GROUPS, groupViews } from '../groups/group.views.js';
import { userViews } from '../users/user.views.js';

/**
 * Locks, before anything is read, what deleting organization `id` (locked already) removes with
 * it, so nothing changes between the Delete entries and the delete: its groups `for no key
 * update`, then its accounts and their keys `for update`. A key minted or a membership added
 * meanwhile either committed before (and is read here) or waits and then fails its foreign key.
 * Groups first, and not `for update`: a PUT /users/{id}/groups holding an account and adding it to
 * a group only needs the group's key share, so it finishes and frees the account; accounts before
 * a PUT /groups/{id}/members could wait for them, as it holds no account (decisions.md "Row locks").
 */
async function lockWhatTheCascadeRemoves(em: EntityManager): Promise<void> {
  await lockForNoKeyUpdate(em, Group, 'all of the organization');
  const exclusive = { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } } as const;
  await em.find(User, {}, exclusive);
  await em.find(UserApiKey, {}, exclusive);
}

/** Checks an identity provider's credentials against the provider (identity-provider-check.ts). */
export interface ProviderCredentialCheck {
  check(input: ProviderCheckInput): Promise<ProviderCheckResult>;
}

/** The group every new organization starts with (CONTRACT section 3). */
export const ADMINISTRATORS_GROUP = 'Administrators';

/** Every permission that is not global: what an organization's administrators hold. */
export const ORGANIZATION_ADMINISTRATOR_PERMISSIONS = PERMISSION_CATALOGUE.filter(
  (p) => !p.globalPermission,
).map((p) => p.name);

const duplicateName = 'An organization with this name already exists.';

/**
 * Organizations (spec 4.2). Apart from the credit balance and the sign-in details, these
 * are the global organization permissions: not scoped to the caller's organization.
 */
export class OrganizationService {
  private readonly kind: AuditedKind<Organization, OrganizationView>;

  constructor(
    private readonly deps: AccountDependencies,
    private readonly providers: ProviderCredentialCheck,
  ) {
    this.kind = organizationKind(deps.credits);
  }

  async list(caller: Caller | undefined, query: ListQuery): Promise<Page<ShownOrganizationView>> {
    const known = requirePermission(caller, 'GlobalOrganizationList');
    const [items, total] = await this.deps.orm.em
      .fork()
      .findAndCount(
        Organization,
        {},
        { orderBy: { name: 'asc', id: 'asc' }, limit: query.take, offset: query.skip },
      );
    return {
      total,
      items: items.map((o) => shownOrganization(known, organizationView(o, this.deps.credits))),
    };
  }

  /**
   * Organizations referenced from other subgraphs, in one query: the caller's own, and any
   * with GlobalOrganizationRead. Ids not found (or not visible) are absent.
   */
  async referenced(caller: Caller | undefined, ids: string[]): Promise<Map<string, ShownOrganizationView>> {
    const known = requireCaller(caller);
    const visible = holds(known, 'GlobalOrganizationRead')
      ? ids
      : ids.filter((id) => id === known.organizationId);
    const organizations =
      visible.length === 0 ? [] : await this.deps.orm.em.fork().find(Organization, { id: { $in: visible } });
    return new Map(
      organizations.map((o) => [o.id, shownOrganization(known, organizationView(o, this.deps.credits))]),
    );
  }

  async get(caller: Caller | undefined, id: string): Promise<OrganizationView> {
    requirePermission(caller, 'GlobalOrganizationRead');
    return organizationView(await this.find(id), this.deps.credits);
  }

  /** GET /organizations/{id}/signin: anonymous; a disabled or unknown organization is 404. */
  async signIn(id: string): Promise<SignInView> {
    const organization = await this.deps.orm.em.fork().findOne(Organization, { id, active: true });
    if (!organization) throw NotFoundError.entity('Organization', id);
    return signInView(organization);
  }

  /** Creates an organization and its Administrators group, holding every permission that is not global. */
  async create(caller: Caller | undefined, body: OrganizationBody): Promise<ShownOrganizationView> {
    const known = requirePermission(caller, 'GlobalOrganizationCreate');
    this.assertBand(body.pricingBand);
    return this.deps.transactions.run(async (tx) => {
      const fields = {
        id: randomUUID(),
        name: body.name,
        active: body.active,
        accountPatterns: body.accountPatterns,
        adminEmails: body.adminEmails,
        additionalCredits: body.additionalCredits,
        pricingBand: null,
        providers: [],
        logo: null,
        logoContentType: null,
        customCss: null,
        ...this.storedFields(body, []),
        usedCredits: 0,
      };
      const created = await this.deps.writes.create(tx, known, this.kind, fields, {
        constraints: { unique: duplicateName },
      });
      // The rest is the new organization's.
      scopeToOrganization(tx.em, created.row.id);
      await this.deps.writes.create(tx, known, GROUPS, {
        organizationId: created.row.id,
        name: ADMINISTRATORS_GROUP,
        description: 'Every permission of the organization.',
        permissions: [...ORGANIZATION_ADMINISTRATOR_PERMISSIONS],
        variableSetIds: [],
      });
      return shownOrganization(known, created.view);
    });
  }

  /**
   * PUT /organizations/{id}: a field left out keeps its stored value, a field sent replaces it
   * (docs/decisions.md "Updates"). The row is locked while the version is compared and bumped
   * (row-locks.ts), so of two updates sent with the same version one wins and the other is 409.
   */
  async update(
    caller: Caller | undefined,
    id: string,
    body: OrganizationUpdateBody,
  ): Promise<ShownOrganizationView> {
    const known = requirePermission(caller, 'GlobalOrganizationUpdate');
    this.assertBand(body.pricingBand);
    return this.deps.transactions.run(async (tx) => {
      const updated = await this.deps.writes.update(tx, known, this.kind, id, {
        expectedVersion: body.version,
        constraints: { unique: duplicateName },
        change: (organization) => this.storedFields(body, organization.providers),
      });
      return shownOrganization(known, updated.view);
    });
  }

  /**
   * Deletes an organization with its accounts, groups and keys (the database cascades), and
   * answers the removed record. Each removed key, account and group gets its own Delete entry,
   * in the same transaction, so the audit log keeps every record (spec 3 and 6).
   */
  async remove(caller: Caller | undefined, id: string): Promise<ShownOrganizationView> {
    const known = requirePermission(caller, 'GlobalOrganizationDelete');
    if (id === known.organizationId) {
      throw new ConflictError('You cannot delete the organization you are signed in to.');
    }
    // Scoped to the organization being deleted: its rows are the ones the cascade removes.
    const removed = await this.deps.transactions.run(
      (tx) =>
        this.deps.writes.remove(tx, known, this.kind, id, {
          beforeDelete: async () => {
            await lockWhatTheCascadeRemoves(tx.em);
            await this.recordCascade(tx.em, tx.outbox, known);
          },
        }),
      id,
    );
    return shownOrganization(known, removed);
  }

  /**
   * POST /organizations/identityproviders/check: GlobalOrganizationRead and either
   * GlobalOrganizationUpdate or GlobalOrganizationCreate. The credentials go to the
   * provider and nowhere else; nothing is stored.
   */
  async checkProvider(caller: Caller | undefined, body: ProviderCheckBody): Promise<ProviderCheckResult> {
    const known = requirePermission(caller, 'GlobalOrganizationRead');
    if (!holds(known, 'GlobalOrganizationUpdate') && !holds(known, 'GlobalOrganizationCreate')) {
      throw new ForbiddenError();
    }
    return this.providers.check(body);
  }

  /** GET /organizations/me/credits: the caller's organization's balance. */
  async credits(caller: Caller | undefined): Promise<{ usedCredits: number; totalCredits: number }> {
    const known = requireCaller(caller);
    const organization = await this.find(known.organizationId);
    return {
      usedCredits: organization.usedCredits,
      totalCredits: totalCredits(organization, this.deps.credits),
    };
  }

  private async find(id: string): Promise<Organization> {
    const organization = await this.deps.orm.em.fork().findOne(Organization, { id });
    if (!organization) throw NotFoundError.entity('Organization', id);
    return organization;
  }

  private assertBand(band: string | null | undefined): void {
    if (band && this.deps.credits.bands[band.toLowerCase()] === undefined) {
      const known = Object.keys(this.deps.credits.bands);
      throw new BadRequestError(
        `Pricing band "${band}" is not configured${known.length > 0 ? `; configured bands: ${known.join(', ')}` : ''}.`,
        [{ field: 'body.pricingBand', message: 'not a configured band' }],
      );
    }
  }

  /**
   * Delete entries for what deleting the organization in `em`'s scope removes with it: its keys,
   * accounts and groups, each as the API answers it (a key with its owner).
   */
  private async recordCascade(em: EntityManager, outbox: OutboxWriter, caller: Caller): Promise<void> {
    const now = this.deps.clock.now();
    const users = await em.find(User, {}, { orderBy: { name: 'asc', id: 'asc' } });
    const keys = await em.find(UserApiKey, {}, { orderBy: { id: 'asc' } });
    const groups = await em.find(Group, {}, { orderBy: { id: 'asc' } });
    for (const key of keys) recordAudit(this.deps, outbox, caller, apiKeyDeletion(key, now));
    for (const view of await userViews(em, users)) {
      recordAudit(this.deps, outbox, caller, {
        entryType: 'User',
        entityName: 'User',
        entityId: view.id,
        version: view.version,
        change: { action: 'Delete', before: view },
      });
    }
    for (const view of await groupViews(em, groups)) {
      recordAudit(this.deps, outbox, caller, {
        entryType: 'Group',
        entityName: 'Group',
        entityId: view.id,
        version: view.version,
        change: { action: 'Delete', before: view },
      });
    }
  }

  /**
   * The stored fields a body sets: those it sends (a PUT leaves the others as stored). Custom
   * CSS is filtered against the allow-list here, once, on the way in. A provider given without
   * a secret keeps the stored secret of the same provider and client id, so an update need not
   * send secrets back. A PUT's `version` is the version read, not a field to store: left out.
   */
  private storedFields(
    body: OrganizationBody | OrganizationUpdateBody,
    stored: StoredIdentityProvider[],
  ): Partial<Omit<Organization, 'id' | 'version'>> {
    const { providers, customCss, logo, logoContentType, pricingBand, ...plain } = body;
    const sent = Object.entries(plain).filter(([name, value]) => name !== 'version' && value !== undefined);
    return {
      ...Object.fromEntries(sent),
      ...(pricingBand !== undefined ? { pricingBand } : {}),
      ...(logo !== undefined ? { logo, logoContentType: logoContentType ?? null } : {}),
      ...(customCss !== undefined ? { customCss: this.filteredCss(customCss) } : {}),
      ...(providers !== undefined
        ? {
            providers: providers.map((provider) => ({
              provider: provider.provider,
              clientId: provider.clientId,
              tenantId: provider.tenantId ?? null,
              clientSecret:
                provider.clientSecret ??
                stored.find((s) => s.provider === provider.provider && s.clientId === provider.clientId)
                  ?.clientSecret ??
                null,
            })),
          }
        : {}),
    };
  }

  /** The CSS as stored: filtered, and null when nothing survives. */
  private filteredCss(css: string | null): string | null {
    if (css === null) return null;
    let filtered: string;
    try {
      filtered = filterCustomCss(css);
    } catch (error) {
      // The filter recovers from bad CSS itself; a throw is a fault in it, worth a look.
      this.deps.logger.error({ err: error }, 'the custom CSS filter failed');
      throw new BadRequestError('The custom CSS could not be read; simplify it and try again.', [
        { field: 'body.customCss', message: 'could not be filtered' },
      ]);
    }
    return filtered === '' ? null : filtered;
  }
}
