import type { Caller } from '../../../platform/auth/caller.js';
import { ForbiddenError } from '../../../platform/errors/domain-errors.js';
import { BatchLoader, perRequest } from '../../../platform/graphql/batch-loader.js';
import type { GraphQLContext, SubgraphDefinition } from '../../../platform/graphql/subgraph.js';
import { listQuery } from '../../../platform/http/query-schemas.js';
import { parseInput } from '../../../platform/http/validation.js';
import { holds } from '../../../platform/permissions/authorize.js';
import type { AccountServices } from '../account-services.js';
import { permissionCatalogue } from '../groups/permission-catalogue.js';
import { accountApiKeyParams, apiKeyCreateBody, apiKeyIdParams } from '../api-keys/api-key.schemas.js';
import { groupBody, groupIdParams, groupMembersBody, groupUpdateBody } from '../groups/group.schemas.js';
import {
  organizationBody,
  organizationUpdateBody,
  providerCheckBody,
  type OrganizationView,
} from '../organizations/organization.schemas.js';
import {
  userCreateBody,
  userGroupsBody,
  userIdParams,
  userUpdateBody,
  type UserView,
} from '../users/user.schemas.js';
import { accountTypeDefs } from './account.typedefs.js';

type Args = Record<string, unknown>;

/**
 * An input object without its null fields. GraphQL lets a client send null for an optional
 * input field; where null has no meaning of its own (group and key inputs), it is read as
 * the field left out, as REST reads a missing field, rather than refused.
 */
function nullAsAbsent(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null));
}

/** Fields of a User that only UserRead (or the account itself) may see. */
function userDetail<K extends 'identities' | 'groups' | 'profileImage'>(field: K) {
  return (user: UserView, _args: Args, { caller }: GraphQLContext): UserView[K] => {
    if (caller && (holds(caller, 'UserRead') || caller.accountId === user.id)) return user[field];
    throw new ForbiddenError();
  };
}

/** Fields of an Organization beyond its public sign-in details need GlobalOrganizationRead. */
function organizationDetail<K extends keyof OrganizationView>(field: K) {
  return (organization: OrganizationView, _args: Args, { caller }: GraphQLContext): OrganizationView[K] => {
    if (holds(caller, 'GlobalOrganizationRead')) return organization[field];
    throw new ForbiddenError();
  };
}

/** Resolvers validate their arguments with the REST facade's schemas, then call the same services. */
export function accountSubgraph(services: AccountServices): SubgraphDefinition {
  const { organizations, users, groups, apiKeys } = services;
  const userLoader = perRequest(
    (context: GraphQLContext) =>
      new BatchLoader<string, UserView>((ids) => users.referenced(context.caller, ids)),
  );
  const organizationLoader = perRequest(
    (context: GraphQLContext) =>
      new BatchLoader<string, OrganizationView>((ids) => organizations.referenced(context.caller, ids)),
  );
  const page = (args: Args) =>
    parseInput(listQuery, { take: args.take ?? undefined, skip: args.skip ?? undefined }, 'args');
  const caller = (context: GraphQLContext): Caller | undefined => context.caller;

  return {
    typeDefs: accountTypeDefs,
    resolvers: {
      Query: {
        organizations: (_p, args: Args, ctx) => organizations.list(caller(ctx), page(args)),
        organization: (_p, args: Args, ctx) =>
          organizations.get(caller(ctx), parseInput(userIdParams, args, 'args').id),
        signInDetails: (_p, args: Args) =>
          organizations.signIn(parseInput(userIdParams, { id: args.organizationId }, 'args').id),
        credits: (_p, _args, ctx) => organizations.credits(caller(ctx)),
        me: (_p, _args, ctx) => users.me(caller(ctx)),
        users: (_p, args: Args, ctx) => users.list(caller(ctx), page(args)),
        user: (_p, args: Args, ctx) => users.get(caller(ctx), parseInput(userIdParams, args, 'args').id),
        groups: (_p, args: Args, ctx) => groups.list(caller(ctx), page(args)),
        group: (_p, args: Args, ctx) => groups.get(caller(ctx), parseInput(groupIdParams, args, 'args').id),
        permissions: (_p, _args, ctx) => permissionCatalogue(caller(ctx)).permissions,
        myApiKeys: (_p, args: Args, ctx) => apiKeys.listOwn(caller(ctx), page(args)),
        apiKeys: (_p, args: Args, ctx) =>
          apiKeys.listFor(caller(ctx), parseInput(userIdParams, { id: args.userId }, 'args').id, page(args)),
      },
      Mutation: {
        createOrganization: (_p, args: Args, ctx) =>
          organizations.create(caller(ctx), parseInput(organizationBody, args.input, 'args.input')),
        updateOrganization: (_p, args: Args, ctx) =>
          organizations.update(
            caller(ctx),
            parseInput(userIdParams, args, 'args').id,
            parseInput(organizationUpdateBody, args.input, 'args.input'),
          ),
        deleteOrganization: (_p, args: Args, ctx) =>
          organizations.remove(caller(ctx), parseInput(userIdParams, args, 'args').id),
        checkIdentityProvider: (_p, args: Args, ctx) =>
          organizations.checkProvider(caller(ctx), parseInput(providerCheckBody, args.input, 'args.input')),
        createUser: (_p, args: Args, ctx) =>
          users.create(caller(ctx), parseInput(userCreateBody, args.input, 'args.input')),
        updateUser: (_p, args: Args, ctx) =>
          users.update(
            caller(ctx),
            parseInput(userIdParams, args, 'args').id,
            parseInput(userUpdateBody, args.input, 'args.input'),
          ),
        deleteUser: (_p, args: Args, ctx) =>
          users.remove(caller(ctx), parseInput(userIdParams, args, 'args').id),
        setUserGroups: (_p, args: Args, ctx) =>
          users.setGroups(
            caller(ctx),
            parseInput(userIdParams, args, 'args').id,
            parseInput(userGroupsBody, args, 'args').groupIds,
          ),
        createGroup: (_p, args: Args, ctx) =>
          groups.create(caller(ctx), parseInput(groupBody, nullAsAbsent(args.input), 'args.input')),
        updateGroup: (_p, args: Args, ctx) =>
          groups.update(
            caller(ctx),
            parseInput(groupIdParams, args, 'args').id,
            parseInput(groupUpdateBody, nullAsAbsent(args.input), 'args.input'),
          ),
        deleteGroup: (_p, args: Args, ctx) =>
          groups.remove(caller(ctx), parseInput(groupIdParams, args, 'args').id),
        setGroupMembers: (_p, args: Args, ctx) =>
          groups.setMembers(
            caller(ctx),
            parseInput(groupIdParams, args, 'args').id,
            parseInput(groupMembersBody, args, 'args').userIds,
          ),
        createMyApiKey: (_p, args: Args, ctx) =>
          apiKeys.createOwn(
            caller(ctx),
            parseInput(apiKeyCreateBody, nullAsAbsent(args.input), 'args.input'),
          ),
        createServiceAccountApiKey: (_p, args: Args, ctx) =>
          apiKeys.createFor(
            caller(ctx),
            parseInput(userIdParams, { id: args.userId }, 'args').id,
            parseInput(apiKeyCreateBody, nullAsAbsent(args.input), 'args.input'),
          ),
        deleteMyApiKey: async (_p, args: Args, ctx) => {
          await apiKeys.deleteOwn(caller(ctx), parseInput(apiKeyIdParams, args, 'args').id);
          return true;
        },
        deleteApiKey: async (_p, args: Args, ctx) => {
          const { id, apiKeyId } = parseInput(
            accountApiKeyParams,
            { id: args.userId, apiKeyId: args.id },
            'args',
          );
          await apiKeys.deleteFor(caller(ctx), id, apiKeyId);
          return true;
        },
      },
      User: {
        __resolveReference: (reference: { id: string }, ctx: GraphQLContext) =>
          userLoader(ctx).load(reference.id),
        identities: userDetail('identities'),
        groups: userDetail('groups'),
        profileImage: userDetail('profileImage'),
      },
      Organization: {
        __resolveReference: (reference: { id: string }, ctx: GraphQLContext) =>
          organizationLoader(ctx).load(reference.id),
        accountPatterns: organizationDetail('accountPatterns'),
        adminEmails: organizationDetail('adminEmails'),
        additionalCredits: organizationDetail('additionalCredits'),
        usedCredits: organizationDetail('usedCredits'),
        totalCredits: organizationDetail('totalCredits'),
        pricingBand: organizationDetail('pricingBand'),
        providers: organizationDetail('providers'),
        version: organizationDetail('version'),
        createdAt: organizationDetail('createdAt'),
        updatedAt: organizationDetail('updatedAt'),
      },
    },
  };
}
