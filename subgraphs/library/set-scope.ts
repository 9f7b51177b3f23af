import type { Caller } from '../../platform/auth/caller.js';
import { ForbiddenError } from '../../platform/errors/domain-errors.js';
import { holdsForSet } from '../../platform/permissions/authorize.js';
import type { PermissionName } from '../../platform/permissions/catalogue.js';

/**
 * The sets a Variable* permission of the caller is restricted to (CONTRACT 5 `variableSetIds`), or
 * undefined when it reaches every set of the organization.
 */
export function setScope(caller: Caller, permission: PermissionName): ReadonlySet<number> | undefined {
  return caller.variableSets.get(permission);
}

/**
 * 403 unless the caller holds the permission for this set of its own organization (CONTRACT 6:
 * a set outside the caller's scope is 403; one of another organization was 404 before this).
 */
export function requireForSet(caller: Caller, permission: PermissionName, setId: number): void {
  if (!holdsForSet(caller, permission, setId)) throw new ForbiddenError();
}
