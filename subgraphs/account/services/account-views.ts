import type { AuditRecord } from '../../../platform/audit-log/audit-log.js';
import type { Settings } from '../../../platform/config/settings.js';
import { isExpired } from '../domain/api-keys.js';
import { totalCredits } from '../domain/credits.js';
import type { Group } from '../entities/group.entity.js';
import type { Organization } from '../entities/organization.entity.js';
import type { UserApiKey } from '../entities/user-api-key.entity.js';
import type { UserIdentity } from '../entities/user-identity.entity.js';
import type { User } from '../entities/user.entity.js';
import type { ApiKeyView } from './api-key.schemas.js';
import type { GroupView } from './group.schemas.js';
import { LOGO_CONTENT_TYPES, type OrganizationView, type SignInView } from './organization.schemas.js';
import type { UserView } from './user.schemas.js';

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

export function userView(
  user: User,
  identities: UserIdentity[],
  groups: Pick<Group, 'id' | 'name'>[],
): UserView {
  return {
    id: user.id,
    organizationId: user.organizationId,
    name: user.name,
    email: user.email,
    serviceAccount: user.serviceAccount,
    profileImage: user.profileImage ?? null,
    identities: identities.map((identity) => ({
      provider: identity.provider,
      providerUserId: identity.providerUserId,
      linkedAt: identity.linkedAt.toISOString(),
    })),
    groups: groups.map((group) => ({ id: group.id, name: group.name })),
    version: user.version,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export function groupView(group: Group, members: Pick<User, 'id' | 'name' | 'email'>[]): GroupView {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    permissions: group.permissions,
    variableSetIds: group.variableSetIds,
    members: members.map((member) => ({ id: member.id, name: member.name, email: member.email })),
    version: group.version,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

/** A key as lists show it: never the key, never its hash. */
export function apiKeyView(key: UserApiKey, now: Date): ApiKeyView {
  return {
    id: key.id,
    hint: key.hint,
    description: key.description,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    expired: isExpired(key.expiresAt, now),
  };
}

/** A key as its audit entries keep it: as lists show it, with its owner. */
export function apiKeyRecord(key: UserApiKey, now: Date): ApiKeyView & { userId: string } {
  return { ...apiKeyView(key, now), userId: key.userId };
}

/**
 * The audit record of a key's removal, whether revoked or removed with its account or
 * organization: the entry keeps the record (spec 3).
 */
export function apiKeyDeletion(key: UserApiKey, now: Date): AuditRecord {
  return {
    entryType: 'UserApiKey',
    entityName: 'UserApiKey',
    entityId: key.id,
    change: { action: 'Delete', before: apiKeyRecord(key, now) },
  };
}
