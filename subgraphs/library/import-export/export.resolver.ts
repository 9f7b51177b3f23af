import { JSONObject } from '../../../platform/graphql/json-object.js';
import type { GraphQLContext } from '../../../platform/graphql/subgraph.js';
import { Args, Ctx, Query, Resolver } from '../../../platform/graphql/type-graphql.js';
import { withoutNulls } from '../../../platform/graphql/without-nulls.js';
import { parseInput } from '../../../platform/http/validation.js';
import { exportArgs } from './export.schemas.js';
import type { ExportService } from './export.service.js';
import { ExportArgs } from './export.types.js';
import type { LibraryFile } from './library-file.schemas.js';

/** Export through GraphQL: GET /export's rules, permissions, cost and answer. */
@Resolver()
export class ExportResolver {
  constructor(private readonly service: ExportService) {}

  @Query(() => JSONObject, {
    description:
      'The named tag groups and library sets as the library file GET /export answers and POST /import takes: names sorted, values as stored, a parent only when named too. Needs BatchProcessingExport (with TagGroupRead and VariableRead), VariableRead for every set, and VariableReadSecrets for every set with secretExportOption Value. At least one id is needed; an id not in the organization is NOT_FOUND. Costs VariableGetCost per set, none per tag group.',
  })
  exportLibrary(
    @Args(() => ExportArgs) given: ExportArgs,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<LibraryFile> {
    const args = parseInput(exportArgs, withoutNulls(given), 'args');
    return this.service.export(caller, {
      tagGroupIds: args.tagGroupIds,
      variableSetIds: args.variableSetIds,
      secretExportOption: args.secretExportOption,
    });
  }
}
