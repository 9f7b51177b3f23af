import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrganizationRows } from './organization-rows.js';
import { TENANT_FILTER } from './tenancy.js';

/**
 * Locks rows `FOR NO KEY UPDATE` until `em`'s transaction ends: the row with this id, or every
 * row of `em`'s organization (in id order, so two lockers of one organization queue instead of
 * deadlocking). This is the lock of a version check: it waits for another version check or
 * delete of the row, but not for the `FOR KEY SHARE` a foreign key check takes, so adding a
 * membership, key or identity that references the row is never blocked by it (decisions.md
 * "Row locks"). `FOR UPDATE`, MikroORM's pessimistic write, would block those: two requests
 * each holding one end of a membership and inserting it then deadlock. MikroORM has no lock
 * mode for this, hence the SQL: over `em`'s organization's rows (OrganizationRows) for an
 * entity under the tenant filter, so no other organization's row is ever locked; by id alone
 * for one that is not (an organization itself).
 */
export async function lockForNoKeyUpdate<T>(
  em: EntityManager,
  entity: EntityName<T>,
  rows: { id: string | number } | 'all of the organization',
): Promise<void> {
  const meta = em.getMetadata().get(entity);
  const table = `"${meta.schema ?? em.config.get('schema')}"."${meta.tableName}"`;
  if (!(TENANT_FILTER in meta.filters)) {
    if (rows === 'all of the organization')
      throw new Error(`${meta.className} rows belong to no organization.`);
    await em.execute(`select 1 from ${table} where "id" = ? for no key update`, [rows.id]);
    return;
  }
  const organization = OrganizationRows.of(em);
  if (rows === 'all of the organization') {
    await organization.query(
      `select 1 from ${table} where "organization_id" = ? order by "id" for no key update`,
    );
  } else {
    await organization.query(
      `select 1 from ${table} where "organization_id" = ? and "id" = ? for no key update`,
      [rows.id],
    );
  }
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
