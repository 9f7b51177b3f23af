import type { EntityManager } from '@mikro-orm/postgresql';
import { withConstraintErrors } from '../../../platform/db/database-errors.js';
import { BadRequestError, ConflictError, type FieldError } from '../../../platform/errors/domain-errors.js';
import type { CurrentValue, Plan, PlannedValue } from '../domain/value-plan.js';
import type { SecretMarks } from '../domain/sensitive-values.js';
import type { KnownTag } from '../domain/tag-refs.js';
import type { StoredValue } from '../domain/variable-types.js';
import type { ValueCipher } from '../secrets/value-cipher.js';
import { TagGroup } from '../tag-groups/tag-group.entity.js';
import { Tag } from '../tag-groups/tag.entity.js';
import { ValueTag } from './value-tag.entity.js';
import { VariableValue } from './variable-value.entity.js';

/** Every tag of `em`'s organization with its group's name, to match what a write names against. */
export async function knownTags(em: EntityManager): Promise<KnownTag[]> {
  // One after the other: a transaction's connection runs one query at a time.
  const groups = await em.find(TagGroup, {});
  const tags = await em.find(Tag, {});
  const groupName = new Map(groups.map((group) => [group.id, group.name]));
  return tags.map((tag) => ({ id: tag.id, name: tag.name, groupName: groupName.get(tag.tagGroupId) ?? '' }));
}

/**
 * A value as written, from its row: its plain columns, or what its sealed column holds (opened
 * with its organization's data key, which a sealed value needs).
 */
export function storedOf(
  variableId: number,
  row: {
    value?: string | null;
    numberValue?: number | null;
    booleanValue?: boolean | null;
    sealedValue?: Uint8Array | null;
  },
  cipher: ValueCipher | undefined,
): StoredValue {
  if (row.sealedValue) {
    if (!cipher) throw new Error(`a sealed value of variable ${variableId} was read without its data key`);
    return cipher.open(variableId, row.sealedValue);
  }
  return {
    value: row.value ?? null,
    numberValue: row.numberValue ?? null,
    booleanValue: row.booleanValue ?? null,
  };
}

/** A value's row as raw SQL reads it (the read path's snapshot, the export): `STORED_VALUE_COLUMNS`. */
export interface StoredValueRow {
  id: number;
  variable_id: number;
  value: string | null;
  number_value: number | null;
  boolean_value: boolean | null;
  sealed_value: Uint8Array | null;
  hint: string | null;
  hash: string | null;
}

/** The columns of a StoredValueRow, of the `variable_value` table aliased `value`. */
export const STORED_VALUE_COLUMNS = `value.id, value.variable_id, value.value, value.number_value,
  value.boolean_value, value.sealed_value, value.hint, value.hash`;

/** `storedOf` for a row read with raw SQL. */
export function storedOfRow(row: StoredValueRow, cipher: ValueCipher | undefined): StoredValue {
  return storedOf(
    row.variable_id,
    {
      value: row.value,
      numberValue: row.number_value,
      booleanValue: row.boolean_value,
      sealedValue: row.sealed_value,
    },
    cipher,
  );
}

/**
 * A variable's stored values with their tags, by id, as written: a sensitive variable's opened
 * with `cipher` (its organization's data key, taken for the write: DataKeys.forWriting).
 */
export async function currentValues(
  em: EntityManager,
  variableId: number,
  cipher: ValueCipher | undefined,
): Promise<CurrentValue[]> {
  const values = await em.find(
    VariableValue,
    { variableId },
    { orderBy: { id: 'asc' }, disableIdentityMap: true },
  );
  const links =
    values.length === 0 ? [] : await em.find(ValueTag, { valueId: { $in: values.map((v) => v.id) } });
  return values.map((value) => ({
    id: value.id,
    stored: storedOf(variableId, value, cipher),
    tagIds: links.filter((link) => link.valueId === value.id).map((link) => link.tagId),
  }));
}

/**
 * The values of a plan, or the 400 or 409 it answers: a value not of its type is 400 naming it
 * (`body.values[2].value`), two values with the same tags 409 naming both. The message never
 * holds a value's text: it may be a secret.
 */
export function plannedOrRefused(plan: Plan, location: string): PlannedValue[] {
  if (plan.ok) return plan.values;
  const invalid: FieldError[] = plan.problems.flatMap((problem) =>
    problem.kind === 'invalid'
      ? [{ field: `${location}[${problem.index}].${problem.field}`, message: problem.message }]
      : [],
  );
  if (invalid.length > 0) throw BadRequestError.invalidFields(invalid);
  const repeated = plan.problems.filter((problem) => problem.kind === 'repeated');
  throw new ConflictError(
    `Two values of one variable have the same tags: ${repeated
      .map((r) => `${location}[${r.index}] repeats ${location}[${r.first}]`)
      .join('; ')}. A variable has one value per tag combination, and one untagged default.`,
    {
      errors: repeated.map((r) => ({
        field: `${location}[${r.index}]`,
        message: `has the same tags as ${location}[${r.first}]`,
      })),
    },
  );
}

/**
 * What a value's row holds: the field of its type, or, for a sensitive value (one with a hint and
 * hash), the value sealed under its organization's data key, its plain fields empty (decisions
 * "Secrets at rest"). The one place value columns are written from, so no secret is written plain.
 */
export function valueColumns(
  variableId: number,
  value: { stored: StoredValue; marks: SecretMarks | null },
  cipher: ValueCipher | undefined,
) {
  if (!value.marks) {
    return {
      value: value.stored.value,
      numberValue: value.stored.numberValue,
      booleanValue: value.stored.booleanValue,
      sealedValue: null,
      hint: null,
      hash: null,
    };
  }
  if (!cipher)
    throw new Error(`a sensitive value of variable ${variableId} was to be written without its data key`);
  return {
    value: null,
    numberValue: null,
    booleanValue: null,
    sealedValue: cipher.seal(variableId, value.stored),
    hint: value.marks.hint,
    hash: value.marks.hash,
  };
}

/**
 * Makes a variable's stored values the planned ones: kept values are changed in place (their ids
 * stay), new ones inserted, the rest deleted (their tag links go with them). Sensitive ones are
 * sealed with `cipher`, taken before any value row is touched.
 */
export async function storeValues(
  em: EntityManager,
  organizationId: string,
  variableId: number,
  planned: readonly PlannedValue[],
  current: readonly CurrentValue[],
  cipher: ValueCipher | undefined,
): Promise<void> {
  const kept = new Set(planned.flatMap((value) => (value.keepId === undefined ? [] : [value.keepId])));
  const removed = current.filter((value) => !kept.has(value.id)).map((value) => value.id);
  if (removed.length > 0) await em.nativeDelete(VariableValue, { id: { $in: removed } });
  // Kept values are updated one after the other: a transaction's connection runs one query at a time.
  const rows: (VariableValue | undefined)[] = [];
  for (const value of planned) {
    if (value.keepId === undefined) {
      rows.push(
        em.create(VariableValue, { organizationId, variableId, ...valueColumns(variableId, value, cipher) }),
      );
    } else {
      await em.nativeUpdate(VariableValue, { id: value.keepId }, valueColumns(variableId, value, cipher));
      rows.push(undefined);
    }
  }
  await em.flush();
  const ids = planned.map((value, index) => value.keepId ?? rows[index]!.id);
  if (kept.size > 0) await em.nativeDelete(ValueTag, { valueId: { $in: [...kept] } });
  const links = planned.flatMap((value, index) =>
    value.tagIds.map((tagId) => ({ valueId: ids[index]!, tagId, organizationId })),
  );
  if (links.length > 0) {
    await withConstraintErrors(() => em.insertMany(ValueTag, links), {
      // A tag deleted while this write found it: the write is refused whole, and can be sent again.
      foreignKey: () => new ConflictError('A tag these values name was deleted meanwhile; send them again.'),
    });
  }
}
