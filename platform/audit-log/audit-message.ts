/**
 * An audit entry as it travels on the `audit-entries` queue from the service that caused
 * it to the audit service. States are JSON text, serialised by the writing service.
 */
export interface AuditMessage {
  /** null: a global entry, written before any session exists. */
  organizationId: string | null;
  loggedBy: string | null;
  loggedAt: string;
  entryType: string;
  action: string;
  entityName: string;
  entityId: string;
  version: number | null;
  beforeState: string | null;
  afterState: string | null;
}
