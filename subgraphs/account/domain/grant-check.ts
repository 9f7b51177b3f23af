import type { Caller } from '../../../platform/auth/caller.js';
import { BadRequestError } from '../../../platform/errors/domain-errors.js';
import { holds } from '../../../platform/permissions/authorize.js';
import {
  permissionEntry,
  withDependencies,
  type PermissionName,
} from '../../../platform/permissions/catalogue.js';
import { inCatalogueOrder } from './effective-permissions.js';

export interface GroupPermissions {
  permissions: readonly PermissionName[];
  variableSetIds: readonly number[];
}

export interface GrantDecision {
  /** The group's permissions after the save. */
  permissions: PermissionName[];
  /** Permissions the caller tried to add but may not grant; the save is refused when any. */
  rejected: PermissionName[];
}

/**
 * Whether the caller may grant a permission to a group restricted to `groupSets`: it must
 * hold the permission (with its dependencies); a global one also needs PermissionsAllGlobal;
 * a set-scoped one must reach at least the group's sets, so a caller limited to some
 * sets cannot hand out more.
 */
export function mayGrant(caller: Caller, permission: PermissionName, groupSets: readonly number[]): boolean {
  if (!holds(caller, permission)) return false;
  const entry = permissionEntry(permission);
  if (entry.globalPermission && !holds(caller, 'PermissionsAllGlobal')) return false;
  if (!entry.setScoped) return true;
  return withDependencies(permission).every((name) => {
    const callerSets = caller.variableSets.get(name);
    if (callerSets === undefined) return true;
    return groupSets.length > 0 && groupSets.every((id) => callerSets.has(id));
  });
}

/**
 * The grant check of a group save (spec 4.2 "On group save", section 5 point 10):
 * 1. every permission being added must be one the caller may grant; the others are
 *    named in `rejected`. Changing the group's library sets re-grants its set-scoped
 *    permissions, those kept as well as those sent, so they are checked as if added.
 * 2. permissions already on the group that the caller could not grant stay on it,
 *    even when the request leaves them out: one cannot take away what one cannot give.
 * 3. a group with AuditRead but without AuditList is refused (400).
 */
export function decideGrant(
  caller: Caller,
  existing: GroupPermissions | null,
  requested: GroupPermissions,
): GrantDecision {
  const before = new Set(existing?.permissions ?? []);
  const setsChanged = existing !== null && !sameSets(existing.variableSetIds, requested.variableSetIds);
  const wanted = new Set(requested.permissions);
  const preserved = [...before].filter(
    (permission) => !wanted.has(permission) && !mayGrant(caller, permission, existing?.variableSetIds ?? []),
  );
  const permissions = inCatalogueOrder([...requested.permissions, ...preserved]);
  // A kept permission is re-granted too when the group's sets change under it.
  const rejected = permissions.filter((permission) => {
    const granted = !before.has(permission) || (setsChanged && permissionEntry(permission).setScoped);
    return granted && !mayGrant(caller, permission, requested.variableSetIds);
  });
  if (permissions.includes('AuditRead') && !permissions.includes('AuditList')) {
    throw new BadRequestError(
      'A group with AuditRead must also hold AuditList, which AuditRead depends on.',
      [{ field: 'body.permissions', message: 'AuditRead needs AuditList' }],
    );
  }
  return { permissions, rejected };
}

function sameSets(a: readonly number[], b: readonly number[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((id) => right.has(id));
}
