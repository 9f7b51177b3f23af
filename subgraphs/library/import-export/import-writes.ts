import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditAuthor } from '../../../platform/audit-log/audit-log.js';
import { tagKey, type ExistingLibrary, type ImportPlan, type SetRef } from '../domain/import-plan.js';
import { VariableSet } from '../sets/variable-set.entity.js';
import { TagGroup } from '../tag-groups/tag-group.entity.js';
import { Tag } from '../tag-groups/tag.entity.js';
import type { ValueCipher } from '../secrets/value-cipher.js';
import { valueColumns } from '../variables/value-store.js';
import { ValueTag } from '../variables/value-tag.entity.js';
import { VariableValue } from '../variables/variable-value.entity.js';
import { Variable } from '../variables/variable.entity.js';

/** Rows per insert statement: well under PostgreSQL's 65,535 parameters for the widest row here. */
const ROWS_PER_INSERT = 4000;

/** Inserts rows a statement per chunk. */
async function insertAll<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  rows: readonly Partial<T>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await em.insertMany(entity, rows.slice(start, start + ROWS_PER_INSERT) as T[]);
  }
}

/**
 * Rows given their ids before they are inserted, taken from the table's own sequence, so
 * records written in bulk can be linked without reading anything back.
 */
async function insertWithIds<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  table: string,
  rows: readonly Partial<T>[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const taken = await em.execute<{ id: number }[]>(
    `select nextval(pg_get_serial_sequence(?, 'id'))::int as id from generate_series(1, ?)`,
    [`"library"."${table}"`, rows.length],
  );
  const ids = taken.map((row) => row.id);
  await insertAll(
    em,
    entity,
    rows.map((row, index) => ({ ...row, id: ids[index] })),
  );
  return ids;
}

/**
 * Writes an import's plan in the caller's transaction, a few statements per table rather than
 * one per record: groups, tags, sets a generation at a time (a parent's id is known before its
 * children are written), variables, values, their tags. New groups, sets and variables are
 * stamped version 1 by the importer, as a create would stamp them; sensitive values are sealed
 * with `cipher` (the organization's data key, taken first). Answers each written
 * variable's id with where the file holds it.
 */
export async function writePlan(
  em: EntityManager,
  writer: AuditAuthor & { organizationId: string },
  plan: ImportPlan,
  existing: ExistingLibrary,
  now: Date,
  cipher: ValueCipher | undefined,
): Promise<{ id: number; path: PropertyKey[] }[]> {
  const organizationId = writer.organizationId;
  const stamps = {
    version: 1,
    createdAt: now,
    updatedAt: now,
    createdById: writer.accountId,
    updatedById: writer.accountId,
  };
  const groupIds = await insertWithIds(
    em,
    TagGroup,
    'tag_group',
    plan.groups.map((group) => ({ organizationId, name: group.name, description: '', ...stamps })),
  );
  const newTags = [
    ...plan.groups.flatMap((group, index) =>
      group.tags.map((name) => ({ tagGroupId: groupIds[index]!, name, groupName: group.name })),
    ),
    ...plan.tags.map((tag) => ({
      ...tag,
      groupName: existing.groups.find((group) => group.id === tag.tagGroupId)!.name,
    })),
  ];
  const tagIds = await insertWithIds(
    em,
    Tag,
    'tag',
    newTags.map((tag) => ({ organizationId, tagGroupId: tag.tagGroupId, name: tag.name })),
  );
  const groupName = new Map(existing.groups.map((group) => [group.id, group.name]));
  const tagIdOf = new Map([
    ...existing.tags.map((tag) => [tagKey(groupName.get(tag.tagGroupId)!, tag.name), tag.id] as const),
    ...newTags.map((tag, index) => [tagKey(tag.groupName, tag.name), tagIds[index]!] as const),
  ]);

  const setIds = await writeSets(em, organizationId, plan, stamps);
  const setIdOf = (ref: SetRef) => ('existing' in ref ? ref.existing : setIds[ref.created]!);
  const variableIds = await insertWithIds(
    em,
    Variable,
    'variable',
    plan.variables.map((variable) => ({
      organizationId,
      variableSetId: setIdOf(variable.set),
      name: variable.name,
      type: variable.type,
      sensitive: variable.sensitive,
      ...stamps,
    })),
  );
  const values = plan.variables.flatMap((variable, index) =>
    variable.values.map((value) => ({ variableId: variableIds[index]!, value })),
  );
  const valueIds = await insertWithIds(
    em,
    VariableValue,
    'variable_value',
    values.map(({ variableId, value }) => ({
      organizationId,
      variableId,
      ...valueColumns(variableId, value, cipher),
    })),
  );
  await insertAll(
    em,
    ValueTag,
    values.flatMap(({ value }, index) =>
      value.scopes.map((key) => ({ valueId: valueIds[index]!, tagId: tagIdOf.get(key)!, organizationId })),
    ),
  );
  return plan.variables.map((variable, index) => ({ id: variableIds[index]!, path: variable.path }));
}

/** The plan's sets, a generation at a time (roots, then their children, …); their ids by plan index. */
async function writeSets(
  em: EntityManager,
  organizationId: string,
  plan: ImportPlan,
  stamps: Partial<VariableSet>,
): Promise<number[]> {
  const depth: number[] = [];
  // Parents come first in the plan, so a parent's depth is known before its children's.
  plan.sets.forEach((set, index) => {
    depth[index] = set.parent && 'created' in set.parent ? depth[set.parent.created]! + 1 : 0;
  });
  const ids: number[] = [];
  for (let generation = 0; ; generation += 1) {
    const indexes = plan.sets.flatMap((_, index) => (depth[index] === generation ? [index] : []));
    if (indexes.length === 0) return ids;
    const written = await insertWithIds(
      em,
      VariableSet,
      'variable_set',
      indexes.map((index) => {
        const set = plan.sets[index]!;
        const parent =
          set.parent && ('existing' in set.parent ? set.parent.existing : ids[set.parent.created]!);
        return {
          organizationId,
          name: set.name,
          slug: set.slug,
          description: set.description,
          parentVariableSetId: parent ?? null,
          ...stamps,
        };
      }),
    );
    indexes.forEach((index, at) => (ids[index] = written[at]!));
  }
}
