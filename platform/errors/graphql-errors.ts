import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from '../logging/logger.js';
import { BadRequestError, DomainError, InternalError } from './domain-errors.js';

/**
 * The only place a resolver's thrown value becomes a GraphQL error: a DomainError keeps
 * its message and gets `extensions.code`; an error that graphql-js or Apollo already gave a
 * code keeps it (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT,
 * PERSISTED_QUERY_NOT_FOUND: clients act on these, an automatic persisted query link above
 * all); an error in the request itself without one (see isGraphQLRequestError) is
 * BAD_REQUEST with graphql-js's message; anything else is logged and reported as
 * INTERNAL_SERVER_ERROR with no cause attached.
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
  const code = codeGivenBefore(error);
  if (code) {
    return {
      message: formatted.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code },
    };
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

/**
 * The code an error already carries, as Apollo sets it on the errors it raises. Looked up on
 * the error itself: Apollo's formatted error says INTERNAL_SERVER_ERROR for one without.
 */
function codeGivenBefore(error: unknown): string | undefined {
  const code = error instanceof GraphQLError ? error.extensions.code : undefined;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

function domainGraphQLError(formatted: GraphQLFormattedError, error: DomainError): GraphQLFormattedError {
  return {
    message: error.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: error.code, status: error.status, ...error.extensions },
  };
}
