import type { GraphQLContext } from '../../../platform/graphql/subgraph.js';
import { Args, Ctx, Query, Resolver } from '../../../platform/graphql/type-graphql.js';
import { parseInput } from '../../../platform/http/validation.js';
import { resolveArgs, type PreviewView } from './resolution.schemas.js';
import type { ResolutionService } from './resolution.service.js';
import { ResolveArgs, ResolvedValuesType } from './resolution.types.js';

/** Resolution through GraphQL: GET /variablevalues/preview's rules, permissions, withholding and cost. */
@Resolver()
export class ResolutionResolver {
  constructor(private readonly resolution: ResolutionService) {}

  @Query(() => ResolvedValuesType, {
    description:
      'The winning value of each variable for the library sets (their ancestors followed to the root) and Group/Tag tags, as GET /variablevalues/preview answers it. Needs VariableRead for every set reached; costs VariablePreviewCost.',
  })
  async resolve(
    @Args(() => ResolveArgs) given: ResolveArgs,
    @Ctx() { caller }: GraphQLContext,
  ): Promise<ResolvedValuesType> {
    const args = parseInput(resolveArgs, { ...given }, 'args');
    const result = await this.resolution.read(caller, {
      sets: args.sets,
      tags: args.tags,
      preview: true,
      substitute: args.substitute,
    });
    if (result.current) throw new Error('an answer without If-None-Match is never "current"');
    // The answer is kept as the bytes REST sends; GraphQL reads them back (it is not the hot path).
    const preview = JSON.parse(result.answer.body.toString('utf8')) as PreviewView;
    const items = Object.entries(preview.items)
      .map(([name, value]) => ({ name, ...value }))
      .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
    return { total: preview.total, items };
  }
}
