import { z } from 'zod';
import { booleanInput } from '../../../platform/http/query-schemas.js';

/** POST /import's query (spec 4.1 "Import"). */
export const importQuery = z.object({
  replaceExisting: booleanInput
    .default(false)
    .describe(
      "true empties the organization's library first (needs TagGroupDelete, TagDelete and VariableDelete too); a refused file leaves it as it was.",
    ),
});
export type ImportQuery = z.output<typeof importQuery>;

const count = z.number().int();

/** What an import did (spec 4.1 "Import" response fields). */
export const importResultView = z
  .object({
    replaced: z.boolean().describe('Whether the library was emptied first.'),
    tagGroupsCreated: count,
    tagGroupsSkipped: count,
    tagsCreated: count,
    tagsSkipped: count,
    librarySetsCreated: count,
    librarySetsSkipped: count,
    variablesCreated: count,
    variablesSkipped: count,
    valuesCreated: count,
    tagGroupsDeleted: count,
    tagsDeleted: count,
    librarySetsDeleted: count,
    variablesDeleted: count,
    valuesDeleted: count,
    notes: z.array(z.string()).describe('One per tag group, tag, set and variable the import left alone.'),
  })
  .meta({ id: 'ImportResult' });
export type ImportResultView = z.output<typeof importResultView>;
