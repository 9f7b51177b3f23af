import { z } from 'zod';
import { booleanInput, integerInput } from '../../../platform/http/query-schemas.js';
import { MAX_POSTGRES_INTEGER } from '../../../platform/db/postgres-integer.js';
import { tagView } from '../tag-groups/tag-group.schemas.js';

/** A repeated query parameter: one value is a list of one. */
export const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value): unknown[] => (value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value]),
    z.array(item),
  );

/** GET /variablevalues (spec 4.1 "Variable values (consumption)"). */
export const variableValuesQuery = z.object({
  set: repeated(integerInput(1, MAX_POSTGRES_INTEGER))
    .pipe(z.array(z.number()).min(1, 'at least one set is needed').max(100))
    .describe('A library set id; repeat it for several. Their ancestors are followed to the root.')
    .meta({ type: 'array', items: { type: 'integer' } }),
  tag: repeated(z.string().max(401))
    .pipe(z.array(z.string()).max(100))
    .describe(
      'Group/Tag (group without regard to case, tag with it); repeat it for several. An unknown tag matches nothing.',
    )
    .meta({ type: 'array', items: { type: 'string' } }),
});
export type VariableValuesQuery = z.output<typeof variableValuesQuery>;

/** GET /variablevalues/preview: the same, and whether to substitute. */
export const previewQuery = variableValuesQuery.extend({
  substitute: booleanInput.default(true).describe('false: the winners as stored, no @[Name] replaced.'),
});
export type PreviewQuery = z.output<typeof previewQuery>;

export const flatValuesView = z
  .object({
    total: z.number().int().describe('How many items.'),
    items: z
      .record(z.string(), z.string())
      .describe(
        'Variable name to value: a Number as JavaScript writes it, a Boolean true or false, a secret the caller may not read its hint.',
      ),
  })
  .meta({ id: 'VariableValues' });

export const previewItemView = z
  .object({
    id: z.number().int().describe('The winning value.'),
    value: z
      .string()
      .describe('Its text (a Number or Boolean written out); empty when a secret the caller may not read.'),
    sensitive: z.boolean().describe('Stored sensitive, or embedding a secret through a reference.'),
    hint: z.string().nullable(),
    hash: z.string().nullable(),
    tags: z.array(tagView),
  })
  .meta({ id: 'PreviewValue' });
export type PreviewItemView = z.output<typeof previewItemView>;

export const previewView = z
  .object({ total: z.number().int(), items: z.record(z.string(), previewItemView) })
  .meta({ id: 'VariableValuesPreview' });
export type PreviewView = z.output<typeof previewView>;

/** The gateway's resolve(sets, tags, substitute): the preview's query under GraphQL's names. */
export const resolveArgs = z.object({
  sets: variableValuesQuery.shape.set,
  tags: variableValuesQuery.shape.tag,
  substitute: z.boolean(),
});
