import type { Caller } from '../auth/caller.js';
import { ForbiddenError, UnauthorizedError } from '../errors/domain-errors.js';
import { withDependencies, type PermissionName } from './catalogue.js';

/**
 * Whether the caller holds a permission: the permission itself and everything it depends
 * on (a group holding AuditRead without AuditList does not read audit entries).
 */
export function holds(caller: Caller | undefined, permission: PermissionName): boolean {
  if (!caller) return false;
  return withDependencies(permission).every((name) => caller.permissions.has(name));
}

/**
 * Whether the caller holds a set-scoped permission for one library set: held, and either
 * unrestricted or restricted to sets that include this one. Dependencies are scoped alike.
 */
export function holdsForSet(caller: Caller | undefined, permission: PermissionName, setId: number): boolean {
  if (!caller || !holds(caller, permission)) return false;
  return withDependencies(permission).every((name) => {
    const sets = caller.variableSets.get(name);
    return sets === undefined || sets.has(setId);
  });
}

/** The caller, or 401 when there is none. */
export function requireCaller(caller: Caller | undefined): Caller {
  if (!caller) throw new UnauthorizedError();
  return caller;
}

/** The caller when it holds the permission; 401 without a caller, 403 (never naming it) without the permission. */
export function requirePermission(caller: Caller | undefined, permission: PermissionName): Caller {
  const known = requireCaller(caller);
  if (!holds(known, permission)) throw new ForbiddenError();
  return known;
}
