import type { EntityManager } from '@mikro-orm/postgresql';
import type { Database } from '../../../platform/db/database.js';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import type { Transaction, Transactions } from '../../../platform/outbox/transaction-runner.js';

/**
 * A committed library write: the organization's revision it made, and, when the write said so,
 * the only variables it changed (with their values); without them it may have changed anything.
 */
export interface LibraryChange {
  organizationId: string;
  revision: number;
  variables?: readonly number[];
}

/** Raises the organization's library revision in the caller's transaction (made at 1 the first time); the new one. */
async function raiseRevision(em: EntityManager, organizationId: string): Promise<number> {
  const [row] = await new OrganizationRows(em, organizationId).query<{ revision: string }>(
    `insert into "library"."library_revision" as current (organization_id, revision) values (?, 1)
     on conflict (organization_id) do update set revision = current.revision + 1 returning revision`,
  );
  return Number(row!.revision);
}

/** The organization's library revision now (0 before its first write). */
export async function currentRevision(orm: Database, organizationId: string): Promise<number> {
  const [row] = await new OrganizationRows(orm.em.fork(), organizationId).query<{ revision: string }>(
    `select revision from "library"."library_revision" where organization_id = ?`,
  );
  return Number(row?.revision ?? 0);
}

/** The library's transactions, which a write can tell that it changed only some variables. */
export interface LibraryTransactions extends Transactions {
  onlyVariables(tx: Transaction, variableIds: readonly number[]): void;
}

/**
 * The library's transactions: each write of an organization's library also raises its revision,
 * in the same transaction, and once it has committed, `changed` is told what changed (to bring
 * this process's snapshot up to date at once and tell the other replicas).
 */
export class RevisionedTransactions implements LibraryTransactions {
  private readonly narrowed = new WeakMap<Transaction, Set<number>>();

  constructor(
    private readonly inner: Transactions,
    private readonly changed: (change: LibraryChange) => void,
  ) {}

  /** This transaction changes only these variables and their values (so a snapshot can be patched, not read again). */
  onlyVariables(tx: Transaction, variableIds: readonly number[]): void {
    const only = this.narrowed.get(tx) ?? new Set<number>();
    for (const id of variableIds) only.add(id);
    this.narrowed.set(tx, only);
  }

  async run<T>(work: (tx: Transaction) => Promise<T>, organizationId?: string): Promise<T> {
    if (!organizationId) return this.inner.run(work);
    let change: LibraryChange | undefined;
    const result = await this.inner.run(async (tx) => {
      const answer = await work(tx);
      const revision = await raiseRevision(tx.em, organizationId);
      const only = this.narrowed.get(tx);
      change = { organizationId, revision, ...(only ? { variables: [...only] } : {}) };
      return answer;
    }, organizationId);
    this.changed(change!);
    return result;
  }
}
