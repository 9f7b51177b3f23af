import { IsolationLevel } from '@mikro-orm/core';
import type { Database } from '../../../platform/db/database.js';
import { OrganizationRows } from '../../../platform/db/organization-rows.js';
import type { ResolutionLibrary, ResolutionValue, ResolutionVariable } from '../domain/resolution.js';
import type { StoredValue, VariableType } from '../domain/variable-types.js';
import type { DataKeys } from '../secrets/data-keys.js';
import type { ValueCipher } from '../secrets/value-cipher.js';
import type { TagView } from '../tag-groups/tag-group.schemas.js';
import { STORED_VALUE_COLUMNS, storedOfRow, type StoredValueRow } from '../variables/value-store.js';

export interface SnapshotVariable extends ResolutionVariable {
  type: VariableType;
  sensitive: boolean;
}

/**
 * A value as answers use it. Kept small, as a replica holds one per value of every organization
 * it serves (100,000 at shape L): its text made once, as answers write it, in place of the three
 * stored fields; its tag ids one shared list per combination of tags.
 */
export interface SnapshotValue extends ResolutionValue {
  /** The text the value stands for in an answer (CONTRACT 6; valueText). */
  text: string;
  hint: string | null;
  hash: string | null;
}

/**
 * An organization's whole library, compiled for resolution: read in one snapshot of the database
 * (four plain-row queries, no ORM), never changed: a write makes a new one, patched or read whole.
 */
export interface LibrarySnapshot extends ResolutionLibrary<SnapshotVariable, SnapshotValue> {
  organizationId: string;
  revision: number;
  tags: ReadonlyMap<number, TagView>;
  /** A tag by `group in lower case/tag as written`. */
  tagIds: ReadonlyMap<string, number>;
}

/** How a snapshot finds a tag asked for as `Group/Tag` (spec 4.1 rule 6). */
export function tagKey(group: string, tag: string): string {
  return `${group.toLowerCase()}/${tag}`;
}

/**
 * The text a value stands for in an answer (CONTRACT 6): a Number as JavaScript writes it, a
 * Boolean `true` or `false`, any other type its text.
 */
function valueText(type: VariableType, stored: StoredValue): string {
  if (type === 'Number') return String(stored.numberValue ?? '');
  if (type === 'Boolean') return String(stored.booleanValue ?? '');
  return stored.value ?? '';
}

const VARIABLE_COLUMNS = 'id, variable_set_id, name, type, sensitive';
/**
 * A value's columns and its tag ids in ascending order, as one text (`3,7,12`, null when it has
 * none): rows a link each would be as many objects again, made only to be dropped.
 */
const VALUE_COLUMNS = `${STORED_VALUE_COLUMNS},
  (select string_agg(link.tag_id::text, ',' order by link.tag_id) from "library"."value_tag" link
   where link.value_id = value.id) as tag_ids`;

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
interface ValueRow extends StoredValueRow {
  tag_ids: string | null;
}
interface TagRow {
  id: number;
  name: string;
  tag_group_id: number;
  group_name: string;
}

/** Reads in one repeatable-read, read-only transaction, so every part is of one moment. */
export function inOneMoment<T>(
  orm: Database,
  organizationId: string,
  read: (rows: OrganizationRows) => Promise<T>,
): Promise<T> {
  return orm.em.fork().transactional((em) => read(new OrganizationRows(em, organizationId)), {
    isolationLevel: IsolationLevel.REPEATABLE_READ,
    readOnly: true,
  });
}

async function revisionOf(rows: OrganizationRows): Promise<number> {
  const [row] = await rows.query<{ revision: string }>(
    `select revision from "library"."library_revision" where organization_id = ?`,
  );
  return Number(row?.revision ?? 0);
}

/**
 * Reads the organization's whole library, its secrets opened: each once, here, never per request
 * (decisions "Secrets at rest").
 */
export function loadSnapshot(
  orm: Database,
  secrets: DataKeys,
  organizationId: string,
): Promise<LibrarySnapshot> {
  return inOneMoment(orm, organizationId, async (rows) => {
    const revision = await revisionOf(rows);
    const sets = await rows.query<SetRow>(
      `select id, name, parent_variable_set_id from "library"."variable_set" where organization_id = ?`,
    );
    const variables = await rows.query<VariableRow>(
      `select ${VARIABLE_COLUMNS} from "library"."variable" where organization_id = ? order by id`,
    );
    const values = await rows.query<ValueRow>(
      `select ${VALUE_COLUMNS} from "library"."variable_value" value
       where value.organization_id = ? order by value.id`,
    );
    const tags = await rows.query<TagRow>(
      `select t.id, t.name, t.tag_group_id, g.name as group_name
       from "library"."tag" t join "library"."tag_group" g on g.id = t.tag_group_id
       where t.organization_id = ?`,
    );
    const snapshot: Mutable = {
      organizationId,
      revision,
      sets: new Map(
        sets.map((set) => [set.id, { id: set.id, name: set.name, parentId: set.parent_variable_set_id }]),
      ),
      variablesBySet: new Map(),
      valuesByVariable: new Map(),
      tags: new Map(
        tags.map((tag) => [tag.id, { id: tag.id, name: tag.name, tagGroupId: tag.tag_group_id }]),
      ),
      tagIds: new Map(tags.map((tag) => [tagKey(tag.group_name, tag.name), tag.id])),
    };
    addVariables(snapshot, { variables, values }, await secrets.forSealed(rows, values));
    return snapshot;
  });
}

/**
 * The snapshot at `revision`, made from the one just before it by reading again only `variableIds`
 * (the write that made the revision changed nothing else): their rows replace what it held of them,
 * and one gone is gone. When the database is not at `revision` (another write came between),
 * the whole library is read instead.
 */
export function patchSnapshot(
  orm: Database,
  secrets: DataKeys,
  snapshot: LibrarySnapshot,
  revision: number,
  variableIds: readonly number[],
): Promise<LibrarySnapshot> {
  if (snapshot.revision >= revision) return Promise.resolve(snapshot);
  if (snapshot.revision !== revision - 1 || variableIds.length === 0)
    return loadSnapshot(orm, secrets, snapshot.organizationId);
  return inOneMoment(orm, snapshot.organizationId, async (rows) => {
    if ((await revisionOf(rows)) !== revision) return loadSnapshot(orm, secrets, snapshot.organizationId);
    const variables = await rows.query<VariableRow>(
      `select ${VARIABLE_COLUMNS} from "library"."variable" where organization_id = ? and id in (?) order by id`,
      [variableIds],
    );
    const values = await rows.query<ValueRow>(
      `select ${VALUE_COLUMNS} from "library"."variable_value" value
       where value.organization_id = ? and value.variable_id in (?) order by value.id`,
      [variableIds],
    );
    // The lists copied here are shared with the old snapshot and never pushed to: every list
    // that changes (a touched set's, a touched variable's) is made anew below.
    const patched: Mutable = {
      ...snapshot,
      revision,
      variablesBySet: new Map(snapshot.variablesBySet) as Map<number, SnapshotVariable[]>,
      valuesByVariable: new Map(snapshot.valuesByVariable) as Map<number, SnapshotValue[]>,
    };
    const touched = new Set(variableIds);
    for (const id of touched) patched.valuesByVariable.delete(id);
    const touchedSets = new Set(variables.map((row) => row.variable_set_id));
    for (const [setId, list] of patched.variablesBySet)
      if (list.some((variable) => touched.has(variable.id))) touchedSets.add(setId);
    for (const setId of touchedSets) {
      const kept = (patched.variablesBySet.get(setId) ?? []).filter((variable) => !touched.has(variable.id));
      patched.variablesBySet.set(setId, kept);
    }
    addVariables(patched, { variables, values }, await secrets.forSealed(rows, values));
    for (const setId of touchedSets) patched.variablesBySet.get(setId)?.sort((a, b) => a.id - b.id);
    return patched;
  });
}

/** A snapshot while it is made. */
interface Mutable extends Omit<LibrarySnapshot, 'variablesBySet' | 'valuesByVariable'> {
  variablesBySet: Map<number, SnapshotVariable[]>;
  valuesByVariable: Map<number, SnapshotValue[]>;
}

/** Puts variables with their values (rows in id order, sealed ones opened with `cipher`) into a snapshot being made, after those it holds. */
function addVariables(
  snapshot: Mutable,
  rows: { variables: VariableRow[]; values: ValueRow[] },
  cipher: ValueCipher | undefined,
): void {
  const typeOf = new Map<number, VariableType>();
  const variablesBySet = new Map<number, SnapshotVariable[]>();
  for (const row of rows.variables) {
    typeOf.set(row.id, row.type);
    listIn(variablesBySet, row.variable_set_id).push({
      id: row.id,
      setId: row.variable_set_id,
      name: row.name,
      type: row.type,
      sensitive: row.sensitive,
    });
  }
  const tagLists = new Map<string, readonly number[]>();
  const valuesByVariable = new Map<number, SnapshotValue[]>();
  for (const row of rows.values) {
    listIn(valuesByVariable, row.variable_id).push({
      id: row.id,
      variableId: row.variable_id,
      tagIds: sharedTagList(tagLists, row.tag_ids),
      text: valueText(typeOf.get(row.variable_id)!, storedOfRow(row, cipher)),
      hint: row.hint,
      hash: row.hash,
    });
  }
  // concat makes each list at its length: one grown by push keeps room for more (17 places for 5).
  for (const [setId, list] of variablesBySet)
    snapshot.variablesBySet.set(setId, (snapshot.variablesBySet.get(setId) ?? []).concat(list));
  for (const [variableId, list] of valuesByVariable)
    snapshot.valuesByVariable.set(variableId, (snapshot.valuesByVariable.get(variableId) ?? []).concat(list));
}

const NO_TAGS: readonly number[] = Object.freeze([]);

/** The one list of tag ids for `3,7,12` (null: none) among those of one snapshot being made. */
function sharedTagList(lists: Map<string, readonly number[]>, tagIds: string | null): readonly number[] {
  if (tagIds === null) return NO_TAGS;
  let list = lists.get(tagIds);
  if (!list) lists.set(tagIds, (list = Object.freeze(tagIds.split(',').map(Number))));
  return list;
}

/** The list kept under `key`, made empty the first time. */
function listIn<T>(lists: Map<number, T[]>, key: number): T[] {
  let list = lists.get(key);
  if (!list) lists.set(key, (list = []));
  return list;
}
