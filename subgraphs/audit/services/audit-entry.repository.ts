import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditCondition, AuditField } from '../domain/audit-fields.js';
import { nextVersion } from '../domain/audit-versions.js';
import type { AuditScope } from '../domain/audit-visibility.js';
import { AuditEntry } from '../entities/audit-entry.entity.js';

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

/**
 * The audit service's queries. Reads return plain rows: nothing read is changed, so the
 * unit of work's hydration and snapshots would be pure cost.
 */
export class AuditEntryRepository {
  private readonly sequenceTable = `"${AUDIT_SCHEMA}"."audit_sequence"`;
  private readonly entryTable = `"${AUDIT_SCHEMA}"."audit_entry"`;

  /** One page of the entries in scope that meet every condition, and how many meet them in all. */
  async findPage(
    em: EntityManager,
    scope: AuditScope,
    conditions: AuditCondition[],
    page: PageRequest,
  ): Promise<{ total: number; items: AuditEntry[] }> {
    const qb = em
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
    const items = await qb
      .orderBy([
        { [FIELD_PROPERTY[page.sortField]]: direction },
        { organizationId: direction, id: direction, version: direction },
      ])
      .limit(page.take)
      .offset(page.skip)
      .execute<AuditEntry[]>('all', true);
    return { total, items };
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
      if (entry) return entry;
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
    return removed;
  }

  /**
   * Stores a new version: of the requested id, or of the organization's next id. The
   * sequence row is locked for the rest of the transaction, so writers of one organization
   * take turns and never choose the same id or version.
   */
  async append(
    em: EntityManager,
    entry: NewAuditEntry,
    requested: { id?: number; version?: number },
  ): Promise<AuditEntry> {
    const [reserved] = await em.execute<{ last_id: number }[]>(
      requested.id === undefined
        ? `insert into ${this.sequenceTable} (organization_id, last_id) values (?, 1)
           on conflict (organization_id) do update set last_id = ${this.sequenceTable}.last_id + 1
           returning last_id`
        : `insert into ${this.sequenceTable} (organization_id, last_id) values (?, ?)
           on conflict (organization_id) do update set last_id = greatest(${this.sequenceTable}.last_id, excluded.last_id)
           returning last_id`,
      requested.id === undefined ? [entry.organizationId] : [entry.organizationId, requested.id],
    );
    const id = requested.id ?? reserved!.last_id;
    let highestStored: number | undefined;
    if (requested.id !== undefined) {
      const [row] = await em.execute<{ highest: number | null }[]>(
        `select max(version) as highest from ${this.entryTable} where organization_id = ? and id = ?`,
        [entry.organizationId, id],
      );
      highestStored = row?.highest ?? undefined;
    }
    const stored = em.create(AuditEntry, {
      ...entry,
      id,
      version: nextVersion(highestStored, requested.version),
    });
    await em.flush();
    return stored;
  }
}
