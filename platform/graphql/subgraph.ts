import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { expressMiddleware } from '@as-integrations/express5';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import type { RequestHandler } from 'express';
import { parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Caller } from '../auth/caller.js';
import { readSessionToken } from '../auth/token-reader.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { UnauthorizedError } from '../errors/domain-errors.js';
import { formatGraphQLError } from '../errors/graphql-errors.js';
import type { Logger } from '../logging/logger.js';
import { noteCaller } from '../http/request-record.js';
import { operationLimitsPlugin } from './operation-limits.js';
import { buildSchemaSync, createResolversMap, type ClassType, type NonEmptyArray } from './type-graphql.js';

/** What every resolver receives: the caller from the forwarded session token, if any. */
export interface GraphQLContext {
  caller: Caller | undefined;
}

/** Finds an entity another subgraph references by its key (federation's `__resolveReference`). */
export type ReferenceResolver = (reference: { id: string }, context: GraphQLContext) => unknown;

/** The classes a subgraph's schema is built from: its resolvers, and the types only they reach. */
export interface SubgraphClasses {
  resolvers: NonEmptyArray<ClassType>;
  orphanedTypes?: ClassType[];
}

/**
 * A subgraph ready to serve: its classes, an instance of each resolver class (made with the
 * domain's services, so each method stays one line over a use case), and how each entity it owns
 * is found by reference.
 */
export interface SubgraphDefinition {
  classes: SubgraphClasses;
  instances: object[];
  references?: Record<string, ReferenceResolver>;
}

/** The resolver map as buildSubgraphSchema's public signature declares it. */
type ApolloResolverMap = NonNullable<
  Exclude<Parameters<typeof buildSubgraphSchema>[0], DocumentNode | readonly unknown[]>['resolvers']
>;

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])';

/**
 * The type-graphql schema of the classes. Arguments are not validated by type-graphql (it would
 * need class-validator): each resolver parses them with the REST facade's zod schemas.
 */
function classSchema(classes: SubgraphClasses, instances: object[] = []): GraphQLSchema {
  const byClass = new Map(instances.map((instance) => [instance.constructor, instance]));
  return buildSchemaSync({
    resolvers: classes.resolvers,
    orphanedTypes: classes.orphanedTypes,
    container: { get: (resolverClass: ClassType) => byClass.get(resolverClass) },
    validate: false,
  });
}

/** The subgraph's SDL, as federation reads it: printed with its directives (`@key` through `@Directive`). */
export function subgraphTypeDefs(classes: SubgraphClasses): DocumentNode {
  return typeDefsOf(classSchema(classes));
}

function typeDefsOf(schema: GraphQLSchema): DocumentNode {
  return parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`);
}

/**
 * The one way a subgraph is built: type-graphql builds the schema from the classes, whose
 * printed SDL is handed with type-graphql's resolvers, and the reference resolvers, to federation.
 */
export function buildSubgraph(definition: SubgraphDefinition): GraphQLSchema {
  const schema = classSchema(definition.classes, definition.instances);
  const resolvers = createResolversMap(schema) as Record<string, Record<string, unknown>>;
  for (const [typeName, resolveReference] of Object.entries(definition.references ?? {})) {
    resolvers[typeName] = { ...resolvers[typeName], __resolveReference: resolveReference };
  }
  // Federation types the resolver map with an unknown context; ours always receives a GraphQLContext.
  return buildSubgraphSchema({ typeDefs: typeDefsOf(schema), resolvers: resolvers as ApolloResolverMap });
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
      const caller = await verifiedCaller(verifier, readSessionToken(req.headers));
      noteCaller(req, caller);
      return { caller };
    },
  });
  return { handler, stop: () => server.stop() };
}

async function verifiedCaller(
  verifier: TokenVerifier,
  token: string | undefined,
): Promise<Caller | undefined> {
  if (!token) return undefined;
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (error instanceof UnauthorizedError) return undefined;
    throw error;
  }
}
