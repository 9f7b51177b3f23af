import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Locks rows `FOR NO KEY UPDATE` until `em`'s transaction ends: the row with this id, or every
 * row of an organization (in id order, so two lockers of one organization queue instead of
 * deadlocking). This is the lock of a version check: it waits for another version check or
 * delete of the row, but not for the `FOR KEY SHARE` a foreign key check takes, so adding a
 * membership, key or identity that references the row is never blocked by it (decisions.md
 * "Row locks"). `FOR UPDATE`, MikroORM's pessimistic write, would block those: two requests
 * each holding one end of a membership and inserting it then deadlock. MikroORM has no lock
 * mode for this, hence the SQL.
 */
export async function lockForNoKeyUpdate<T>(
  em: EntityManager,
  entity: EntityName<T>,
  rows: { id: string | number } | { organizationId: string },
): Promise<void> {
  const meta = em.getMetadata().get(entity);
  const table = `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
  const [column, value] = 'id' in rows ? ['id', rows.id] : ['organization_id', rows.organizationId];
  await em.execute(`select 1 from ${table} where "${column}" = ? order by "id" for no key update`, [value]);
}

/**
 * The row with this id, locked `FOR NO KEY UPDATE` (above) and then read afresh through `em`,
 * with its organization scope: an id of another organization is null, as with any read.
 */
export async function findForVersionCheck<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  id: string | number,
): Promise<T | null> {
  await lockForNoKeyUpdate(em, entity, { id });
  // refresh: a row read earlier in the transaction is read again, now that it is locked.
  return em.findOne(entity, { id } as FilterQuery<T>, { refresh: true });
}
