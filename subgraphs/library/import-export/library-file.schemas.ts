import { z } from 'zod';
import { VARIABLE_TYPES } from '../domain/variable-types.js';
import { descriptionField, nameField } from '../library-views.js';
import { slugField } from '../sets/variable-set.schemas.js';
import { groupName } from '../tag-groups/tag-group.schemas.js';
import { variableName } from '../variables/variable.schemas.js';

/**
 * The library file: POST /import's body and GET /export's answer (spec 4.1 "Import"). Names are
 * the identity and no id appears. Unknown fields are refused rather than dropped: a misspelt
 * `scope` would otherwise turn a tagged value into the default one.
 */
const fileValue = z
  .strictObject({
    value: z
      .union([z.string().max(100_000), z.number(), z.boolean()])
      .describe(
        "A text for String, Multiline, Json and Certificate, a number for Number, true or false for Boolean. An export writes a withheld secret's placeholder here (see secretExportOption).",
      ),
    sensitive: z
      .boolean()
      .default(false)
      .describe('True on any value makes the variable sensitive. A Boolean is never sensitive (400).'),
    scopes: z
      .array(z.string().max(401))
      .max(100)
      .default([])
      .describe(
        'The value\'s tags as "Group/Tag" (group without regard to case, tag with it), each a tag of the file or the organization; none: the default value.',
      ),
    type: z
      .enum(VARIABLE_TYPES)
      .optional()
      .describe(
        "The variable's type, when its values do not say it (an export writes it then): without it, booleans are a Boolean, numbers a Number, texts a String (a Multiline when one holds a line break).",
      ),
  })
  .meta({ id: 'LibraryFileValue' });
export type LibraryFileValue = z.output<typeof fileValue>;

const fileSet = z
  .strictObject({
    slug: slugField
      .optional()
      .describe(
        "Only when the set is created: how parents name it. Left out: the name's (lower case, hyphens).",
      ),
    description: descriptionField.optional().describe('Only when the set is created.'),
    parent: slugField
      .optional()
      .describe('Only when the set is created: the slug of another set of the organization or of this file.'),
    variables: z
      .record(variableName, z.array(fileValue).max(1000))
      .default({})
      .describe('Variable name to its values. A set matched by name only gains the variables it lacks.'),
  })
  .meta({ id: 'LibraryFileSet' });
export type LibraryFileSet = z.output<typeof fileSet>;

export const libraryFile = z
  .strictObject({
    tagGroups: z
      .record(groupName, z.array(nameField('tag')).max(1000))
      .default({})
      .describe('Tag group name to the names of its tags.'),
    librarySets: z.record(nameField('library set'), fileSet).default({}).describe('Set name to the set.'),
  })
  .meta({ id: 'LibraryFile' });
export type LibraryFile = z.output<typeof libraryFile>;
