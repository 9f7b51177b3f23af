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
import { userIdParams } from '../users/user.schemas.js';
import { accountApiKeyParams, apiKeyCreateBody, apiKeyIdParams } from './api-key.schemas.js';
import type { ApiKeyService } from './api-key.service.js';
import { ApiKeyCreatedType, ApiKeyInput, ApiKeyPageType } from './api-key.types.js';

/** API keys through GraphQL: one line each over ApiKeyService. */
@Resolver()
export class ApiKeyResolver {
  constructor(private readonly service: ApiKeyService) {}

  @Query(() => ApiKeyPageType, { description: "Any session: the caller's keys, newest first." })
  myApiKeys(@Args(() => PageArgs) page: PageArgs, @Ctx() { caller }: GraphQLContext) {
    return this.service.listOwn(caller, pageQuery(page));
  }

  @Query(() => ApiKeyPageType, { description: "UserRead: an account's keys, newest first." })
  apiKeys(
    @Arg('userId', () => ID) userId: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.service.listFor(caller, parseInput(userIdParams, { id: userId }, 'args').id, pageQuery(page));
  }

  @Mutation(() => ApiKeyCreatedType, {
    description: 'ProfileCreateApiKey (NoExpiry also needs ProfileNeverExpiresApiKey).',
  })
  createMyApiKey(@Arg('input', () => ApiKeyInput) input: ApiKeyInput, @Ctx() { caller }: GraphQLContext) {
    return this.service.createOwn(caller, parseInput(apiKeyCreateBody, withoutNulls(input), 'args.input'));
  }

  @Mutation(() => ApiKeyCreatedType, {
    description: 'UserCreateServiceAccountApiKey; service accounts only.',
  })
  createServiceAccountApiKey(
    @Arg('userId', () => ID) userId: string,
    @Arg('input', () => ApiKeyInput) input: ApiKeyInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    const accountId = parseInput(userIdParams, { id: userId }, 'args').id;
    return this.service.createFor(
      caller,
      accountId,
      parseInput(apiKeyCreateBody, withoutNulls(input), 'args.input'),
    );
  }

  @Mutation(() => Boolean, { description: "Any session: revokes one of the caller's keys." })
  async deleteMyApiKey(@Arg('id', () => Int) id: number, @Ctx() { caller }: GraphQLContext) {
    await this.service.deleteOwn(caller, parseInput(apiKeyIdParams, { id }, 'args').id);
    return true;
  }

  @Mutation(() => Boolean, { description: "UserDelete: revokes another account's key." })
  async deleteApiKey(
    @Arg('userId', () => ID) userId: string,
    @Arg('id', () => Int) id: number,
    @Ctx() { caller }: GraphQLContext,
  ) {
    const params = parseInput(accountApiKeyParams, { id: userId, apiKeyId: id }, 'args');
    await this.service.deleteFor(caller, params.id, params.apiKeyId);
    return true;
  }
}
