/**
 * Every permission of the service (spec section 2 "Permission catalogue entry", section 5
 * point 9 and the endpoint tables). Values are stable: they are stored and exchanged, so a
 * value is never reused or renumbered; new permissions take new values.
 *
 * `dependsOn`: holding a permission counts only together with what it depends on
 * (checked transitively by `holds`). `globalPermission`: not scoped to the caller's
 * organization; granting one needs PermissionsAllGlobal. `setScoped`: a group may
 * restrict it to chosen library sets.
 */
export interface PermissionEntry {
  readonly name: string;
  readonly value: number;
  readonly globalPermission: boolean;
  readonly dependsOn: readonly string[];
  readonly setScoped: boolean;
}

const entry = <const Name extends string>(
  name: Name,
  value: number,
  options: { global?: boolean; dependsOn?: string[]; setScoped?: boolean } = {},
): PermissionEntry & { readonly name: Name } =>
  Object.freeze({
    name,
    value,
    globalPermission: options.global ?? false,
    dependsOn: Object.freeze(options.dependsOn ?? []),
    setScoped: options.setScoped ?? false,
  });

const variable = { setScoped: true };
const global = { global: true };

export const PERMISSION_CATALOGUE = Object.freeze([
  entry('TagGroupList', 1),
  entry('TagGroupRead', 2),
  entry('TagGroupCreate', 3),
  entry('TagGroupUpdate', 4),
  entry('TagGroupDelete', 5),
  entry('TagList', 11),
  entry('TagRead', 12),
  entry('TagCreate', 13),
  entry('TagUpdate', 14),
  entry('TagDelete', 15),
  entry('VariableList', 21, variable),
  entry('VariableRead', 22, variable),
  entry('VariableReadSecrets', 23, { ...variable, dependsOn: ['VariableRead'] }),
  entry('VariableCreate', 24, variable),
  entry('VariableUpdate', 25, variable),
  entry('VariableDelete', 26, variable),
  entry('BatchProcessingImport', 31, {
    dependsOn: ['TagGroupList', 'TagGroupCreate', 'TagList', 'TagCreate', 'VariableList', 'VariableCreate'],
  }),
  entry('BatchProcessingExport', 32, { dependsOn: ['TagGroupRead', 'VariableRead'] }),
  entry('UserList', 41),
  entry('UserRead', 42),
  entry('UserCreate', 43),
  entry('UserUpdate', 44),
  entry('UserDelete', 45),
  entry('UserCreateServiceAccountApiKey', 46, { dependsOn: ['UserRead'] }),
  entry('ProfileCreateApiKey', 51),
  entry('ProfileNeverExpiresApiKey', 52, { dependsOn: ['ProfileCreateApiKey'] }),
  entry('AuditList', 61),
  entry('AuditRead', 62, { dependsOn: ['AuditList'] }),
  entry('AuditDelete', 63),
  entry('AuditGlobalList', 64, { ...global, dependsOn: ['AuditList'] }),
  entry('AuditGlobalRead', 65, { ...global, dependsOn: ['AuditGlobalList', 'AuditRead'] }),
  entry('GlobalOrganizationList', 71, global),
  entry('GlobalOrganizationRead', 72, global),
  entry('GlobalOrganizationCreate', 73, global),
  entry('GlobalOrganizationUpdate', 74, global),
  entry('GlobalOrganizationDelete', 75, global),
  entry('GlobalOrganizationCertificateManage', 76, { ...global, dependsOn: ['GlobalOrganizationRead'] }),
  entry('PermissionsAllGlobal', 81, global),
] as const);

export type PermissionName = (typeof PERMISSION_CATALOGUE)[number]['name'];

const byName = new Map<string, PermissionEntry>(PERMISSION_CATALOGUE.map((p) => [p.name, p]));

export function isPermissionName(name: string): name is PermissionName {
  return byName.has(name);
}

export function permissionEntry(name: PermissionName): PermissionEntry {
  return byName.get(name)!;
}

/** The permission and everything it depends on, directly or through others. */
export function withDependencies(name: PermissionName): PermissionName[] {
  const seen = new Set<PermissionName>();
  const visit = (current: PermissionName): void => {
    if (seen.has(current)) return;
    seen.add(current);
    for (const dependency of permissionEntry(current).dependsOn) visit(dependency as PermissionName);
  };
  visit(name);
  return [...seen];
}
