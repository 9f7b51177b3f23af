import type { OrganizationRows } from '../../../platform/db/organization-rows.js';

/** Values written per statement: two parameters each, far under PostgreSQL's 65,535. */
const CHUNK = 2000;

/**
 * Writes sealed values into their rows, a statement per chunk, leaving their plain columns empty:
 * a rekey sealing them again, or the start sealing what was stored plain.
 */
export async function writeSealedValues(
  rows: OrganizationRows,
  values: readonly { id: number; sealed: Buffer }[],
): Promise<void> {
  for (let start = 0; start < values.length; start += CHUNK) {
    const chunk = values.slice(start, start + CHUNK);
    await rows.query(
      `with sealed (organization_id, id, sealed_value) as (
         select ?::uuid, unnest(array[?]::int[]), unnest(array[?]::bytea[]))
       update "library"."variable_value" as value
       set sealed_value = sealed.sealed_value, value = null, number_value = null
       from sealed where value.organization_id = sealed.organization_id and value.id = sealed.id`,
      [chunk.map((value) => value.id), chunk.map((value) => value.sealed)],
    );
  }
}
