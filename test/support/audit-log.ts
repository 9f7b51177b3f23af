import type { AuditEntryView } from '../../subgraphs/audit/audit.schemas.js';
import type { HttpClient } from './http-client.js';
import type { TestSystem } from './test-system.js';

/** The organization id of global entries (docs/decisions.md, "Global entries"). */
export const GLOBAL_ORGANIZATION = '00000000-0000-0000-0000-000000000000';

/** One condition of POST /filter on the audit service; `eq` unless said. */
export interface AuditCondition {
  field: string;
  operatorType?: 'eq' | 'contains';
  value: string;
}

/** The conditions for the audit entries of one entity (its entry type and id), of one action when given. */
export function conditionsAbout(
  entryType: string,
  entityId: string | number,
  action?: string,
): AuditCondition[] {
  const conditions: AuditCondition[] = [
    { field: 'EntryType', value: entryType },
    { field: 'EntityId', value: String(entityId) },
  ];
  if (action) conditions.push({ field: 'Action', value: action });
  return conditions;
}

/**
 * The audit entries matching the conditions, as a caller of `organizationId` holding every audit
 * read permission sees them: that organization's entries, and the global ones.
 */
export async function auditEntries(
  system: TestSystem,
  organizationId: string,
  conditions: AuditCondition[],
): Promise<AuditEntryView[]> {
  const token = await system.token({
    organizationId,
    permissions: ['AuditList', 'AuditRead', 'AuditGlobalList', 'AuditGlobalRead'],
  });
  const response = await system.client('audit').post<{ items: AuditEntryView[] }>('/filter?take=1000', {
    token,
    body: conditions.map(({ field, operatorType, value }) => ({
      field,
      operatorType: operatorType ?? 'eq',
      value,
    })),
  });
  if (response.status !== 200) throw new Error(`audit filter failed: ${response.status} ${response.text}`);
  return response.body.items;
}

/** Writes an entry over HTTP and returns what was stored; fails the test on anything but 200. */
export async function writeEntry(
  audit: HttpClient,
  token: string | undefined,
  body: Record<string, unknown>,
): Promise<AuditEntryView> {
  const response = await audit.post<AuditEntryView>('/', { token, body });
  if (response.status !== 200) throw new Error(`write failed: ${response.status} ${response.text}`);
  return response.body;
}

/** A list answer of the audit service. */
export interface AuditPage {
  total: number;
  items: AuditEntryView[];
}
