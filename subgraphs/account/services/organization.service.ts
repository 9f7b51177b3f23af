import { randomUUID } from 'node:crypto';
import type { Caller } from '../../../platform/auth/caller.js';
import { withConstraintErrors } from '../../../platform/db/database-errors.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
} from '../../../platform/errors/domain-errors.js';
import type { ListQuery, Page } from '../../../platform/http/query-schemas.js';
import { holds, requireCaller, requirePermission } from '../../../platform/permissions/authorize.js';
import { PERMISSION_CATALOGUE } from '../../../platform/permissions/catalogue.js';
import { filterCustomCss } from '../domain/custom-css.js';
import { totalCredits } from '../domain/credits.js';
import { Group } from '../entities/group.entity.js';
import { Organization, type StoredIdentityProvider } from '../entities/organization.entity.js';
import { recordAudit, type AccountDependencies } from './account-dependencies.js';
import { groupView, organizationView, signInView } from './account-views.js';
import type {
  OrganizationBody,
  OrganizationView,
  ProviderCheckBody,
  SignInView,
} from './organization.schemas.js';

/** Checks an identity provider's credentials against the provider (identity-provider-check.ts). */
export interface ProviderCredentialCheck {
  check(input: {
    provider: 'Entra' | 'Google';
    clientId: string;
    tenantId: string | null;
    clientSecret: string;
  }): Promise<ProviderCheckResult>;
}

export interface ProviderCheckResult {
  valid: boolean;
  detail: string;
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
  constructor(
    private readonly deps: AccountDependencies,
    private readonly providers: ProviderCredentialCheck,
  ) {}

  async list(caller: Caller | undefined, query: ListQuery): Promise<Page<OrganizationView>> {
    requirePermission(caller, 'GlobalOrganizationList');
    const [items, total] = await this.deps.orm.em
      .fork()
      .findAndCount(
        Organization,
        {},
        { orderBy: { name: 'asc', id: 'asc' }, limit: query.take, offset: query.skip },
      );
    return { total, items: items.map((o) => organizationView(o, this.deps.credits)) };
  }

  /**
   * Organizations referenced from other subgraphs, in one query: the caller's own, and any
   * with GlobalOrganizationRead. Ids not found (or not visible) are absent.
   */
  async referenced(caller: Caller | undefined, ids: string[]): Promise<Map<string, OrganizationView>> {
    const known = requireCaller(caller);
    const visible = holds(known, 'GlobalOrganizationRead')
      ? ids
      : ids.filter((id) => id === known.organizationId);
    const organizations =
      visible.length === 0 ? [] : await this.deps.orm.em.fork().find(Organization, { id: { $in: visible } });
    return new Map(organizations.map((o) => [o.id, organizationView(o, this.deps.credits)]));
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
  async create(caller: Caller | undefined, body: OrganizationBody): Promise<OrganizationView> {
    const known = requirePermission(caller, 'GlobalOrganizationCreate');
    this.assertBand(body.pricingBand);
    const now = this.deps.clock.now();
    return this.deps.transactions.run(async ({ em, outbox }) => {
      const organization = em.create(Organization, {
        id: randomUUID(),
        ...this.fields(body, []),
        usedCredits: 0,
        version: 1,
        createdAt: now,
        updatedAt: now,
        createdById: known.accountId,
        updatedById: known.accountId,
      });
      const administrators = em.create(Group, {
        organizationId: organization.id,
        name: ADMINISTRATORS_GROUP,
        description: 'Every permission of the organization.',
        permissions: [...ORGANIZATION_ADMINISTRATOR_PERMISSIONS],
        variableSetIds: [],
        version: 1,
        createdAt: now,
        updatedAt: now,
        createdById: known.accountId,
        updatedById: known.accountId,
      });
      await withConstraintErrors(() => em.flush(), { unique: duplicateName });
      const view = organizationView(organization, this.deps.credits);
      recordAudit(this.deps, outbox, known, {
        entryType: 'Organization',
        entityName: 'Organization',
        entityId: organization.id,
        version: 1,
        change: { action: 'Create', after: view },
      });
      recordAudit(this.deps, outbox, known, {
        entryType: 'Group',
        entityName: 'Group',
        entityId: administrators.id,
        version: 1,
        change: { action: 'Create', after: groupView(administrators, []) },
      });
      return view;
    });
  }

  async update(caller: Caller | undefined, id: string, body: OrganizationBody): Promise<OrganizationView> {
    const known = requirePermission(caller, 'GlobalOrganizationUpdate');
    this.assertBand(body.pricingBand);
    return this.deps.transactions.run(async ({ em, outbox }) => {
      const organization = await em.findOne(Organization, { id });
      if (!organization) throw NotFoundError.entity('Organization', id);
      if (body.version !== undefined && body.version !== organization.version) {
        throw new ConflictError(
          `Organization ${id} was changed since version ${body.version}; it is at ${organization.version}.`,
        );
      }
      const before = organizationView(organization, this.deps.credits);
      em.assign(organization, {
        ...this.fields(body, organization.providers),
        version: organization.version + 1,
        updatedAt: this.deps.clock.now(),
        updatedById: known.accountId,
      });
      await withConstraintErrors(() => em.flush(), { unique: duplicateName });
      const after = organizationView(organization, this.deps.credits);
      recordAudit(this.deps, outbox, known, {
        entryType: 'Organization',
        entityName: 'Organization',
        entityId: id,
        version: organization.version,
        change: { action: 'Update', before, after },
      });
      return after;
    });
  }

  /** Deletes an organization with its accounts, groups and keys; answers the removed record. */
  async remove(caller: Caller | undefined, id: string): Promise<OrganizationView> {
    const known = requirePermission(caller, 'GlobalOrganizationDelete');
    if (id === known.organizationId) {
      throw new ConflictError('You cannot delete the organization you are signed in to.');
    }
    return this.deps.transactions.run(async ({ em, outbox }) => {
      const organization = await em.findOne(Organization, { id });
      if (!organization) throw NotFoundError.entity('Organization', id);
      const before = organizationView(organization, this.deps.credits);
      await em.nativeDelete(Organization, { id });
      recordAudit(this.deps, outbox, known, {
        entryType: 'Organization',
        entityName: 'Organization',
        entityId: id,
        version: organization.version,
        change: { action: 'Delete', before },
      });
      return before;
    });
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
    return this.providers.check({ ...body, tenantId: body.tenantId ?? null });
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
   * The stored fields of a body. Custom CSS is filtered against the allow-list here, once,
   * on the way in. A provider given without a secret keeps the stored secret of the same
   * provider and client id, so an update need not send secrets back.
   */
  private fields(body: OrganizationBody, stored: StoredIdentityProvider[]) {
    const providers: StoredIdentityProvider[] = body.providers.map((provider) => ({
      provider: provider.provider,
      clientId: provider.clientId,
      tenantId: provider.tenantId ?? null,
      clientSecret:
        provider.clientSecret ??
        stored.find((s) => s.provider === provider.provider && s.clientId === provider.clientId)
          ?.clientSecret ??
        null,
    }));
    const css = body.customCss ? filterCustomCss(body.customCss) : '';
    return {
      name: body.name,
      active: body.active,
      accountPatterns: body.accountPatterns,
      adminEmails: body.adminEmails,
      additionalCredits: body.additionalCredits,
      pricingBand: body.pricingBand ?? null,
      providers,
      logo: body.logo ?? null,
      logoContentType: body.logoContentType ?? null,
      customCss: css === '' ? null : css,
    };
  }
}
