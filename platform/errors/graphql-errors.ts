import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from '../logging/logger.js';
import { BadRequestError, DomainError, InternalError } from './domain-errors.js';

/**
 * The only place a resolver's thrown value becomes a GraphQL error: a DomainError keeps
 * its message and gets `extensions.code`; an error in the request itself (see
 * isGraphQLRequestError) is BAD_REQUEST with graphql-js's message; anything else is logged
 * and reported as INTERNAL_SERVER_ERROR with no cause attached.
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
  logger: Logger,
): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof DomainError && !(original instanceof InternalError)) {
    return domainGraphQLError(formatted, original);
  }
  if (isGraphQLRequestError(error)) {
    return domainGraphQLError(formatted, new BadRequestError(formatted.message));
  }
  logger.error({ err: original ?? error, path: formatted.path }, 'resolver failed');
  return domainGraphQLError(formatted, new InternalError());
}

/**
 * True for an error in the request rather than in its execution: a syntax error, a
 * validation error (a wrong literal such as `take: "x"`), or a variable that does not
 * coerce to its type. graphql-js raises these before any field runs, so they have no
 * `path`, and their cause is graphql-js's own (a GraphQLError from a scalar's parser) or
 * none. A field that fails while the answer is built has a path, and is our fault.
 */
export function isGraphQLRequestError(error: unknown): boolean {
  return (
    error instanceof GraphQLError &&
    error.path === undefined &&
    (error.originalError === undefined || error.originalError instanceof GraphQLError)
  );
}

function domainGraphQLError(formatted: GraphQLFormattedError, error: DomainError): GraphQLFormattedError {
  return {
    message: error.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: error.code, status: error.status, ...error.extensions },
  };
}
