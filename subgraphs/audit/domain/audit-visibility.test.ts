import type { Caller } from '../../../platform/auth/caller.js';
import { ForbiddenError, UnauthorizedError } from '../../../platform/errors/domain-errors.js';
import type { PermissionName } from '../../../platform/permissions/catalogue.js';
import { GLOBAL_ORGANIZATION_ID, listScope, mayReadState } from './audit-visibility.js';

const ORGANIZATION = '5b1d7c2e-9a3f-4e8b-8c6d-2f1a0b9c8d7e';

function callerWith(...permissions: PermissionName[]): Caller {
  return {
    accountId: '0f9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f',
    organizationId: ORGANIZATION,
    permissions: new Set(permissions),
    variableSets: new Map(),
    token: 'token',
    issuedAt: new Date('2025-01-01T00:00:00Z'),
    expiresAt: new Date('2025-01-01T01:00:00Z'),
  };
}

describe('spec 2 Audit entry: a global entry has the empty (nil) organization id', () => {
  it('is 00000000-0000-0000-0000-000000000000', () => {
    expect(GLOBAL_ORGANIZATION_ID).toBe('00000000-0000-0000-0000-000000000000');
  });
});

describe('spec 5.11: AuditList lists the own organization; AuditGlobalList adds global entries', () => {
  it('refuses a request without a caller with UnauthorizedError', () => {
    expect(() => listScope(undefined)).toThrow(UnauthorizedError);
  });

  it('refuses a caller without AuditList with ForbiddenError', () => {
    expect(() => listScope(callerWith())).toThrow(ForbiddenError);
    expect(() => listScope(callerWith('AuditRead', 'AuditDelete'))).toThrow(ForbiddenError);
  });

  it('refuses AuditGlobalList without AuditList: it widens AuditList, it does not replace it', () => {
    expect(() => listScope(callerWith('AuditGlobalList'))).toThrow(ForbiddenError);
  });

  it("lists only the caller's organization with AuditList", () => {
    expect(listScope(callerWith('AuditList')).organizationIds).toEqual([ORGANIZATION]);
  });

  it("lists the caller's organization and global entries with AuditList and AuditGlobalList", () => {
    const scope = listScope(callerWith('AuditList', 'AuditGlobalList'));
    expect([...scope.organizationIds].sort()).toEqual([GLOBAL_ORGANIZATION_ID, ORGANIZATION].sort());
  });
});

describe('spec 5.11: state of own entries needs AuditRead, of global entries AuditGlobalRead', () => {
  it('shows the state of an own entry with AuditRead (and AuditList, which it depends on)', () => {
    expect(mayReadState(callerWith('AuditList', 'AuditRead'), ORGANIZATION)).toBe(true);
  });

  it('withholds the state of an own entry with AuditList alone, or AuditRead without AuditList', () => {
    expect(mayReadState(callerWith('AuditList'), ORGANIZATION)).toBe(false);
    expect(mayReadState(callerWith('AuditRead'), ORGANIZATION)).toBe(false);
  });

  it('withholds the state of a global entry from a caller with AuditRead but not AuditGlobalRead', () => {
    expect(
      mayReadState(callerWith('AuditList', 'AuditRead', 'AuditGlobalList'), GLOBAL_ORGANIZATION_ID),
    ).toBe(false);
  });

  it('shows the state of a global entry with AuditGlobalRead and what it depends on', () => {
    const caller = callerWith('AuditList', 'AuditRead', 'AuditGlobalList', 'AuditGlobalRead');
    expect(mayReadState(caller, GLOBAL_ORGANIZATION_ID)).toBe(true);
    expect(mayReadState(caller, ORGANIZATION)).toBe(true);
  });

  it('withholds the state of a global entry from AuditGlobalRead held without its dependencies', () => {
    expect(mayReadState(callerWith('AuditGlobalRead'), GLOBAL_ORGANIZATION_ID)).toBe(false);
  });

  it('counts AuditGlobalRead only together with AuditRead, which it depends on in the catalogue', () => {
    // AuditGlobalRead depends on AuditRead, so holding it in full includes AuditRead;
    // without AuditRead, neither own nor global state is readable.
    const caller = callerWith('AuditList', 'AuditGlobalList', 'AuditGlobalRead');
    expect(mayReadState(caller, ORGANIZATION)).toBe(false);
    expect(mayReadState(caller, GLOBAL_ORGANIZATION_ID)).toBe(false);
  });
});
