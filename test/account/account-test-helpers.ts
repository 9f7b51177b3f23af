import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import type { AuditEntryView } from '../../subgraphs/audit/audit.schemas.js';
import type { GroupView } from '../../subgraphs/account/groups/group.schemas.js';
import type { OrganizationView } from '../../subgraphs/account/organizations/organization.schemas.js';
import { ORGANIZATION_ADMINISTRATOR_PERMISSIONS } from '../../subgraphs/account/organizations/organization.service.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { HttpClient, TestResponse } from '../support/http-client.js';
import { queryDatabase } from '../support/test-database.js';
import type { TestSystem } from '../support/test-system.js';

/** Every permission that is not global: what an organization's administrators hold (CONTRACT 3). */
export const ORGANIZATION_PERMISSIONS: PermissionName[] = [...ORGANIZATION_ADMINISTRATOR_PERMISSIONS];

/** The hex SHA-256 of an API key: what POST /apikeys/lookup takes. */
export function sha256Hex(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The header the payment webhook reads the provider's signature from. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-svc-webhook-signature';

/** A payment webhook body's signature as the provider sends it: the HMAC-SHA256 of the exact bytes under the shared secret. */
export function webhookSignature(raw: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

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

/** Creates an organization through the global endpoint (which also creates its Administrators group). */
export async function createOrganization(system: TestSystem, name: string): Promise<string> {
  const token = await system.token({ permissions: ['GlobalOrganizationCreate'] });
  const organization = await expectStatus(
    system.client('account').post<OrganizationView>('/organizations', { token, body: { name } }),
    200,
  );
  return organization.id;
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

/** One condition of POST /filter on the audit service. */
export interface AuditCondition {
  field: string;
  operatorType: 'eq' | 'contains';
  value: string;
}

/** The conditions for the audit entries of one entity (its entry type and id), of one action when given. */
export function conditionsAbout(
  entryType: string,
  entityId: string | number,
  action?: string,
): AuditCondition[] {
  const conditions: AuditCondition[] = [
    { field: 'EntryType', operatorType: 'eq', value: entryType },
    { field: 'EntityId', operatorType: 'eq', value: String(entityId) },
  ];
  if (action) conditions.push({ field: 'Action', operatorType: 'eq', value: action });
  return conditions;
}

/** The audit entries of the organization matching the conditions, read with AuditList and AuditRead. */
export async function auditEntries(
  system: TestSystem,
  organizationId: string,
  conditions: AuditCondition[],
): Promise<AuditEntryView[]> {
  const token = await system.token({ organizationId, permissions: ['AuditList', 'AuditRead'] });
  const page = await expectStatus(
    system.client('audit').post<{ total: number; items: AuditEntryView[] }>('/filter?take=100', {
      token,
      body: conditions,
    }),
    200,
  );
  return page.items;
}

/** The permissions an account holds, as session renewal reads them (anonymous). */
export async function permissionsOf(
  account: HttpClient,
  organizationId: string,
  userId: string,
): Promise<{ permissions: string[]; variableSets: Record<string, number[]> }> {
  return expectStatus(
    account.get<{ permissions: string[]; variableSets: Record<string, number[]> }>(
      `/users/${userId}/permissions?organizationId=${organizationId}`,
    ),
    200,
  );
}

/**
 * Runs one SQL statement straight on the test system's database (the account service's tables
 * are in schema `account`): to store what the API refuses today but an older version saved.
 */
export function onDatabase<Row extends object = Record<string, unknown>>(
  system: TestSystem,
  sql: string,
  params: unknown[] = [],
): Promise<Row[]> {
  return queryDatabase<Row>(system.databaseUrl, sql, params);
}

/**
 * Stores an organization's account patterns straight in the database, as a version that did not
 * yet refuse patterns RE2 cannot compile would have saved them (saving them now is 400).
 */
export async function storeAccountPatterns(
  system: TestSystem,
  organizationId: string,
  patterns: string[],
): Promise<void> {
  await onDatabase(system, `update "account"."organization" set account_patterns = $1 where id = $2`, [
    JSON.stringify(patterns),
    organizationId,
  ]);
}
