import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditLog } from '../../platform/audit-log/audit-log.js';
import type { Caller } from '../../platform/auth/caller.js';
import type { CreditCosts } from '../../platform/config/credit-costs.js';
import type { CreditGate } from '../../platform/credits/credit-gate.js';
import type { AuditedWrites } from '../../platform/db/audited-writes.js';
import type { Database } from '../../platform/db/database.js';
import { scopeToOrganization } from '../../platform/db/tenancy.js';
import type { Logger } from '../../platform/logging/logger.js';
import type { Clock } from '../../platform/time/clock.js';
import type { AuthorNames } from './authors.js';
import type { LibraryTransactions } from './resolution/revisions.js';
import type { DataKeys } from './secrets/data-keys.js';

export const LIBRARY_SCHEMA = 'library';

/** What the library's use cases share. */
export interface LibraryDependencies {
  orm: Database;
  /** Every library write: it also raises the organization's library revision (resolution/revisions.ts). */
  transactions: LibraryTransactions;
  auditLog: AuditLog;
  /** Every create, update and delete of a tag group, set or variable. */
  writes: AuditedWrites;
  clock: Clock;
  logger: Logger;
  authors: AuthorNames;
  credits: CreditGate;
  /** The credit costs, read again on every request (spec 8). */
  costs: () => CreditCosts;
  /** Organizations' data keys, which sensitive values are sealed under. */
  secrets: DataKeys;
}

/** A read-only entity manager limited to the caller's organization. */
export function readerFor(deps: Pick<LibraryDependencies, 'orm'>, caller: Caller): EntityManager {
  return scopeToOrganization(deps.orm.em.fork(), caller.organizationId);
}
