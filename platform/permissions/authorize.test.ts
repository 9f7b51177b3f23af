import fc from 'fast-check';
import type { Caller } from '../auth/caller.js';
import { ForbiddenError, UnauthorizedError } from '../errors/domain-errors.js';
import { holds, holdsForSet, requireCaller, requirePermission } from './authorize.js';
import { PERMISSION_CATALOGUE, permissionEntry, type PermissionName } from './catalogue.js';

const ALL_NAMES: PermissionName[] = PERMISSION_CATALOGUE.map((p) => p.name);

function callerWith(
  permissions: Iterable<PermissionName>,
  variableSets: Partial<Record<PermissionName, number[]>> = {},
): Caller {
  return {
    accountId: '11111111-1111-4111-8111-111111111111',
    organizationId: '22222222-2222-4222-8222-222222222222',
    permissions: new Set(permissions),
    variableSets: new Map(
      Object.entries(variableSets).map(([name, ids]) => [name as PermissionName, new Set(ids)] as const),
    ),
    token: 'token',
    issuedAt: new Date('2025-01-01T00:00:00Z'),
    expiresAt: new Date('2025-01-01T01:00:00Z'),
  };
}

/** The permission and what it depends on, computed here from `dependsOn` alone. */
function closureOf(name: PermissionName, seen = new Set<PermissionName>()): Set<PermissionName> {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const dependency of permissionEntry(name).dependsOn) closureOf(dependency as PermissionName, seen);
  return seen;
}

const anyPermission = fc.constantFrom(...ALL_NAMES);
const anySubset = fc.subarray(ALL_NAMES);

describe('spec 5.9: holding a permission implies holding its dependencies', () => {
  it('holds a permission exactly when it and all its transitive dependencies are held', () => {
    fc.assert(
      fc.property(anySubset, anyPermission, (held, permission) => {
        const heldSet = new Set(held);
        const expected = [...closureOf(permission)].every((name) => heldSet.has(name));
        expect(holds(callerWith(held), permission)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('never loses a permission when more are held', () => {
    fc.assert(
      fc.property(anySubset, anySubset, anyPermission, (some, more, permission) => {
        const before = holds(callerWith(some), permission);
        const after = holds(callerWith([...some, ...more]), permission);
        expect(!before || after).toBe(true);
      }),
    );
  });

  it.each(ALL_NAMES)(
    'holds %s with exactly its closure, and not without any one part of it',
    (permission) => {
      const closure = [...closureOf(permission)];
      expect(holds(callerWith(closure), permission)).toBe(true);
      for (const missing of closure) {
        expect(holds(callerWith(closure.filter((n) => n !== missing)), permission)).toBe(false);
      }
    },
  );

  it.each([
    ['ProfileNeverExpiresApiKey', 'ProfileCreateApiKey'],
    ['UserCreateServiceAccountApiKey', 'UserRead'],
    ['VariableReadSecrets', 'VariableRead'],
    ['AuditRead', 'AuditList'],
  ] as const)('does not count %s held without %s', (permission, dependency) => {
    expect(holds(callerWith([permission]), permission)).toBe(false);
    expect(holds(callerWith([permission, dependency]), permission)).toBe(true);
  });

  it('holds nothing without a caller', () => {
    for (const name of ALL_NAMES) expect(holds(undefined, name)).toBe(false);
  });
});

describe('CONTRACT 5: a group may restrict Variable* permissions to library sets (variableSetIds)', () => {
  it('holds a restricted permission for the sets listed and not for others', () => {
    const caller = callerWith(['VariableRead'], { VariableRead: [1, 2] });
    expect(holdsForSet(caller, 'VariableRead', 1)).toBe(true);
    expect(holdsForSet(caller, 'VariableRead', 2)).toBe(true);
    expect(holdsForSet(caller, 'VariableRead', 3)).toBe(false);
  });

  it('holds an unrestricted permission for any set', () => {
    const caller = callerWith(['VariableRead', 'VariableList']);
    fc.assert(
      fc.property(fc.integer(), (setId) => {
        expect(holdsForSet(caller, 'VariableRead', setId)).toBe(true);
        expect(holdsForSet(caller, 'VariableList', setId)).toBe(true);
      }),
    );
  });

  it('holds a restricted permission for a set exactly when the set is listed', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(50), { maxLength: 6 }), fc.nat(50), (sets, setId) => {
        const caller = callerWith(['VariableUpdate'], { VariableUpdate: sets });
        expect(holdsForSet(caller, 'VariableUpdate', setId)).toBe(sets.includes(setId));
      }),
    );
  });

  it('applies the restriction of a dependency too: VariableReadSecrets needs VariableRead for that set', () => {
    const caller = callerWith(['VariableReadSecrets', 'VariableRead'], { VariableRead: [1] });
    expect(holdsForSet(caller, 'VariableReadSecrets', 1)).toBe(true);
    expect(holdsForSet(caller, 'VariableReadSecrets', 2)).toBe(false);
  });

  it('does not hold a permission for any set when it is not held, or without a caller', () => {
    const caller = callerWith(['VariableList'], { VariableRead: [1] });
    expect(holdsForSet(caller, 'VariableRead', 1)).toBe(false);
    expect(holdsForSet(undefined, 'VariableRead', 1)).toBe(false);
  });
});

describe('spec 7: 401 without a caller, 403 without the permission, never naming it', () => {
  it('throws UnauthorizedError (401) without a caller', () => {
    expect(() => requirePermission(undefined, 'TagList')).toThrow(UnauthorizedError);
    expect(() => requireCaller(undefined)).toThrow(UnauthorizedError);
    const error = catchError(() => requirePermission(undefined, 'TagList'));
    expect(error).toMatchObject({ status: 401 });
  });

  it('returns the caller itself when the permission is held', () => {
    const caller = callerWith(['AuditList', 'AuditRead']);
    expect(requirePermission(caller, 'AuditRead')).toBe(caller);
    expect(requireCaller(caller)).toBe(caller);
  });

  it.each(ALL_NAMES)(
    'throws ForbiddenError (403) without %s, and its message does not name it',
    (permission) => {
      const others = ALL_NAMES.filter((n) => n !== permission);
      const error = catchError(() => requirePermission(callerWith(others), permission));
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({ status: 403 });
      const message = (error as ForbiddenError).message;
      for (const name of ALL_NAMES) expect(message).not.toContain(name);
    },
  );

  it('throws ForbiddenError when only a dependency is missing', () => {
    expect(() => requirePermission(callerWith(['AuditRead']), 'AuditRead')).toThrow(ForbiddenError);
  });

  it('agrees with holds for any caller and permission', () => {
    fc.assert(
      fc.property(anySubset, anyPermission, (held, permission) => {
        const caller = callerWith(held);
        if (holds(caller, permission)) expect(requirePermission(caller, permission)).toBe(caller);
        else expect(() => requirePermission(caller, permission)).toThrow(ForbiddenError);
      }),
    );
  });
});

function catchError(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
