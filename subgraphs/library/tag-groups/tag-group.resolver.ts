import { pageQuery, PageArgs } from '../../../platform/graphql/page-type.js';
import type { GraphQLContext } from '../../../platform/graphql/subgraph.js';
import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from '../../../platform/graphql/type-graphql.js';
import { withoutNulls } from '../../../platform/graphql/without-nulls.js';
import { parseInput } from '../../../platform/http/validation.js';
import {
  libraryIdParams,
  tagBody,
  tagGroupBody,
  tagGroupUpdateBody,
  tagUpdateBody,
} from './tag-group.schemas.js';
import type { TagGroupService } from './tag-group.service.js';
import {
  TagGroupInput,
  TagGroupPageType,
  TagGroupType,
  TagGroupUpdateInput,
  TagInput,
  TagPageType,
  TagType,
  TagUpdateInput,
} from './tag-group.types.js';
import type { TagService } from './tag.service.js';

const idOf = (id: number) => parseInput(libraryIdParams, { id }, 'args').id;

/** Tag groups and tags through GraphQL: one line each over their services, arguments parsed as REST parses them. */
@Resolver()
export class TagGroupResolver {
  constructor(
    private readonly groups: TagGroupService,
    private readonly tagService: TagService,
  ) {}

  @Query(() => TagGroupPageType, { description: 'TagGroupList.' })
  tagGroups(@Args(() => PageArgs) page: PageArgs, @Ctx() { caller }: GraphQLContext) {
    return this.groups.list(caller, pageQuery(page));
  }

  @Query(() => TagGroupType, { description: 'TagGroupRead.' })
  tagGroup(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    return this.groups.get(caller, idOf(id));
  }

  @Query(() => TagPageType, { description: 'TagList.' })
  tags(@Args(() => PageArgs) page: PageArgs, @Ctx() { caller }: GraphQLContext) {
    return this.tagService.list(caller, pageQuery(page));
  }

  @Query(() => TagType, { description: 'TagRead.' })
  tag(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    return this.tagService.get(caller, idOf(id));
  }

  @Mutation(() => TagGroupType, { description: 'TagGroupCreate.' })
  createTagGroup(@Arg('input', () => TagGroupInput) input: TagGroupInput, @Ctx() { caller }: GraphQLContext) {
    return this.groups.create(caller, parseInput(tagGroupBody, withoutNulls(input), 'args.input'));
  }

  @Mutation(() => TagGroupType, { description: 'TagGroupUpdate.' })
  updateTagGroup(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => TagGroupUpdateInput) input: TagGroupUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.groups.update(
      caller,
      idOf(id),
      parseInput(tagGroupUpdateBody, withoutNulls(input), 'args.input'),
    );
  }

  @Mutation(() => TagGroupType, {
    description: 'TagGroupDelete; its tags go with it. Answers the removed group.',
  })
  deleteTagGroup(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    return this.groups.remove(caller, idOf(id));
  }

  @Mutation(() => TagType, { description: 'TagCreate.' })
  createTag(@Arg('input', () => TagInput) input: TagInput, @Ctx() { caller }: GraphQLContext) {
    return this.tagService.create(caller, parseInput(tagBody, input, 'args.input'));
  }

  @Mutation(() => TagType, { description: 'TagUpdate.' })
  updateTag(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => TagUpdateInput) input: TagUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.tagService.update(
      caller,
      idOf(id),
      parseInput(tagUpdateBody, withoutNulls(input), 'args.input'),
    );
  }

  @Mutation(() => TagType, { description: 'TagDelete. Answers the removed tag.' })
  deleteTag(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    return this.tagService.remove(caller, idOf(id));
  }
}
