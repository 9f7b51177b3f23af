import { pageQuery, PageArgs } from '../../../platform/graphql/page-type.js';
import type { GraphQLContext } from '../../../platform/graphql/subgraph.js';
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from '../../../platform/graphql/type-graphql.js';
import { parseInput } from '../../../platform/http/validation.js';
import { userIdParams } from '../users/user.schemas.js';
import { organizationBody, organizationUpdateBody, providerCheckBody } from './organization.schemas.js';
import type { OrganizationService } from './organization.service.js';
import {
  CreditBalanceType,
  IdentityProviderCheckInput,
  IdentityProviderCheckResultType,
  OrganizationInput,
  OrganizationPageType,
  OrganizationType,
  OrganizationUpdateInput,
  SignInDetailsType,
} from './organization.types.js';

/** Organizations through GraphQL: each field one line over OrganizationService, arguments parsed as REST parses them. */
@Resolver()
export class OrganizationResolver {
  constructor(private readonly service: OrganizationService) {}

  @Query(() => OrganizationPageType, { description: 'GlobalOrganizationList.' })
  organizations(@Args(() => PageArgs) page: PageArgs, @Ctx() { caller }: GraphQLContext) {
    return this.service.list(caller, pageQuery(page));
  }

  @Query(() => OrganizationType, { description: 'GlobalOrganizationRead.' })
  organization(@Arg('id', () => ID) id: string, @Ctx() { caller }: GraphQLContext) {
    return this.service.get(caller, parseInput(userIdParams, { id }, 'args').id);
  }

  @Query(() => SignInDetailsType, { description: 'Anonymous; active organizations only.' })
  signInDetails(@Arg('organizationId', () => ID) organizationId: string) {
    return this.service.signIn(parseInput(userIdParams, { id: organizationId }, 'args').id);
  }

  @Query(() => CreditBalanceType, { description: "Any session: the caller's organization's balance." })
  credits(@Ctx() { caller }: GraphQLContext) {
    return this.service.credits(caller);
  }

  @Mutation(() => OrganizationType, {
    description: 'GlobalOrganizationCreate; also creates its Administrators group.',
  })
  createOrganization(
    @Arg('input', () => OrganizationInput) input: OrganizationInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.service.create(caller, parseInput(organizationBody, input, 'args.input'));
  }

  @Mutation(() => OrganizationType, { description: 'GlobalOrganizationUpdate.' })
  updateOrganization(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => OrganizationUpdateInput) input: OrganizationUpdateInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    const organizationId = parseInput(userIdParams, { id }, 'args').id;
    return this.service.update(
      caller,
      organizationId,
      parseInput(organizationUpdateBody, input, 'args.input'),
    );
  }

  @Mutation(() => OrganizationType, {
    description: 'GlobalOrganizationDelete; answers the removed organization.',
  })
  deleteOrganization(@Arg('id', () => ID) id: string, @Ctx() { caller }: GraphQLContext) {
    return this.service.remove(caller, parseInput(userIdParams, { id }, 'args').id);
  }

  @Mutation(() => IdentityProviderCheckResultType, {
    description: 'GlobalOrganizationRead and GlobalOrganizationUpdate or GlobalOrganizationCreate.',
  })
  checkIdentityProvider(
    @Arg('input', () => IdentityProviderCheckInput) input: IdentityProviderCheckInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.service.checkProvider(caller, parseInput(providerCheckBody, input, 'args.input'));
  }
}
