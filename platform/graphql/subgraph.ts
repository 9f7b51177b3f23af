import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { expressMiddleware } from '@as-integrations/express5';
import type { RequestHandler } from 'express';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Caller } from '../auth/caller.js';
import { readSessionToken } from '../auth/token-reader.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { UnauthorizedError } from '../errors/domain-errors.js';
import { formatGraphQLError } from '../errors/graphql-errors.js';
import type { Logger } from '../logging/logger.js';

/** What every resolver receives: the caller from the forwarded session token, if any. */
export interface GraphQLContext {
  caller: Caller | undefined;
}

export interface SubgraphDefinition {
  typeDefs: DocumentNode;
  resolvers: GraphQLResolverMap<GraphQLContext>;
}

export function buildSubgraph(definition: SubgraphDefinition): GraphQLSchema {
  // Apollo types the map with an unknown context; ours always receives a GraphQLContext.
  const resolvers = definition.resolvers as GraphQLResolverMap<unknown>;
  return buildSubgraphSchema({ typeDefs: definition.typeDefs, resolvers });
}

/**
 * Serves a subgraph at `/graphql`. The token comes from `x-svc-auth` (header, then cookie),
 * which the gateway forwards; a missing or invalid one leaves the caller empty, and each
 * resolver's service call answers UNAUTHENTICATED where a caller is needed.
 */
export async function subgraphMiddleware(
  definition: SubgraphDefinition,
  verifier: TokenVerifier,
  logger: Logger,
): Promise<{ handler: RequestHandler; stop: () => Promise<void> }> {
  const server = new ApolloServer<GraphQLContext>({
    schema: buildSubgraph(definition),
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) => formatGraphQLError(formatted, error, logger),
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginInlineTraceDisabled()],
  });
  await server.start();
  const handler = expressMiddleware(server, {
    context: async ({ req }) => {
      const token = readSessionToken(req.headers);
      if (!token) return { caller: undefined };
      try {
        return { caller: await verifier.verify(token) };
      } catch (error) {
        if (error instanceof UnauthorizedError) return { caller: undefined };
        throw error;
      }
    },
  });
  return { handler, stop: () => server.stop() };
}
