import { BatchLoader, perRequest } from '../../platform/graphql/batch-loader.js';
import type { GraphQLContext, SubgraphClasses, SubgraphDefinition } from '../../platform/graphql/subgraph.js';
import type { AccountServices } from './account-services.js';
import { ApiKeyResolver } from './api-keys/api-key.resolver.js';
import { GroupResolver } from './groups/group.resolver.js';
import { OrganizationResolver } from './organizations/organization.resolver.js';
import type { ShownOrganizationView } from './organizations/organization.views.js';
import { UserResolver } from './users/user.resolver.js';
import type { ShownUserView } from './users/user.views.js';

/**
 * The account subgraph: the same operations as the REST facade's organization, user, group,
 * permission and own-key paths, with the same checks. User and Organization are entities
 * other subgraphs reference. The service-to-service paths (provisioning, key lookup,
 * permissions for renewal, the payment webhook) are REST only.
 */
export const ACCOUNT_SUBGRAPH: SubgraphClasses = {
  resolvers: [OrganizationResolver, UserResolver, GroupResolver, ApiKeyResolver],
};

export function accountSubgraph(services: AccountServices): SubgraphDefinition {
  const users = perRequest(
    (context: GraphQLContext) =>
      new BatchLoader<string, ShownUserView>((ids) => services.users.referenced(context.caller, ids)),
  );
  const organizations = perRequest(
    (context: GraphQLContext) =>
      new BatchLoader<string, ShownOrganizationView>((ids) =>
        services.organizations.referenced(context.caller, ids),
      ),
  );
  return {
    classes: ACCOUNT_SUBGRAPH,
    instances: [
      new OrganizationResolver(services.organizations),
      new UserResolver(services.users),
      new GroupResolver(services.groups),
      new ApiKeyResolver(services.apiKeys),
    ],
    references: {
      User: (reference, context) => users(context).load(reference.id),
      Organization: (reference, context) => organizations(context).load(reference.id),
    },
  };
}
