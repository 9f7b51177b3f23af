import {
  LockMode,
  type EntityData,
  type EntityName,
  type FilterQuery,
  type RequiredEntityData,
} from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditAuthor, AuditEntryType, AuditLog } from '../audit-log/audit-log.js';
import { ConflictError, NotFoundError } from '../errors/domain-errors.js';
import type { Transaction } from '../outbox/transaction-runner.js';
import type { Clock } from '../time/clock.js';
import { withConstraintErrors, type ConstraintMessages } from './database-errors.js';
import { findForVersionCheck } from './row-locks.js';
import type { Stamped, StampedField } from './stamped-columns.js';

/**
 * A kind of versioned record and how the API answers it: the view of each row is also the
 * state its audit entries keep (spec 2 "Audit entry": serialised by the writing service).
 */
export interface AuditedKind<E extends Stamped, V> {
  entity: EntityName<E>;
  /** The audit entry type, and the entity name its entries carry. */
  entryType: AuditEntryType;
  /** How messages name one: `Group 5 was not found.` */
  label: string;
  /** The rows as the API answers them, read with `em` (one query for all, not one per row). */
  views(em: EntityManager, rows: E[]): Promise<V[]>;
}

/** The fields of a new row, without those AuditedWrites stamps. */
export type NewRow<E extends Stamped> = Omit<RequiredEntityData<E>, StampedField>;

/** What an update changes, without what AuditedWrites stamps. */
export type RowChange<E extends Stamped> = Omit<EntityData<E>, StampedField | 'id'>;

export interface CreateOptions<E extends Stamped> {
  constraints?: ConstraintMessages;
  /** Writes what the new row owns (a variable's values) before its Create entry takes its state. */
  afterInsert?(row: E): Promise<void>;
  /** The audit entry's author when it is not the writer (a login that provisions its own account). */
  author?: (row: E) => AuditAuthor;
}

export interface UpdateOptions<E extends Stamped, V> {
  /** The version the writer read (spec 9.1); another stored version is 409, nothing changed. */
  expectedVersion?: number | undefined;
  /**
   * What to change, decided with the locked row and its view as it was; may also write what
   * the row owns (memberships), which the after state then shows. Undefined: nothing changes,
   * and nothing is stamped or recorded.
   */
  change(row: E, before: V): Promise<RowChange<E> | undefined> | RowChange<E> | undefined;
  constraints?: ConstraintMessages;
}

export interface RemoveOptions<E extends Stamped, V> {
  /** Runs with the row locked, before it is deleted: what the cascade removes, locked and recorded. */
  beforeDelete?(row: E, before: V): Promise<void>;
}

/**
 * The one way a versioned record is created, changed and deleted (spec 9.1 and 6): in the
 * caller's transaction, the row stamped (version 1 and then one more per update, who and when),
 * the version checked under a row lock (row-locks.ts), and its audit entry written to the
 * outbox in the same transaction, with the states the spec's Audit entry table asks for. The
 * writer (a Caller is one) is both the account stamped on the row and the entry's author.
 */
export class AuditedWrites {
  constructor(private readonly deps: { clock: Clock; auditLog: AuditLog }) {}

  async create<E extends Stamped, V>(
    { em, outbox }: Transaction,
    writer: AuditAuthor,
    kind: AuditedKind<E, V>,
    fields: NewRow<E>,
    options: CreateOptions<E> = {},
  ): Promise<{ row: E; view: V }> {
    const now = this.deps.clock.now();
    const stamps = {
      version: 1,
      createdAt: now,
      updatedAt: now,
      createdById: writer.accountId,
      updatedById: writer.accountId,
    };
    const row = em.create(kind.entity, { ...fields, ...stamps } as unknown as RequiredEntityData<E>);
    await withConstraintErrors(() => em.flush(), options.constraints ?? {});
    await options.afterInsert?.(row);
    const [view] = await kind.views(em, [row]);
    this.deps.auditLog.record(outbox, options.author?.(row) ?? writer, {
      entryType: kind.entryType,
      entityName: kind.entryType,
      entityId: row.id,
      version: 1,
      change: { action: 'Create', after: view },
    });
    return { row, view: view! };
  }

  /** Locks the row with this id in the transaction's scope (404 if there is none), checks its version, changes it. */
  async update<E extends Stamped, V>(
    tx: Transaction,
    writer: AuditAuthor,
    kind: AuditedKind<E, V>,
    id: E['id'],
    options: UpdateOptions<E, V>,
  ): Promise<{ row: E; view: V }> {
    const row = await findForVersionCheck(tx.em, kind.entity, id);
    if (!row) throw NotFoundError.entity(kind.label, id);
    if (options.expectedVersion !== undefined && options.expectedVersion !== row.version) {
      throw new ConflictError(
        `${kind.label} ${id} was changed since version ${options.expectedVersion}; it is at ${row.version}.`,
      );
    }
    return this.updateLocked(tx, writer, kind, row, options);
  }

  /** Changes a row the caller has already locked for its version check (findForVersionCheck). */
  async updateLocked<E extends Stamped, V>(
    tx: Transaction,
    writer: AuditAuthor,
    kind: AuditedKind<E, V>,
    row: E,
    options: Omit<UpdateOptions<E, V>, 'expectedVersion'>,
  ): Promise<{ row: E; view: V }> {
    const [before] = await kind.views(tx.em, [row]);
    const fields = await options.change(row, before!);
    if (fields === undefined) return { row, view: before! };
    return this.changed(tx, writer, kind, row, before!, fields, options.constraints);
  }

  /**
   * Records a locked row as changed, given its state before: it is stamped (with `fields` when
   * given) and its Update entry written. For a change made by other means than its own fields (a
   * cascade that took tags off its values).
   */
  async changed<E extends Stamped, V>(
    { em, outbox }: Transaction,
    writer: AuditAuthor,
    kind: AuditedKind<E, V>,
    row: E,
    before: V,
    fields: RowChange<E> = {} as RowChange<E>,
    constraints: ConstraintMessages = {},
  ): Promise<{ row: E; view: V }> {
    const stamps = {
      version: row.version + 1,
      updatedAt: this.deps.clock.now(),
      updatedById: writer.accountId,
    };
    // MikroORM's assign types its data through E's inferred form, which a generic E cannot meet.
    em.assign(row, { ...fields, ...stamps } as never);
    await withConstraintErrors(() => em.flush(), constraints);
    const [after] = await kind.views(em, [row]);
    this.deps.auditLog.record(outbox, writer, {
      entryType: kind.entryType,
      entityName: kind.entryType,
      entityId: row.id,
      version: row.version,
      change: { action: 'Update', before, after: after! },
    });
    return { row, view: after! };
  }

  /**
   * Deletes the row with this id in the transaction's scope (404 if there is none), locked
   * `FOR UPDATE` first; answers it as it was. What the database cascades is the caller's to
   * lock and record, in `beforeDelete`.
   */
  async remove<E extends Stamped, V>(
    { em, outbox }: Transaction,
    writer: AuditAuthor,
    kind: AuditedKind<E, V>,
    id: E['id'],
    options: RemoveOptions<E, V> = {},
  ): Promise<V> {
    const where = { id } as FilterQuery<E>;
    const row = await em.findOne(kind.entity, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) throw NotFoundError.entity(kind.label, id);
    const [before] = await kind.views(em, [row]);
    await options.beforeDelete?.(row, before!);
    await em.nativeDelete(kind.entity, where);
    this.deps.auditLog.record(outbox, writer, {
      entryType: kind.entryType,
      entityName: kind.entryType,
      entityId: row.id,
      version: row.version,
      change: { action: 'Delete', before: before! },
    });
    return before!;
  }
}
