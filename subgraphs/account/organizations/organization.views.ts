import type { Caller } from '../../../platform/auth/caller.js';
import type { Settings } from '../../../platform/config/settings.js';
import { withholdUnless, type WithholdingFields } from '../../../platform/permissions/withheld.js';
import { maySeeOrganizationDetails } from '../domain/visibility.js';
import type { AuditedKind } from '../../../platform/db/audited-writes.js';
import { totalCredits } from '../domain/credits.js';
import { Organization } from './organization.entity.js';
import { LOGO_CONTENT_TYPES, type OrganizationView, type SignInView } from './organization.schemas.js';

/** An organization as the global endpoints answer it: never a client secret. */
export function organizationView(organization: Organization, credits: Settings['credits']): OrganizationView {
  return {
    id: organization.id,
    name: organization.name,
    active: organization.active,
    accountPatterns: organization.accountPatterns,
    adminEmails: organization.adminEmails,
    additionalCredits: organization.additionalCredits,
    usedCredits: organization.usedCredits,
    totalCredits: totalCredits(organization, credits),
    pricingBand: organization.pricingBand ?? null,
    providers: organization.providers.map((p) => ({
      provider: p.provider,
      clientId: p.clientId,
      tenantId: p.tenantId,
      hasClientSecret: Boolean(p.clientSecret),
    })),
    logo: organization.logo ?? null,
    logoContentType: organization.logoContentType ?? null,
    customCss: organization.customCss ?? null,
    version: organization.version,
    createdAt: organization.createdAt.toISOString(),
    updatedAt: organization.updatedAt.toISOString(),
  };
}

/**
 * The sign-in details a login page needs (spec section 2). A logo whose type is not on today's
 * list (an SVG saved before SVG was refused) is left out (null): the anonymous page never gets
 * an image it would have to sanitise. The global endpoints still show it, to be replaced.
 */
export function signInView(organization: Organization): SignInView {
  const servable = (LOGO_CONTENT_TYPES as readonly (string | null | undefined)[]).includes(
    organization.logoContentType,
  );
  return {
    id: organization.id,
    name: organization.name,
    logo: servable ? (organization.logo ?? null) : null,
    logoContentType: servable ? (organization.logoContentType ?? null) : null,
    customCss: organization.customCss ?? null,
    providers: organization.providers.map((p) => ({
      provider: p.provider,
      clientId: p.clientId,
      tenantId: p.tenantId,
    })),
  };
}

/** Organizations as versioned, audited records, answered with the credits of their band. */
export function organizationKind(credits: Settings['credits']): AuditedKind<Organization, OrganizationView> {
  return {
    entity: Organization,
    entryType: 'Organization',
    label: 'Organization',
    views: (_em, organizations) => Promise.resolve(organizations.map((o) => organizationView(o, credits))),
  };
}

const ORGANIZATION_DETAILS = [
  'accountPatterns',
  'adminEmails',
  'additionalCredits',
  'usedCredits',
  'totalCredits',
  'pricingBand',
  'providers',
  'version',
  'createdAt',
  'updatedAt',
] as const;

/** An organization as this caller is shown it: beyond its sign-in details only with GlobalOrganizationRead. */
export type ShownOrganizationView = WithholdingFields<
  OrganizationView,
  (typeof ORGANIZATION_DETAILS)[number]
>;

export function shownOrganization(caller: Caller, view: OrganizationView): ShownOrganizationView {
  return withholdUnless(maySeeOrganizationDetails(caller), view, ORGANIZATION_DETAILS);
}
