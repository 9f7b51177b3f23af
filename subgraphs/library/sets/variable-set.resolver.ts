import { pageQuery, PageArgs } from '../../../platform/graphql/page-type.js';
import type { GraphQLContext } from '../../../platform/graphql/subgraph.js';
import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from '../../../platform/graphql/type-graphql.js';
import { withoutNulls } from '../../../platform/graphql/without-nulls.js';
import { parseInput } from '../../../platform/http/validation.js';
import { libraryIdParams } from '../tag-groups/tag-group.schemas.js';
import { variableSetBody, variableSetUpdateBody } from './variable-set.schemas.js';
import type { VariableSetService } from './variable-set.service.js';
import {
  VariableSetInput,
  VariableSetPageType,
  VariableSetType,
  VariableSetUpdateInput,
} from './variable-set.types.js';

const idOf = (id: number) => parseInput(libraryIdParams, { id }, 'args').id;

/** Null for the parent means "none"; null for any other field means "left out", as REST leaves it out. */
function setInput(input: VariableSetInput | VariableSetUpdateInput): Record<string, unknown> {
  return {
    ...withoutNulls(input),
    ...(input.parentVariableSetId === null ? { parentVariableSetId: null } : {}),
  };
}

/** Library sets through GraphQL: one line each over VariableSetService, arguments parsed as REST parses them. */
@Resolver()
export class VariableSetResolver {
  constructor(private readonly sets: VariableSetService) {}

  @Query(() => VariableSetPageType, { description: 'VariableList; a restricted one lists only its sets.' })
  variableSets(@Args(() => PageArgs) page: PageArgs, @Ctx() { caller }: GraphQLContext) {
    return this.sets.list(caller, pageQuery(page));
  }

  @Query(() => VariableSetType, {
    description: 'VariableRead for the set; with its variables; costs VariableGetCost.',
  })
  variableSet(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    return this.sets.get(caller, idOf(id));
  }

  @Mutation(() => VariableSetType, { description: 'VariableCreate (unrestricted).' })
  createVariableSet(
    @Arg('input', () => VariableSetInput) input: VariableSetInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.sets.create(caller, parseInput(variableSetBody, setInput(input), 'args.input'));
  }

  @Mutation(() => VariableSetType, { description: 'VariableUpdate for the set.' })
  updateVariableSet(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => VariableSetUpdateInput) input: VariableSetUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.sets.update(
      caller,
      idOf(id),
      parseInput(variableSetUpdateBody, setInput(input), 'args.input'),
    );
  }

  @Mutation(() => VariableSetType, {
    description: 'VariableDelete for the set; CONFLICT while it is a parent. Answers the removed set.',
  })
  deleteVariableSet(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    return this.sets.remove(caller, idOf(id));
  }
}
