import { IsolationLevel } from '@mikro-orm/core';
import type { Database } from '../../../platform/db/database.js';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import type {
  ResolutionLibrary,
  ResolutionSet,
  ResolutionValue,
  ResolutionVariable,
} from '../domain/resolution.js';
import type { StoredValue, VariableType } from '../domain/variable-types.js';
import type { TagView } from '../tag-groups/tag-group.schemas.js';

export interface SnapshotVariable extends ResolutionVariable {
  type: VariableType;
  sensitive: boolean;
}

export interface SnapshotValue extends ResolutionValue {
  stored: StoredValue;
  hint: string | null;
  hash: string | null;
}

/**
 * An organization's whole library, compiled for resolution: read in one snapshot of the database
 * (five plain-row queries, no ORM), never changed, replaced when the library's revision moves.
 */
export interface LibrarySnapshot extends ResolutionLibrary {
  organizationId: string;
  revision: number;
  variables: ReadonlyMap<number, SnapshotVariable>;
  values: ReadonlyMap<number, SnapshotValue>;
  tags: ReadonlyMap<number, TagView>;
  /** A tag by `group in lower case/tag as written`. */
  tagIds: ReadonlyMap<string, number>;
}

/** How a snapshot finds a tag asked for as `Group/Tag` (spec 4.1 rule 6). */
export function tagKey(group: string, tag: string): string {
  return `${group.toLowerCase()}/${tag}`;
}

interface SetRow {
  id: number;
  name: string;
  parent_variable_set_id: number | null;
}
interface VariableRow {
  id: number;
  variable_set_id: number;
  name: string;
  type: VariableType;
  sensitive: boolean;
}
interface ValueRow {
  id: number;
  variable_id: number;
  value: string | null;
  number_value: number | null;
  boolean_value: boolean | null;
  hint: string | null;
  hash: string | null;
}
interface LinkRow {
  value_id: number;
  tag_id: number;
}
interface TagRow {
  id: number;
  name: string;
  tag_group_id: number;
  group_name: string;
}

/** Reads the organization's library in one repeatable-read transaction, so every part is of one moment. */
export async function loadSnapshot(orm: Database, organizationId: string): Promise<LibrarySnapshot> {
  return orm.em.fork().transactional(
    async (em) => {
      const rows = new OrganizationRows(em, organizationId);
      const [revision] = await rows.query<{ revision: string }>(
        `select revision from "library"."library_revision" where organization_id = ?`,
      );
      const sets = await rows.query<SetRow>(
        `select id, name, parent_variable_set_id from "library"."variable_set" where organization_id = ?`,
      );
      const variables = await rows.query<VariableRow>(
        `select id, variable_set_id, name, type, sensitive from "library"."variable" where organization_id = ? order by id`,
      );
      const values = await rows.query<ValueRow>(
        `select id, variable_id, value, number_value, boolean_value, hint, hash from "library"."variable_value"
         where organization_id = ? order by id`,
      );
      const links = await rows.query<LinkRow>(
        `select value_id, tag_id from "library"."value_tag" where organization_id = ?`,
      );
      const tags = await rows.query<TagRow>(
        `select t.id, t.name, t.tag_group_id, g.name as group_name
         from "library"."tag" t join "library"."tag_group" g on g.id = t.tag_group_id
         where t.organization_id = ?`,
      );
      return compile(organizationId, Number(revision?.revision ?? 0), {
        sets,
        variables,
        values,
        links,
        tags,
      });
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}

function compile(
  organizationId: string,
  revision: number,
  rows: { sets: SetRow[]; variables: VariableRow[]; values: ValueRow[]; links: LinkRow[]; tags: TagRow[] },
): LibrarySnapshot {
  const sets = new Map<number, ResolutionSet>(
    rows.sets.map((set) => [set.id, { id: set.id, name: set.name, parentId: set.parent_variable_set_id }]),
  );
  const variables = new Map<number, SnapshotVariable>();
  const variablesBySet = new Map<number, SnapshotVariable[]>();
  for (const row of rows.variables) {
    const variable = {
      id: row.id,
      setId: row.variable_set_id,
      name: row.name,
      type: row.type,
      sensitive: row.sensitive,
    };
    variables.set(variable.id, variable);
    listIn(variablesBySet, variable.setId).push(variable);
  }
  const tagsOf = new Map<number, number[]>();
  for (const link of rows.links) listIn(tagsOf, link.value_id).push(link.tag_id);
  const values = new Map<number, SnapshotValue>();
  const valuesByVariable = new Map<number, SnapshotValue[]>();
  for (const row of rows.values) {
    const value: SnapshotValue = {
      id: row.id,
      variableId: row.variable_id,
      tagIds: (tagsOf.get(row.id) ?? []).sort((a, b) => a - b),
      stored: { value: row.value, numberValue: row.number_value, booleanValue: row.boolean_value },
      hint: row.hint,
      hash: row.hash,
    };
    values.set(value.id, value);
    listIn(valuesByVariable, value.variableId).push(value);
  }
  const tags = new Map<number, TagView>(
    rows.tags.map((tag) => [tag.id, { id: tag.id, name: tag.name, tagGroupId: tag.tag_group_id }]),
  );
  const tagIds = new Map(rows.tags.map((tag) => [tagKey(tag.group_name, tag.name), tag.id]));
  return {
    organizationId,
    revision,
    sets,
    variables,
    variablesBySet,
    values,
    valuesByVariable,
    tags,
    tagIds,
  };
}

/** The list kept under `key`, made empty the first time. */
function listIn<T>(lists: Map<number, T[]>, key: number): T[] {
  let list = lists.get(key);
  if (!list) lists.set(key, (list = []));
  return list;
}
