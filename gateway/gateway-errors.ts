import type { GraphQLFormattedError } from 'graphql';
import { formatGraphQLError } from '../platform/errors/graphql-errors.js';
import type { Logger } from '../platform/logging/logger.js';

/**
 * The gateway's GraphQL errors. What a subgraph answered (the gateway marks it with
 * `serviceName`) was formatted there and passes through as it is; the gateway's own (a
 * request that does not validate against the supergraph, a subgraph that could not be
 * reached) are formatted as the subgraphs format theirs.
 */
export function formatGatewayError(
  formatted: GraphQLFormattedError,
  error: unknown,
  logger: Logger,
): GraphQLFormattedError {
  if (typeof formatted.extensions?.serviceName === 'string') return formatted;
  return formatGraphQLError(formatted, error, logger);
}
