import type { EntityManager } from '@mikro-orm/postgresql';
import type { Database } from '../../../platform/db/database.js';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import type { Transaction, Transactions } from '../../../platform/outbox/transaction-runner.js';

/** Raises the organization's library revision in the caller's transaction (made at 1 the first time). */
export async function raiseRevision(em: EntityManager, organizationId: string): Promise<void> {
  await new OrganizationRows(em, organizationId).query(
    `insert into "library"."library_revision" as current (organization_id, revision) values (?, 1)
     on conflict (organization_id) do update set revision = current.revision + 1`,
  );
}

/** The organization's library revision now (0 before its first write). */
export async function currentRevision(orm: Database, organizationId: string): Promise<number> {
  const [row] = await new OrganizationRows(orm.em.fork(), organizationId).query<{ revision: string }>(
    `select revision from "library"."library_revision" where organization_id = ?`,
  );
  return Number(row?.revision ?? 0);
}

/**
 * The library's transactions: each write of an organization's library also raises its revision,
 * in the same transaction, and once it has committed, `changed` is told (to drop this process's
 * snapshot at once and tell the other replicas).
 */
export class RevisionedTransactions implements Transactions {
  constructor(
    private readonly inner: Transactions,
    private readonly changed: (organizationId: string) => void,
  ) {}

  async run<T>(work: (tx: Transaction) => Promise<T>, organizationId?: string): Promise<T> {
    if (!organizationId) return this.inner.run(work);
    const result = await this.inner.run(async (tx) => {
      const answer = await work(tx);
      await raiseRevision(tx.em, organizationId);
      return answer;
    }, organizationId);
    this.changed(organizationId);
    return result;
  }
}
