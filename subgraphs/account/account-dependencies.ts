import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditLog, AuditRecord } from '../../platform/audit-log/audit-log.js';
import type { Caller } from '../../platform/auth/caller.js';
import type { Settings } from '../../platform/config/settings.js';
import type { AuditedWrites } from '../../platform/db/audited-writes.js';
import type { Database } from '../../platform/db/database.js';
import { scopeToOrganization } from '../../platform/db/tenancy.js';
import type { Logger } from '../../platform/logging/logger.js';
import type { OutboxWriter, TransactionRunner } from '../../platform/outbox/transaction-runner.js';
import type { Clock } from '../../platform/time/clock.js';

/** What the account services share. */
export interface AccountDependencies {
  orm: Database;
  transactions: TransactionRunner;
  auditLog: AuditLog;
  /** Every create, update and delete of an organization, account or group. */
  writes: AuditedWrites;
  clock: Clock;
  logger: Logger;
  credits: Settings['credits'];
}

/** A read-only entity manager limited to the caller's organization. */
export function readerFor(deps: AccountDependencies, caller: Caller): EntityManager {
  return scopeToOrganization(deps.orm.em.fork(), caller.organizationId);
}

/** Records an account audit entry in the caller's organization, in the transaction of the change. */
export function recordAudit(
  deps: AccountDependencies,
  outbox: OutboxWriter,
  caller: Caller | null,
  record: AuditRecord,
): void {
  deps.auditLog.record(
    outbox,
    { organizationId: caller?.organizationId ?? null, accountId: caller?.accountId ?? null },
    record,
  );
}
