import { pageQuery, PageArgs } from '../../../platform/graphql/page-type.js';
import type { GraphQLContext } from '../../../platform/graphql/subgraph.js';
import {
  Arg,
  Args,
  Ctx,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
} from '../../../platform/graphql/type-graphql.js';
import { withoutNulls } from '../../../platform/graphql/without-nulls.js';
import { parseInput } from '../../../platform/http/validation.js';
import { groupBody, groupIdParams, groupMembersBody, groupUpdateBody } from './group.schemas.js';
import type { GroupService } from './group.service.js';
import { GroupInput, GroupPageType, GroupType, GroupUpdateInput, PermissionType } from './group.types.js';
import { permissionCatalogue } from './permission-catalogue.js';

/** Groups and the permission catalogue through GraphQL: one line each over GroupService. */
@Resolver()
export class GroupResolver {
  constructor(private readonly service: GroupService) {}

  @Query(() => GroupPageType, { description: 'UserList.' })
  groups(@Args(() => PageArgs) page: PageArgs, @Ctx() { caller }: GraphQLContext) {
    return this.service.list(caller, pageQuery(page));
  }

  @Query(() => GroupType, { description: 'UserRead.' })
  group(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    return this.service.get(caller, parseInput(groupIdParams, { id }, 'args').id);
  }

  @Query(() => [PermissionType], { description: 'Any session: the permission catalogue.' })
  permissions(@Ctx() { caller }: GraphQLContext) {
    return permissionCatalogue(caller).permissions;
  }

  @Mutation(() => GroupType, { description: 'UserCreate plus the grant check.' })
  createGroup(@Arg('input', () => GroupInput) input: GroupInput, @Ctx() { caller }: GraphQLContext) {
    return this.service.create(caller, parseInput(groupBody, withoutNulls(input), 'args.input'));
  }

  @Mutation(() => GroupType, { description: 'UserUpdate plus the grant check.' })
  updateGroup(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => GroupUpdateInput) input: GroupUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    const groupId = parseInput(groupIdParams, { id }, 'args').id;
    return this.service.update(
      caller,
      groupId,
      parseInput(groupUpdateBody, withoutNulls(input), 'args.input'),
    );
  }

  @Mutation(() => GroupType, { description: 'UserDelete; answers the removed group.' })
  deleteGroup(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    return this.service.remove(caller, parseInput(groupIdParams, { id }, 'args').id);
  }

  @Mutation(() => GroupType, { description: "UserUpdate, no grant check: the group's whole membership." })
  setGroupMembers(
    @Arg('id', () => Int) id: number,
    @Arg('userIds', () => [ID]) userIds: string[],
    @Ctx() { caller }: GraphQLContext,
  ) {
    const groupId = parseInput(groupIdParams, { id }, 'args').id;
    return this.service.setMembers(
      caller,
      groupId,
      parseInput(groupMembersBody, { userIds }, 'args').userIds,
    );
  }
}
