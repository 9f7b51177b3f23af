import { randomUUID } from 'node:crypto';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { GroupView } from '../../subgraphs/account/groups/group.schemas.js';
import type { OrganizationView } from '../../subgraphs/account/organizations/organization.schemas.js';
import { ORGANIZATION_ADMINISTRATOR_PERMISSIONS } from '../../subgraphs/account/organizations/organization.service.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { TestResponse } from './http-client.js';
import type { TestSystem } from './test-system.js';

/**
 * Records made through the running system's own API, as tests set up what they need: real rows,
 * made the way a client would make them.
 */

/** Every permission that is not global: what an organization's administrators hold (CONTRACT 3). */
export const ORGANIZATION_PERMISSIONS: PermissionName[] = [...ORGANIZATION_ADMINISTRATOR_PERMISSIONS];

/** An address no other test uses, so the per-organization uniqueness of addresses never gets in the way. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`;
}

/** The body of a response that must have the expected status; anything else fails with the response text. */
export async function expectStatus<T>(request: Promise<TestResponse<T>>, status: number): Promise<T> {
  const response = await request;
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${response.text}`);
  }
  return response.body;
}

/**
 * Creates an organization through the global endpoint (which also creates its Administrators
 * group), with a name or a whole body; answers it as a global administrator reads it.
 */
export async function createOrganization(
  system: TestSystem,
  nameOrBody: string | ({ name: string } & Record<string, unknown>),
): Promise<OrganizationView> {
  const token = await system.token({ permissions: ['GlobalOrganizationCreate', 'GlobalOrganizationRead'] });
  const body = typeof nameOrBody === 'string' ? { name: nameOrBody } : nameOrBody;
  return expectStatus(
    system.client('account').post<OrganizationView>('/organizations', { token, body }),
    200,
  );
}

/** A token holding every non-global permission of the organization, for set-up steps. */
export function administratorToken(system: TestSystem, organizationId: string, accountId?: string) {
  return system.token({ organizationId, accountId, permissions: ORGANIZATION_PERMISSIONS });
}

export async function createUser(
  system: TestSystem,
  organizationId: string,
  body: { name: string; email?: string; serviceAccount?: boolean },
): Promise<UserView> {
  const token = await administratorToken(system, organizationId);
  return expectStatus(
    system.client('account').post<UserView>('/users', {
      token,
      body: { email: uniqueEmail(body.name.toLowerCase().replace(/\W+/g, '-')), ...body },
    }),
    200,
  );
}

/**
 * Creates a group as an administrator of the organization; with PermissionsAllGlobal too, so
 * set-up may put any permission on it.
 */
export async function createGroup(
  system: TestSystem,
  organizationId: string,
  body: { name: string; permissions?: string[]; variableSetIds?: number[]; description?: string },
): Promise<GroupView> {
  const token = await system.token({
    organizationId,
    permissions: [...ORGANIZATION_PERMISSIONS, 'PermissionsAllGlobal', 'AuditGlobalList', 'AuditGlobalRead'],
  });
  return expectStatus(system.client('account').post<GroupView>('/groups', { token, body }), 200);
}

/** Sets a group's whole membership as an administrator of the organization. */
export async function setMembers(
  system: TestSystem,
  organizationId: string,
  groupId: number,
  userIds: string[],
): Promise<GroupView> {
  const token = await administratorToken(system, organizationId);
  return expectStatus(
    system.client('account').put<GroupView>(`/groups/${groupId}/members`, { token, body: { userIds } }),
    200,
  );
}
