import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from '../logging/logger.js';
import { DomainError, InternalError } from './domain-errors.js';

/**
 * The only place a resolver's thrown value becomes a GraphQL error: a DomainError keeps
 * its message and gets `extensions.code`; anything else is logged and reported as
 * INTERNAL_SERVER_ERROR with no cause attached.
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
  logger: Logger,
): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof DomainError && !(original instanceof InternalError)) {
    return {
      message: original.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: original.code, status: original.status, ...original.extensions },
    };
  }
  if (original === undefined || original === null) {
    // A GraphQL validation or parse error: already safe to show, keep its own code.
    return { ...formatted, extensions: { ...formatted.extensions, stacktrace: undefined } };
  }
  logger.error({ err: original, path: formatted.path }, 'resolver failed');
  return {
    message: new InternalError().message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 },
  };
}
