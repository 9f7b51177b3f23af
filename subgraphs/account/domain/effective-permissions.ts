import {
  PERMISSION_CATALOGUE,
  isPermissionName,
  permissionEntry,
  type PermissionName,
} from '../../../platform/permissions/catalogue.js';

/** What one group gives its members. */
export interface GroupGrant {
  permissions: readonly string[];
  /** Library sets the group's Variable* permissions are restricted to; empty: all sets. */
  variableSetIds: readonly number[];
}

export interface EffectivePermissions {
  permissions: PermissionName[];
  /** For each set-scoped permission held only through restricted groups, the union of their sets. */
  variableSets: Partial<Record<PermissionName, number[]>>;
}

/**
 * The permissions an account holds through its groups: the union of the groups'
 * permissions. A set-scoped permission is unrestricted if any group gives it without a
 * restriction; otherwise it is restricted to the union of the groups' sets.
 */
export function effectivePermissions(groups: readonly GroupGrant[]): EffectivePermissions {
  const held = new Set<PermissionName>();
  const sets = new Map<PermissionName, Set<number> | 'all'>();
  for (const group of groups) {
    for (const name of group.permissions) {
      if (!isPermissionName(name)) continue;
      held.add(name);
      if (!permissionEntry(name).setScoped) continue;
      if (group.variableSetIds.length === 0) {
        sets.set(name, 'all');
        continue;
      }
      const current = sets.get(name);
      if (current === 'all') continue;
      const union = current ?? new Set<number>();
      group.variableSetIds.forEach((id) => union.add(id));
      sets.set(name, union);
    }
  }
  const variableSets: Partial<Record<PermissionName, number[]>> = {};
  for (const [name, restriction] of sets) {
    if (restriction !== 'all') variableSets[name] = [...restriction].sort((a, b) => a - b);
  }
  return { permissions: inCatalogueOrder(held), variableSets };
}

/** Permission names in the catalogue's order, so lists read the same everywhere. */
export function inCatalogueOrder(names: Iterable<PermissionName>): PermissionName[] {
  const wanted = new Set(names);
  return PERMISSION_CATALOGUE.map((entry) => entry.name).filter((name) => wanted.has(name));
}
