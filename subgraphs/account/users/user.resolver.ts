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
import { parseInput } from '../../../platform/http/validation.js';
import { userCreateBody, userGroupsBody, userIdParams, userUpdateBody } from './user.schemas.js';
import type { UserService } from './user.service.js';
import { UserInput, UserPageType, UserType, UserUpdateInput } from './user.types.js';

/** Accounts through GraphQL: each field one line over UserService, arguments parsed as REST parses them. */
@Resolver()
export class UserResolver {
  constructor(private readonly service: UserService) {}

  @Query(() => UserType, { description: "Any session: the caller's own account." })
  me(@Ctx() { caller }: GraphQLContext) {
    return this.service.me(caller);
  }

  @Query(() => UserPageType, { description: 'UserList.' })
  users(@Args(() => PageArgs) page: PageArgs, @Ctx() { caller }: GraphQLContext) {
    return this.service.list(caller, pageQuery(page));
  }

  @Query(() => UserType, { description: 'UserRead.' })
  user(@Arg('id', () => ID) id: string, @Ctx() { caller }: GraphQLContext) {
    return this.service.get(caller, parseInput(userIdParams, { id }, 'args').id);
  }

  @Mutation(() => UserType, { description: 'UserCreate.' })
  createUser(@Arg('input', () => UserInput) input: UserInput, @Ctx() { caller }: GraphQLContext) {
    return this.service.create(caller, parseInput(userCreateBody, input, 'args.input'));
  }

  @Mutation(() => UserType, { description: 'UserUpdate.' })
  updateUser(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UserUpdateInput) input: UserUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    const userId = parseInput(userIdParams, { id }, 'args').id;
    return this.service.update(caller, userId, parseInput(userUpdateBody, input, 'args.input'));
  }

  @Mutation(() => UserType, { description: 'UserDelete; answers the removed account.' })
  deleteUser(@Arg('id', () => ID) id: string, @Ctx() { caller }: GraphQLContext) {
    return this.service.remove(caller, parseInput(userIdParams, { id }, 'args').id);
  }

  @Mutation(() => UserType, { description: "UserUpdate: the account's whole membership." })
  setUserGroups(
    @Arg('id', () => ID) id: string,
    @Arg('groupIds', () => [Int]) groupIds: number[],
    @Ctx() { caller }: GraphQLContext,
  ) {
    const userId = parseInput(userIdParams, { id }, 'args').id;
    return this.service.setGroups(caller, userId, parseInput(userGroupsBody, { groupIds }, 'args').groupIds);
  }
}
