import type { Caller } from '../../../platform/auth/caller.js';
import { requireCaller } from '../../../platform/permissions/authorize.js';
import { PERMISSION_CATALOGUE } from '../../../platform/permissions/catalogue.js';

export interface CatalogueEntryView {
  name: string;
  value: number;
  globalPermission: boolean;
  dependsOn: string[];
}

/** GET /permissions: the catalogue, to any session (spec 4.2). */
export function permissionCatalogue(caller: Caller | undefined): { permissions: CatalogueEntryView[] } {
  requireCaller(caller);
  return {
    permissions: PERMISSION_CATALOGUE.map(({ name, value, globalPermission, dependsOn }) => ({
      name,
      value,
      globalPermission,
      dependsOn: [...dependsOn],
    })),
  };
}
