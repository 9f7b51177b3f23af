import type { EntityManager } from '@mikro-orm/postgresql';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import type { ExistingLibrary } from '../domain/import-plan.js';

/** How much a replacing import removed (spec 4.1 "Import" response). */
export interface LibraryDeletions {
  tagGroupsDeleted: number;
  tagsDeleted: number;
  librarySetsDeleted: number;
  variablesDeleted: number;
  valuesDeleted: number;
}

export const NOTHING_DELETED: LibraryDeletions = {
  tagGroupsDeleted: 0,
  tagsDeleted: 0,
  librarySetsDeleted: 0,
  variablesDeleted: 0,
  valuesDeleted: 0,
};

/**
 * Empties `em`'s organization's library in its transaction (a replacing import), counting what
 * went; rolled back with the rest when the file is refused. Links go with their values and tags.
 */
export async function emptyLibrary(em: EntityManager): Promise<LibraryDeletions> {
  const rows = OrganizationRows.of(em);
  const removed = async (table: string, before = '') => {
    if (before) await rows.query(before);
    const [row] = await rows.query<{ count: string }>(
      `with gone as (delete from "library"."${table}" where organization_id = ? returning 1) select count(*) from gone`,
    );
    return Number(row!.count);
  };
  const valuesDeleted = await removed('variable_value');
  const variablesDeleted = await removed('variable');
  const librarySetsDeleted = await removed(
    'variable_set',
    `update "library"."variable_set" set parent_variable_set_id = null where organization_id = ? and parent_variable_set_id is not null`,
  );
  const tagsDeleted = await removed('tag');
  const tagGroupsDeleted = await removed('tag_group');
  return { tagGroupsDeleted, tagsDeleted, librarySetsDeleted, variablesDeleted, valuesDeleted };
}

/** The names an import matches against: every tag group, tag and set, and each set's variable names. */
export async function readExistingLibrary(em: EntityManager): Promise<ExistingLibrary> {
  const rows = OrganizationRows.of(em);
  // One after another: the transaction has one connection.
  const groups = await rows.query<{ id: number; name: string }>(
    `select id, name from "library"."tag_group" where organization_id = ?`,
  );
  const tags = await rows.query<{ id: number; tag_group_id: number; name: string }>(
    `select id, tag_group_id, name from "library"."tag" where organization_id = ?`,
  );
  const sets = await rows.query<{ id: number; name: string; slug: string }>(
    `select id, name, slug from "library"."variable_set" where organization_id = ?`,
  );
  const variables = await rows.query<{ variable_set_id: number; name: string }>(
    `select variable_set_id, name from "library"."variable" where organization_id = ?`,
  );
  const variableNames = new Map<number, string[]>();
  for (const variable of variables) {
    const names = variableNames.get(variable.variable_set_id) ?? [];
    variableNames.set(variable.variable_set_id, names);
    names.push(variable.name);
  }
  return {
    groups,
    tags: tags.map((tag) => ({ id: tag.id, tagGroupId: tag.tag_group_id, name: tag.name })),
    sets,
    variableNames,
  };
}
