import type { Database } from '../../../platform/db/database.js';
import type { OrganizationRows } from '../../../platform/db/organization-rows.js';
import { NotFoundError } from '../../../platform/errors/domain-errors.js';
import type {
  ExportedLibrary,
  ExportedSet,
  ExportedTagGroup,
  ExportedValue,
  ExportedVariable,
} from '../domain/library-export.js';
import type { VariableType } from '../domain/variable-types.js';
import { inOneMoment } from '../resolution/library-snapshot.js';
import type { DataKeys } from '../secrets/data-keys.js';
import { STORED_VALUE_COLUMNS, storedOfRow, type StoredValueRow } from '../variables/value-store.js';

/** What an export names: tag groups and library sets by id, each once. */
export interface ExportSelection {
  tagGroupIds: readonly number[];
  setIds: readonly number[];
}

/**
 * 404 unless every tag group and set named is the organization's (spec 4.1 "Export" rule 2); the
 * first missing one is named, tag groups first. Reads ids only.
 */
export async function requireExported(rows: OrganizationRows, selection: ExportSelection): Promise<void> {
  const present = async (table: 'tag_group' | 'variable_set', ids: readonly number[]) =>
    ids.length === 0
      ? new Set<number>()
      : new Set(
          (
            await rows.query<{ id: number }>(
              `select id from "library"."${table}" where organization_id = ? and id in (?)`,
              [ids],
            )
          ).map((row) => row.id),
        );
  const groups = await present('tag_group', selection.tagGroupIds);
  const sets = await present('variable_set', selection.setIds);
  const group = selection.tagGroupIds.find((id) => !groups.has(id));
  if (group !== undefined) throw NotFoundError.entity('Tag group', group);
  const set = selection.setIds.find((id) => !sets.has(id));
  if (set !== undefined) throw NotFoundError.entity('Library set', set);
}

/**
 * The groups (with their tags) and sets (with their variables, values and the values' tags) an
 * export writes, read in one moment of the database in a few set-based queries, no ORM entities:
 * a shape-M library (100 sets, 5,000 values) in tens of milliseconds. A group or set deleted since
 * `requireExported` is 404 here too. Sensitive values are opened only when `secrets` is given (an
 * export that writes them); otherwise they are left unread, as nothing writes them.
 */
export function readExported(
  orm: Database,
  organizationId: string,
  selection: ExportSelection,
  secrets: DataKeys | undefined,
): Promise<ExportedLibrary> {
  return inOneMoment(orm, organizationId, async (rows) => {
    await requireExported(rows, selection);
    // One query after another: the moment's transaction runs one at a time on its connection.
    return {
      tagGroups: await readTagGroups(rows, selection.tagGroupIds),
      sets: await readSets(rows, selection.setIds),
      variables: await readVariables(rows, selection.setIds),
      values: await readStoredValues(rows, selection.setIds, secrets),
    };
  });
}

async function readTagGroups(rows: OrganizationRows, ids: readonly number[]): Promise<ExportedTagGroup[]> {
  if (ids.length === 0) return [];
  const found = await rows.query<{ id: number; name: string; tag_name: string | null }>(
    `select g.id, g.name, t.name as tag_name
     from "library"."tag_group" g left join "library"."tag" t on t.tag_group_id = g.id
     where g.organization_id = ? and g.id in (?)`,
    [ids],
  );
  const groups = new Map<number, { name: string; tags: string[] }>();
  for (const row of found) {
    const group = groups.get(row.id) ?? { name: row.name, tags: [] };
    if (row.tag_name !== null) group.tags.push(row.tag_name);
    groups.set(row.id, group);
  }
  return [...groups.values()];
}

async function readSets(rows: OrganizationRows, ids: readonly number[]): Promise<ExportedSet[]> {
  if (ids.length === 0) return [];
  const found = await rows.query<{
    id: number;
    name: string;
    slug: string;
    description: string;
    parent_variable_set_id: number | null;
  }>(
    `select id, name, slug, description, parent_variable_set_id
     from "library"."variable_set" where organization_id = ? and id in (?)`,
    [ids],
  );
  return found.map((row) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    parentId: row.parent_variable_set_id,
  }));
}

async function readVariables(rows: OrganizationRows, setIds: readonly number[]): Promise<ExportedVariable[]> {
  if (setIds.length === 0) return [];
  const found = await rows.query<{
    id: number;
    variable_set_id: number;
    name: string;
    type: VariableType;
    sensitive: boolean;
  }>(
    `select id, variable_set_id, name, type, sensitive
     from "library"."variable" where organization_id = ? and variable_set_id in (?)`,
    [setIds],
  );
  return found.map((row) => ({
    id: row.id,
    setId: row.variable_set_id,
    name: row.name,
    type: row.type,
    sensitive: row.sensitive,
  }));
}

/**
 * Every stored value of the variables of these sets, in id order, with its tags as `Group/Tag`:
 * the one place the export reads values, and so where a sealed value is opened, with the data key
 * read in the same moment, when `secrets` is given (else a sealed value's fields are left empty).
 */
export async function readStoredValues(
  rows: OrganizationRows,
  setIds: readonly number[],
  secrets: DataKeys | undefined,
): Promise<ExportedValue[]> {
  if (setIds.length === 0) return [];
  const values = await rows.query<StoredValueRow>(
    `select ${STORED_VALUE_COLUMNS}
     from "library"."variable_value" value join "library"."variable" var on var.id = value.variable_id
     where value.organization_id = ? and var.variable_set_id in (?)
     order by value.id`,
    [setIds],
  );
  const links = await rows.query<{ value_id: number; tag_id: number }>(
    `select vt.value_id, vt.tag_id
     from "library"."value_tag" vt
     join "library"."variable_value" v on v.id = vt.value_id
     join "library"."variable" var on var.id = v.variable_id
     where vt.organization_id = ? and var.variable_set_id in (?)`,
    [setIds],
  );
  // Every tag of the organization (far fewer than links), so each of the many link rows carries two ids only.
  const tags = await rows.query<{ id: number; scope: string }>(
    `select t.id, g.name || '/' || t.name as scope
     from "library"."tag" t join "library"."tag_group" g on g.id = t.tag_group_id
     where t.organization_id = ?`,
  );
  const cipher = secrets && (await secrets.forSealed(rows, values));
  const scopeOf = new Map(tags.map((tag) => [tag.id, tag.scope]));
  const scopes = new Map<number, string[]>();
  for (const link of links) {
    const scope = scopeOf.get(link.tag_id)!;
    const list = scopes.get(link.value_id);
    if (list) list.push(scope);
    else scopes.set(link.value_id, [scope]);
  }
  return values.map((row) => ({
    variableId: row.variable_id,
    stored:
      row.sealed_value && !secrets
        ? { value: null, numberValue: null, booleanValue: null }
        : storedOfRow(row, cipher),
    hint: row.hint,
    hash: row.hash,
    scopes: scopes.get(row.id) ?? [],
  }));
}
