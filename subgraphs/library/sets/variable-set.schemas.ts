import { z } from 'zod';
import { pageSchema } from '../../../platform/http/query-schemas.js';
import { descriptionField, nameField, stampFields, versionField } from '../library-views.js';
import { variableView } from '../variables/variable.schemas.js';

const parent = z
  .number()
  .int()
  .positive()
  .nullable()
  .describe(
    'The parent library set, whose variables this set inherits; null for none. A set may not be its own ancestor (400).',
  );

/** How an import file names a set as a parent (decisions "Set slugs"). */
export const slugField = z
  .string()
  .min(1, 'a slug is not empty')
  .max(200)
  .regex(/^[^\s/]+$/, 'a slug has no spaces and no "/"');

/** POST /variablesets (spec 4.1): name, description, optionally parentVariableSetId. */
export const variableSetBody = z.object({
  name: nameField('library set'),
  slug: slugField
    .optional()
    .describe(
      "How an import file names this set as a parent; set once. Left out: the name's (lower case, hyphens), numbered if taken. Another set's slug is 409.",
    ),
  description: descriptionField.default(''),
  parentVariableSetId: parent.default(null),
});
export type VariableSetBody = z.output<typeof variableSetBody>;

/** PUT /variablesets/{id}: a field left out keeps its stored value; null takes the parent away. */
export const variableSetUpdateBody = z.object({
  name: nameField('library set').optional(),
  description: descriptionField.optional(),
  parentVariableSetId: parent.optional(),
  version: versionField,
});
export type VariableSetUpdateBody = z.output<typeof variableSetUpdateBody>;

const setFields = {
  id: z.number().int(),
  name: z.string(),
  slug: z
    .string()
    .describe('How an import file names this set as a parent; unique in the organization, set once.'),
  description: z.string(),
  parentVariableSetId: z.number().int().nullable(),
  ...stampFields,
};

/** A set in a list: without its variables. */
export const variableSetView = z.object(setFields).meta({ id: 'VariableSet' });
export type VariableSetView = z.output<typeof variableSetView>;
export const variableSetPage = pageSchema(variableSetView, 'VariableSetPage');

/** A set read alone (and the answer to its PUT): with its variables and their values, secrets withheld as for any read. */
export const variableSetDetailView = z
  .object({ ...setFields, variables: z.array(variableView).describe('By name.') })
  .meta({ id: 'VariableSetWithVariables' });
export type VariableSetDetailView = z.output<typeof variableSetDetailView>;
