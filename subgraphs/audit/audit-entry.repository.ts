import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditCondition, AuditField } from './domain/audit-fields.js';
import { givenId, nextId, nextVersion } from './domain/audit-versions.js';
import type { AuditScope } from './domain/audit-visibility.js';
import { AuditEntry } from './audit-entry.entity.js';
import { AuditSequence } from './audit-sequence.entity.js';
import { OrganizationRows } from '../../platform/db/organization-rows.js';

export const AUDIT_SCHEMA = 'audit';

/** Each field as text, the form in which conditions compare it (spec 4.4: values compared as text). */
const FIELD_TEXT: Record<AuditField, string> = {
  Id: 'e.id::text',
  Version: 'e.version::text',
  OrganizationId: 'e.organization_id::text',
  LoggedAt: `to_char(e.logged_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  LoggedBy: 'e.logged_by::text',
  EntryType: 'e.entry_type',
  Action: 'e.action',
  EntityName: 'e.entity_name',
  EntityId: 'e.entity_id',
};

const FIELD_PROPERTY: Record<AuditField, keyof AuditEntry> = {
  Id: 'id',
  Version: 'version',
  OrganizationId: 'organizationId',
  LoggedAt: 'loggedAt',
  LoggedBy: 'loggedBy',
  EntryType: 'entryType',
  Action: 'action',
  EntityName: 'entityName',
  EntityId: 'entityId',
};

export interface PageRequest {
  take: number;
  skip: number;
  sortField: AuditField;
  sortDescending: boolean;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'version'>;

/** Which id a new entry is a version of. */
export type IdChoice =
  /** POST / with an id: a new version of that id. */
  | { kind: 'given'; id: number }
  /** POST / without an id: the organization's next id. */
  | { kind: 'next' }
  /** An entry delivered from a service (spec 9.2): the id its entity's entries share, else the next id. */
  | { kind: 'entity' };

/**
 * The audit service's queries. Reads return plain rows: nothing read is changed, so the
 * unit of work's hydration and snapshots would be pure cost. Raw statements read `bigint`
 * ids and versions as text (pg's default, which loses nothing), made numbers here.
 */
export class AuditEntryRepository {
  private readonly sequenceTable = `"${AUDIT_SCHEMA}"."audit_sequence"`;
  private readonly entryTable = `"${AUDIT_SCHEMA}"."audit_entry"`;

  /**
   * One page of the entries in scope that meet every condition, and how many meet them in
   * all: counted and read in one repeatable-read snapshot, so a write between the two
   * cannot make the total and the items disagree.
   */
  findPage(
    em: EntityManager,
    scope: AuditScope,
    conditions: AuditCondition[],
    page: PageRequest,
  ): Promise<{ total: number; items: AuditEntry[] }> {
    return em.transactional(
      async (tx) => {
        const qb = tx
          .createQueryBuilder(AuditEntry, 'e')
          .where({ organizationId: { $in: [...scope.organizationIds] } });
        for (const condition of conditions) {
          const text = FIELD_TEXT[condition.field];
          if (condition.operator === 'eq') qb.andWhere(`${text} = ?`, [condition.value]);
          else qb.andWhere(`strpos(lower(${text}), lower(?)) > 0`, [condition.value]);
        }
        const total = await qb.clone().getCount();
        if (page.take === 0 || page.skip >= total) return { total, items: [] };
        const direction = page.sortDescending ? 'desc' : 'asc';
        const rows = await qb
          .orderBy([
            { [FIELD_PROPERTY[page.sortField]]: direction },
            { organizationId: direction, id: direction, version: direction },
          ])
          .limit(page.take)
          .offset(page.skip)
          .execute<AuditEntry[]>('all', true);
        return { total, items: rows.map(numbered) };
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
    );
  }

  /**
   * The entry of this id (the given version, else the latest) in the first of the
   * organizations that has one.
   */
  async findOne(
    em: EntityManager,
    organizationIds: readonly string[],
    id: number,
    version: number | undefined,
  ): Promise<AuditEntry | undefined> {
    for (const organizationId of organizationIds) {
      const [entry] = await em
        .createQueryBuilder(AuditEntry, 'e')
        .where({ organizationId, id, ...(version === undefined ? {} : { version }) })
        .orderBy({ version: 'desc' })
        .limit(1)
        .execute<AuditEntry[]>('all', true);
      if (entry) return numbered(entry);
    }
    return undefined;
  }

  /** Removes every version of an id in one organization; answers what it removed, oldest first. */
  async removeAll(em: EntityManager, organizationId: string, id: number): Promise<AuditEntry[]> {
    const removed = await em
      .createQueryBuilder(AuditEntry, 'e')
      .where({ organizationId, id })
      .orderBy({ version: 'asc' })
      .execute<AuditEntry[]>('all', true);
    if (removed.length > 0) await em.nativeDelete(AuditEntry, { organizationId, id });
    return removed.map(numbered);
  }

  /**
   * Stores a new version of the id the choice names. The organization's sequence row is
   * locked first and held to the end of the transaction, so writers of one organization
   * take turns: two never take the same new id, never store the same version, and an
   * entity's first two entries never get two ids.
   */
  async append(
    em: EntityManager,
    entry: NewAuditEntry,
    choice: IdChoice,
    requestedVersion: number | undefined,
  ): Promise<AuditEntry> {
    const rows = new OrganizationRows(em, entry.organizationId);
    const lastId = await this.lockSequence(rows);
    const { id, isNew } = await this.chooseId(rows, entry, choice, lastId);
    // Moved up to an id just taken, so a later omitted id never lands on it.
    if (id > lastId)
      await em.nativeUpdate(AuditSequence, { organizationId: entry.organizationId }, { lastId: id });
    const highestStored = isNew ? undefined : await this.highestVersion(rows, id);
    const stored = em.create(AuditEntry, {
      ...entry,
      id,
      version: nextVersion(highestStored, requestedVersion),
    });
    await em.flush();
    return stored;
  }

  private async chooseId(
    rows: OrganizationRows,
    entry: NewAuditEntry,
    choice: IdChoice,
    lastId: number,
  ): Promise<{ id: number; isNew: boolean }> {
    if (choice.kind === 'given') return { id: givenId(choice.id, lastId), isNew: choice.id > lastId };
    const shared = choice.kind === 'entity' ? await this.entityEntryId(rows, entry) : undefined;
    return shared === undefined ? { id: nextId(lastId), isNew: true } : { id: shared, isNew: false };
  }

  /**
   * The organization's highest id, its sequence row locked to the end of the transaction (made
   * at 0 if it has none yet). One statement: the update that changes nothing takes the row lock
   * whether the row was there or just made.
   */
  private async lockSequence(rows: OrganizationRows): Promise<number> {
    const [row] = await rows.query<{ last_id: string }>(
      `insert into ${this.sequenceTable} as counter (organization_id, last_id) values (?, 0)
       on conflict (organization_id) do update set last_id = counter.last_id
       returning last_id`,
    );
    return Number(row!.last_id);
  }

  /** The id the entity's entries in this organization already share (the first, should there be several). */
  private async entityEntryId(rows: OrganizationRows, entry: NewAuditEntry): Promise<number | undefined> {
    const [row] = await rows.query<{ id: string }>(
      `select id from ${this.entryTable}
       where organization_id = ? and entry_type = ? and entity_id = ? and entity_name = ?
       order by id limit 1`,
      [entry.entryType, entry.entityId, entry.entityName],
    );
    return row === undefined ? undefined : Number(row.id);
  }

  private async highestVersion(rows: OrganizationRows, id: number): Promise<number | undefined> {
    const [row] = await rows.query<{ highest: string | null }>(
      `select max(version) as highest from ${this.entryTable} where organization_id = ? and id = ?`,
      [id],
    );
    return row?.highest == null ? undefined : Number(row.highest);
  }
}

/** A row read past the entity mapping, its bigint id and version (text from pg) made numbers. */
function numbered(row: AuditEntry): AuditEntry {
  return { ...row, id: Number(row.id), version: Number(row.version) };
}
