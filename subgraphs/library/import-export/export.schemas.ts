import { z } from 'zod';
import { integerIdInput } from '../../../platform/http/query-schemas.js';
import { SECRET_EXPORT_OPTIONS } from '../domain/library-export.js';
import { repeated } from '../resolution/resolution.schemas.js';

/** How many tag groups, and how many sets, one export may name. */
export const MAX_EXPORTED = 1000;

/** Where each secret option writes, for the OpenAPI document and the GraphQL enum alike. */
export const SECRET_EXPORT_OPTION_DESCRIPTION =
  'What each value of a sensitive variable writes in its `value` field (its `sensitive` is true, its `scopes` and `type` are written as for any value): Value the secret itself (a Number as a number; needs VariableReadSecrets for every set exported, else 403, never downgraded); Hint its hint (a text, for a Number too); Hash its hash (64 hexadecimal digits); Blank (the default) an empty text. Values of other variables are written themselves whatever the option.';

const ids = (what: string) =>
  repeated(integerIdInput())
    .pipe(z.array(z.number()).max(MAX_EXPORTED, `at most ${MAX_EXPORTED} ${what}s`))
    .meta({ type: 'array', items: { type: 'integer' } });

const secretExportOption = z.enum(SECRET_EXPORT_OPTIONS).default('Blank');

/** Spec 4.1 "Export" rule 2: neither parameter is 400. */
function atLeastOne<Groups extends string, Sets extends string>(groups: Groups, sets: Sets) {
  return (selection: Record<Groups | Sets, number[]>, context: z.RefinementCtx) => {
    if (selection[groups].length === 0 && selection[sets].length === 0) {
      context.addIssue({
        code: 'custom',
        path: [sets],
        message: `at least one ${groups} or ${sets} is needed`,
      });
    }
  };
}

/** GET /export (spec 4.1 "Export"). */
export const exportQuery = z
  .object({
    tagGroupId: ids('tag group').describe(
      'A tag group to write, with all its tags; repeat it for several. Free.',
    ),
    variableSetId: ids('library set').describe(
      'A library set to write, with its variables and their values as stored (no @[Name] replaced); repeat it for several. Each costs CreditCosts:VariableGetCost. Its parent is not written unless named too.',
    ),
    secretExportOption: secretExportOption.describe(SECRET_EXPORT_OPTION_DESCRIPTION),
  })
  .superRefine(atLeastOne('tagGroupId', 'variableSetId'));
export type ExportQuery = z.output<typeof exportQuery>;

/** The gateway's exportLibrary(tagGroupIds, variableSetIds, secretExportOption): the same rules under GraphQL's names. */
export const exportArgs = z
  .object({
    tagGroupIds: ids('tag group'),
    variableSetIds: ids('library set'),
    secretExportOption,
  })
  .superRefine(atLeastOne('tagGroupIds', 'variableSetIds'));
