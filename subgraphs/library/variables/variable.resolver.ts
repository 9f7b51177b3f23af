import { PageArgs } from '../../../platform/graphql/page-type.js';
import type { GraphQLContext } from '../../../platform/graphql/subgraph.js';
import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from '../../../platform/graphql/type-graphql.js';
import { withoutNulls } from '../../../platform/graphql/without-nulls.js';
import { parseInput } from '../../../platform/http/validation.js';
import { libraryIdParams } from '../tag-groups/tag-group.schemas.js';
import { variableBody, variableListQuery, variableUpdateBody } from './variable.schemas.js';
import type { VariableService } from './variable.service.js';
import {
  VariableInput,
  VariableObjectType,
  VariablePageType,
  VariableUpdateInput,
  type VariableValueInput,
} from './variable.types.js';

const idOf = (id: number) => parseInput(libraryIdParams, { id }, 'args').id;

/** A GraphQL input as the REST body: a value's tags by name and by id are one list, as REST mixes them. */
function variableInput(input: VariableInput | VariableUpdateInput): Record<string, unknown> {
  const { values, ...rest } = withoutNulls(input) as { values?: VariableValueInput[] };
  return {
    ...rest,
    ...(values === undefined
      ? {}
      : {
          values: values.map(({ tags, tagIds, ...value }) => ({
            ...withoutNulls(value),
            tags: [...(tagIds ?? []), ...(tags ?? [])],
          })),
        }),
  };
}

/** Variables through GraphQL: one line each over VariableService, arguments parsed as REST parses them. */
@Resolver()
export class VariableResolver {
  constructor(private readonly service: VariableService) {}

  @Query(() => VariablePageType, {
    description: 'VariableList; a restricted one lists only the variables of its sets.',
  })
  variables(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('variableSetId', () => Int, { nullable: true }) variableSetId: number | null,
    @Ctx() { caller }: GraphQLContext,
  ) {
    const query = {
      take: page.take ?? undefined,
      skip: page.skip ?? undefined,
      variableSetId: variableSetId ?? undefined,
    };
    return this.service.list(caller, parseInput(variableListQuery, query, 'args'));
  }

  @Query(() => VariableObjectType, { description: 'VariableRead for its set; costs VariableGetCost.' })
  variable(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    return this.service.get(caller, idOf(id));
  }

  @Mutation(() => VariableObjectType, { description: 'VariableCreate for the set.' })
  createVariable(@Arg('input', () => VariableInput) input: VariableInput, @Ctx() { caller }: GraphQLContext) {
    return this.service.create(caller, parseInput(variableBody, variableInput(input), 'args.input'));
  }

  @Mutation(() => VariableObjectType, { description: 'VariableUpdate for its set.' })
  updateVariable(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => VariableUpdateInput) input: VariableUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.service.update(
      caller,
      idOf(id),
      parseInput(variableUpdateBody, variableInput(input), 'args.input'),
    );
  }

  @Mutation(() => VariableObjectType, {
    description: 'VariableDelete for its set. Answers the removed variable.',
  })
  deleteVariable(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    return this.service.remove(caller, idOf(id));
  }
}
