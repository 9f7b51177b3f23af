import { ArgsType, Field, Int, registerEnumType } from '../../../platform/graphql/type-graphql.js';
import { SECRET_EXPORT_OPTIONS, type SecretExportOption } from '../domain/library-export.js';
import { SECRET_EXPORT_OPTION_DESCRIPTION } from './export.schemas.js';

export const SecretExportOptionEnum = Object.fromEntries(
  SECRET_EXPORT_OPTIONS.map((option) => [option, option]),
);
registerEnumType(SecretExportOptionEnum, {
  name: 'SecretExportOption',
  description: SECRET_EXPORT_OPTION_DESCRIPTION,
});

/** exportLibrary's arguments: GET /export's query under GraphQL's names. */
@ArgsType()
export class ExportArgs {
  @Field(() => [Int], { nullable: true, description: 'Tag groups to write, with all their tags. Free.' })
  tagGroupIds?: number[] | null;

  @Field(() => [Int], {
    nullable: true,
    description:
      'Library sets to write, with their variables and values as stored; each costs VariableGetCost. A parent is written only when named too.',
  })
  variableSetIds?: number[] | null;

  @Field(() => SecretExportOptionEnum, { defaultValue: 'Blank' })
  secretExportOption!: SecretExportOption;
}
