import {
  PERMISSION_CATALOGUE,
  isPermissionName,
  permissionEntry,
  withDependencies,
  type PermissionName,
} from './catalogue.js';

/** Every permission name the spec writes out (sections 4 and 5, CONTRACT 2). */
const SPEC_PERMISSIONS = [
  'TagGroupList',
  'TagGroupRead',
  'TagGroupCreate',
  'TagGroupUpdate',
  'TagGroupDelete',
  'TagList',
  'TagRead',
  'TagCreate',
  'TagUpdate',
  'TagDelete',
  'VariableList',
  'VariableRead',
  'VariableReadSecrets',
  'VariableCreate',
  'VariableUpdate',
  'VariableDelete',
  'BatchProcessingImport',
  'BatchProcessingExport',
  'UserList',
  'UserRead',
  'UserCreate',
  'UserUpdate',
  'UserDelete',
  'UserCreateServiceAccountApiKey',
  'ProfileCreateApiKey',
  'ProfileNeverExpiresApiKey',
  'AuditList',
  'AuditRead',
  'AuditDelete',
  'AuditGlobalList',
  'AuditGlobalRead',
  'GlobalOrganizationList',
  'GlobalOrganizationRead',
  'GlobalOrganizationCreate',
  'GlobalOrganizationUpdate',
  'GlobalOrganizationDelete',
  'GlobalOrganizationCertificateManage',
  'PermissionsAllGlobal',
];

/** Spec 5.9: the global permissions. */
const SPEC_GLOBAL = [
  'GlobalOrganizationList',
  'GlobalOrganizationRead',
  'GlobalOrganizationCreate',
  'GlobalOrganizationUpdate',
  'GlobalOrganizationDelete',
  'GlobalOrganizationCertificateManage',
  'AuditGlobalList',
  'AuditGlobalRead',
];

const names = PERMISSION_CATALOGUE.map((p) => p.name as string);

describe('spec 2 Permission catalogue entry: name, value, globalPermission, dependsOn', () => {
  it.each(SPEC_PERMISSIONS)('holds %s', (name) => {
    expect(names).toContain(name);
    expect(isPermissionName(name)).toBe(true);
  });

  it('gives every entry the fields of a catalogue entry', () => {
    for (const entry of PERMISSION_CATALOGUE) {
      expect(typeof entry.name).toBe('string');
      expect(Number.isInteger(entry.value)).toBe(true);
      expect(typeof entry.globalPermission).toBe('boolean');
      expect(Array.isArray(entry.dependsOn)).toBe(true);
    }
  });

  it('gives each name once', () => {
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives each entry a unique positive integer value', () => {
    const values = PERMISSION_CATALOGUE.map((p) => p.value);
    expect(values.every((v) => Number.isInteger(v) && v > 0)).toBe(true);
    expect(new Set(values).size).toBe(values.length);
  });

  it('answers false for a name not in the catalogue, matched with case', () => {
    expect(isPermissionName('NotAPermission')).toBe(false);
    expect(isPermissionName('auditlist')).toBe(false);
    expect(isPermissionName('')).toBe(false);
  });

  it('finds each entry by its name', () => {
    for (const entry of PERMISSION_CATALOGUE) expect(permissionEntry(entry.name)).toBe(entry);
  });

  it('is frozen, so a value cannot be changed at run time', () => {
    expect(Object.isFrozen(PERMISSION_CATALOGUE)).toBe(true);
    for (const entry of PERMISSION_CATALOGUE) {
      expect(Object.isFrozen(entry)).toBe(true);
      expect(Object.isFrozen(entry.dependsOn)).toBe(true);
    }
  });
});

describe('spec 5.9: dependencies name catalogue entries and never form a cycle', () => {
  it('names only catalogue entries in dependsOn, never the entry itself', () => {
    for (const entry of PERMISSION_CATALOGUE) {
      for (const dependency of entry.dependsOn) {
        expect(names).toContain(dependency);
        expect(dependency).not.toBe(entry.name);
      }
    }
  });

  it('has no dependency cycle', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[][] = [];
    const visit = (name: string, path: string[]): void => {
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') {
        cycles.push([...path, name]);
        return;
      }
      state.set(name, 'visiting');
      for (const dependency of permissionEntry(name as PermissionName).dependsOn) {
        visit(dependency, [...path, name]);
      }
      state.set(name, 'done');
    };
    for (const name of names) visit(name, []);
    expect(cycles).toEqual([]);
  });

  it.each([
    ['ProfileNeverExpiresApiKey', 'ProfileCreateApiKey'],
    ['UserCreateServiceAccountApiKey', 'UserRead'],
    ['VariableReadSecrets', 'VariableRead'],
    ['AuditRead', 'AuditList'],
  ] as const)('%s depends on %s', (name, dependency) => {
    expect(permissionEntry(name).dependsOn).toContain(dependency);
  });
});

describe('spec 5.9: withDependencies is the permission and everything it depends on, transitively', () => {
  /** The closure computed here from the catalogue, independently of withDependencies. */
  function closure(name: string, seen = new Set<string>()): Set<string> {
    if (seen.has(name)) return seen;
    seen.add(name);
    for (const d of permissionEntry(name as PermissionName).dependsOn) closure(d, seen);
    return seen;
  }

  it.each(names)('gives the full closure of %s, each name once', (name) => {
    const result = withDependencies(name as PermissionName);
    expect(result[0]).toBe(name);
    expect(new Set(result).size).toBe(result.length);
    expect(new Set(result)).toEqual(closure(name));
  });

  it('follows a chain: AuditGlobalRead needs AuditGlobalList, AuditRead and AuditList', () => {
    expect(new Set(withDependencies('AuditGlobalRead'))).toEqual(
      new Set(['AuditGlobalRead', 'AuditGlobalList', 'AuditRead', 'AuditList']),
    );
  });
});

describe('spec 5.9: the global permissions are exactly those the spec names, plus PermissionsAllGlobal', () => {
  it('marks exactly the spec global permissions and PermissionsAllGlobal as global', () => {
    const global = PERMISSION_CATALOGUE.filter((p) => p.globalPermission).map((p) => p.name as string);
    expect(new Set(global)).toEqual(new Set([...SPEC_GLOBAL, 'PermissionsAllGlobal']));
  });

  it('spec 4.4: AuditDelete is not global', () => {
    expect(permissionEntry('AuditDelete').globalPermission).toBe(false);
  });
});

describe('CONTRACT 5: only Variable* permissions may be restricted to library sets', () => {
  it('marks exactly the Variable* permissions as set-scoped', () => {
    const scoped = PERMISSION_CATALOGUE.filter((p) => p.setScoped).map((p) => p.name as string);
    const variables = names.filter((n) => n.startsWith('Variable'));
    expect(variables).toHaveLength(6);
    expect(new Set(scoped)).toEqual(new Set(variables));
  });
});

describe('spec 2 Permission catalogue entry: values are stable (stored and exchanged; never renumbered or reused)', () => {
  /** Every name with its value, written out: renumbering, reusing or removing one fails here. */
  const FIXED_VALUES: Record<PermissionName, number> = {
    TagGroupList: 1,
    TagGroupRead: 2,
    TagGroupCreate: 3,
    TagGroupUpdate: 4,
    TagGroupDelete: 5,
    TagList: 11,
    TagRead: 12,
    TagCreate: 13,
    TagUpdate: 14,
    TagDelete: 15,
    VariableList: 21,
    VariableRead: 22,
    VariableReadSecrets: 23,
    VariableCreate: 24,
    VariableUpdate: 25,
    VariableDelete: 26,
    BatchProcessingImport: 31,
    BatchProcessingExport: 32,
    UserList: 41,
    UserRead: 42,
    UserCreate: 43,
    UserUpdate: 44,
    UserDelete: 45,
    UserCreateServiceAccountApiKey: 46,
    ProfileCreateApiKey: 51,
    ProfileNeverExpiresApiKey: 52,
    AuditList: 61,
    AuditRead: 62,
    AuditDelete: 63,
    AuditGlobalList: 64,
    AuditGlobalRead: 65,
    GlobalOrganizationList: 71,
    GlobalOrganizationRead: 72,
    GlobalOrganizationCreate: 73,
    GlobalOrganizationUpdate: 74,
    GlobalOrganizationDelete: 75,
    GlobalOrganizationCertificateManage: 76,
    PermissionsAllGlobal: 81,
  };

  it('gives every permission the value it has always had, and holds no other', () => {
    expect(Object.fromEntries(PERMISSION_CATALOGUE.map((p) => [p.name, p.value]))).toEqual(FIXED_VALUES);
  });
});
