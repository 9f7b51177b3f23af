import type { Caller } from '../../../platform/auth/caller.js';
import { holds, requirePermission } from '../../../platform/permissions/authorize.js';

/** The organization id of global entries: those written before any session existed. */
export const GLOBAL_ORGANIZATION_ID = '00000000-0000-0000-0000-000000000000';

/** Which organizations' entries a caller may list (spec section 5 point 11), and the caller it was decided for. */
export interface AuditScope {
  readonly caller: Caller;
  readonly organizationIds: readonly string[];
}

/**
 * A caller with AuditList sees its own organization's entries; AuditGlobalList widens that
 * to global entries. Another organization's entries never appear.
 */
export function listScope(caller: Caller | undefined): AuditScope {
  const known = requirePermission(caller, 'AuditList');
  return {
    caller: known,
    organizationIds: holds(known, 'AuditGlobalList')
      ? [known.organizationId, GLOBAL_ORGANIZATION_ID]
      : [known.organizationId],
  };
}

/** State of the caller's own entries needs AuditRead; of global entries, AuditGlobalRead. */
export function mayReadState(caller: Caller, entryOrganizationId: string): boolean {
  return entryOrganizationId === GLOBAL_ORGANIZATION_ID
    ? holds(caller, 'AuditGlobalRead')
    : holds(caller, 'AuditRead');
}
