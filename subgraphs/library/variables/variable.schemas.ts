import { z } from 'zod';
import { integerInput, listQuery, pageSchema } from '../../../platform/http/query-schemas.js';
import { VARIABLE_TYPES } from '../domain/variable-types.js';
import { tagView } from '../tag-groups/tag-group.schemas.js';
import { nameField, stampFields, versionField } from '../library-views.js';

/**
 * A variable's name: what `@[Name]` refers to, so it holds no brackets (it could never be
 * referred to), nor spaces around it.
 */
export const variableName = nameField('variable').refine((name) => !/[[\]]/.test(name), {
  message: 'cannot hold "[" or "]": a value refers to a variable as @[Name]',
});

const tagRef = z.union([z.number().int(), z.string().max(401)]);

/** One value of a variable as written (spec 4.1 "Variable write body"). */
export const valueInput = z
  .object({
    id: z
      .number()
      .int()
      .optional()
      .describe(
        'On PUT, the id of a stored value of this variable to keep (and change); left out: a new value, or the stored one with the same tags.',
      ),
    value: z.string().max(100_000).nullable().optional().describe('String, Multiline, Json and Certificate.'),
    numberValue: z.number().nullable().optional().describe('Number.'),
    booleanValue: z.boolean().nullable().optional().describe('Boolean.'),
    sensitive: z
      .boolean()
      .optional()
      .describe(
        'A property of the variable: true makes the whole variable sensitive (as its sensitive field would); false changes nothing.',
      ),
    tags: z
      .array(tagRef)
      .max(100)
      .default([])
      .describe(
        'Group/Tag names (group without regard to case, tag with it) or tag ids, mixed; one that names nothing is skipped. None: the default value.',
      ),
  })
  .meta({ id: 'VariableValueInput' });
export type ValueInput = z.output<typeof valueInput>;

const values = z.array(valueInput).max(1000);

/** POST /variables (spec 4.1). */
export const variableBody = z.object({
  name: variableName,
  variableSetId: z.number().int().positive().describe('A library set of the organization.'),
  type: z.enum(VARIABLE_TYPES).default('String'),
  sensitive: z
    .boolean()
    .default(false)
    .describe(
      'Sensitive values are withheld from callers without VariableReadSecrets. A Boolean is never sensitive.',
    ),
  values: values.default([]),
});
export type VariableBody = z.output<typeof variableBody>;

/** PUT /variables/{id}: a field left out keeps its stored value; `values`, when sent, is the whole list. */
export const variableUpdateBody = z.object({
  name: variableName.optional(),
  variableSetId: z.number().int().positive().optional().describe('Moves the variable to another set.'),
  type: z
    .enum(VARIABLE_TYPES)
    .optional()
    .describe(
      'Any type but Boolean switches to any other but Boolean; the values are converted, or the PUT is 400 naming the one that cannot be.',
    ),
  sensitive: z.boolean().optional().describe('Only from false to true: true to false is 409.'),
  values: values.optional(),
  version: versionField,
});
export type VariableUpdateBody = z.output<typeof variableUpdateBody>;

export const variableListQuery = listQuery.extend({
  variableSetId: integerInput(1, 2_147_483_647).optional().describe('Only the variables of this set.'),
});
export type VariableListQuery = z.output<typeof variableListQuery>;

/** A value as answered: a sensitive one to a caller without VariableReadSecrets has an empty value (spec 2). */
export const valueView = z
  .object({
    id: z.number().int(),
    value: z.string().nullable().describe('Empty ("") for a sensitive value withheld from the caller.'),
    numberValue: z.number().nullable(),
    booleanValue: z.boolean().nullable(),
    sensitive: z.boolean(),
    hint: z.string().nullable().describe('Sensitive values only.'),
    hash: z
      .string()
      .nullable()
      .describe('Sensitive values only: SHA-256 of the value salted with the organization, 64 hex digits.'),
    tags: z.array(tagView),
  })
  .meta({ id: 'VariableValue' });
export type ValueView = z.output<typeof valueView>;

export const variableView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    variableSetId: z.number().int(),
    type: z.enum(VARIABLE_TYPES),
    sensitive: z.boolean(),
    values: z.array(valueView).describe('Ordered by value id.'),
    ...stampFields,
  })
  .meta({ id: 'Variable' });
export type VariableView = z.output<typeof variableView>;
export const variablePage = pageSchema(variableView, 'VariablePage');
