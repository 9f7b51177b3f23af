import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { expressMiddleware } from '@as-integrations/express5';
import type { RequestHandler } from 'express';
import type { DocumentNode, GraphQLFieldResolver, GraphQLScalarType, GraphQLSchema } from 'graphql';
import type { Caller } from '../auth/caller.js';
import { readSessionToken } from '../auth/token-reader.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { UnauthorizedError } from '../errors/domain-errors.js';
import { formatGraphQLError } from '../errors/graphql-errors.js';
import type { Logger } from '../logging/logger.js';
import { operationLimitsPlugin } from './operation-limits.js';

/** What every resolver receives: the caller from the forwarded session token, if any. */
export interface GraphQLContext {
  caller: Caller | undefined;
}

// A field's parent is what its type's resolver answered; graphql-js types it as any too.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type FieldResolver = GraphQLFieldResolver<any, GraphQLContext>;

/** Resolvers by type and field, in the shape buildSubgraphSchema takes, with our context. */
export interface SubgraphResolverMap {
  [typeName: string]:
    | { [fieldName: string]: FieldResolver | { requires?: string; resolve?: FieldResolver } }
    | GraphQLScalarType
    | { [enumValue: string]: string | number };
}

/** The resolver map as buildSubgraphSchema's public signature declares it (an unknown context). */
type ApolloResolverMap = NonNullable<
  Exclude<Parameters<typeof buildSubgraphSchema>[0], DocumentNode | readonly unknown[]>['resolvers']
>;

export interface SubgraphDefinition {
  typeDefs: DocumentNode;
  resolvers: SubgraphResolverMap;
}

export function buildSubgraph(definition: SubgraphDefinition): GraphQLSchema {
  // Apollo types the map with an unknown context; ours always receives a GraphQLContext.
  const resolvers = definition.resolvers as ApolloResolverMap;
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
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      // The same limits as the gateway's: a subgraph is reachable on its service's port too.
      operationLimitsPlugin(),
    ],
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
