import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Tenancy in one place (spec section 1): every entity that belongs to an organization
 * declares this filter, and it is on by default. A query on a manager that was not scoped
 * to an organization fails instead of reading every organization's rows, so an id of
 * another organization is not found by construction. The few organization-wide paths
 * (the global organization permissions, anonymous sign-in paths) turn it off by name.
 */
export const TENANT_FILTER = 'tenant';

export const tenantFilter = {
  name: TENANT_FILTER,
  cond: (args: Record<string, unknown>) => ({ organizationId: args.organizationId }),
  default: true,
};

/** The entity manager limited to one organization's rows. */
export function scopeToOrganization<T extends EntityManager>(em: T, organizationId: string): T {
  em.setFilterParams(TENANT_FILTER, { organizationId });
  return em;
}

/** Find options that reach past the tenant filter, for the paths that must. */
export const ACROSS_ORGANIZATIONS = { filters: { [TENANT_FILTER]: false } } as const;
