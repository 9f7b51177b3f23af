import { randomUUID } from 'node:crypto';
import type { AuditEntryView } from '../../subgraphs/audit/audit.schemas.js';
import type { OrganizationView } from '../../subgraphs/account/organizations/organization.schemas.js';
import type { TestResponse } from '../support/http-client.js';
import type { TestSystem } from '../support/test-system.js';

/** The organization id of global entries (docs/decisions.md, "Global entries"). */
export const GLOBAL_ORGANIZATION = '00000000-0000-0000-0000-000000000000';

/** Creates an organization through the account service, as a global administrator would; fails the test otherwise. */
export async function createOrganization(
  system: TestSystem,
  body: Record<string, unknown>,
): Promise<OrganizationView> {
  const token = await system.token({
    organizationId: randomUUID(),
    permissions: ['GlobalOrganizationCreate', 'GlobalOrganizationRead', 'GlobalOrganizationUpdate'],
  });
  const response = await system.client('account').post<OrganizationView>('/organizations', { token, body });
  if (response.status !== 200)
    throw new Error(`organization not created: ${response.status} ${response.text}`);
  return response.body;
}

export interface LoginBody {
  orgId: string;
  email: string;
  name?: string;
  provider?: string;
  providerUserId?: string;
  profileImage?: string | null;
}

/** POST /generatejwt with the login's body; the provider identity defaults to one derived from the address. */
export function login(system: TestSystem, body: LoginBody): Promise<TestResponse<string>> {
  return system.client('identity').post<string>('/generatejwt', {
    body: { provider: 'Entra', providerUserId: `oid-${body.email}`, name: 'Someone', ...body },
  });
}

/** Like login, but fails the test unless a token came back; answers the token. */
export async function loginToken(system: TestSystem, body: LoginBody): Promise<string> {
  const response = await login(system, body);
  if (response.status !== 200) throw new Error(`login refused: ${response.status} ${response.text}`);
  return response.text;
}

/**
 * The audit entries matching the conditions, as a caller of `organizationId` holding every
 * audit read permission sees them: that organization's entries and the global ones.
 */
export async function auditEntries(
  system: TestSystem,
  organizationId: string,
  conditions: { field: string; value: string }[],
): Promise<AuditEntryView[]> {
  const token = await system.token({
    organizationId,
    permissions: ['AuditList', 'AuditRead', 'AuditGlobalList', 'AuditGlobalRead'],
  });
  const response = await system.client('audit').post<{ items: AuditEntryView[] }>('/filter?take=1000', {
    token,
    body: conditions.map(({ field, value }) => ({ field, operatorType: 'eq', value })),
  });
  if (response.status !== 200) throw new Error(`audit filter failed: ${response.status} ${response.text}`);
  return response.body.items;
}
