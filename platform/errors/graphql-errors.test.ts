import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { capturedLogger, ERROR_LEVEL } from '../../test/support/captured-logger.js';
import { ForbiddenError, InternalError, NotFoundError } from './domain-errors.js';
import { formatGraphQLError, isGraphQLRequestError } from './graphql-errors.js';

const formattedOf = (error: GraphQLError): GraphQLFormattedError => error.toJSON();

/** A field error as graphql-js makes it when a resolver throws: with a path and the thrown value. */
function fieldError(thrown: Error): GraphQLError {
  return new GraphQLError(thrown.message, { path: ['auditEntries'], originalError: thrown });
}

describe('spec 7 / issue 2 errors: formatGraphQLError is the one place a GraphQL error gets extensions.code', () => {
  it('a domain error keeps its message and gets its code, its status and its extensions', () => {
    const { logger, lines } = capturedLogger();
    const error = fieldError(ForbiddenError.grantRefused(['AuditDelete']));
    expect(formatGraphQLError(formattedOf(error), error, logger)).toEqual({
      message: 'You may not grant some of these permissions.',
      locations: undefined,
      path: ['auditEntries'],
      extensions: { code: 'FORBIDDEN', status: 403, rejectedPermissions: ['AuditDelete'] },
    });
    expect(lines).toEqual([]);
  });

  it('NOT_FOUND keeps its message', () => {
    const { logger } = capturedLogger();
    const error = fieldError(NotFoundError.entity('AuditEntry', 7));
    expect(formatGraphQLError(formattedOf(error), error, logger).extensions).toEqual({
      code: 'NOT_FOUND',
      status: 404,
    });
  });

  it('a wrong literal (validation error, no cause) is BAD_REQUEST with graphql-js message, not logged', () => {
    const { logger, lines } = capturedLogger();
    const error = new GraphQLError('Int cannot represent non-integer value: "x"');
    const answer = formatGraphQLError(formattedOf(error), error, logger);
    expect(answer.message).toBe('Int cannot represent non-integer value: "x"');
    expect(answer.extensions).toEqual({ code: 'BAD_REQUEST', status: 400 });
    expect(lines).toEqual([]);
  });

  it('a variable that does not coerce (cause: the scalar parser GraphQLError) is BAD_REQUEST', () => {
    const { logger, lines } = capturedLogger();
    const error = new GraphQLError(
      'Variable "$t" got invalid value "abc"; Int cannot represent non-integer value',
      {
        originalError: new GraphQLError('Int cannot represent non-integer value: "abc"'),
      },
    );
    expect(formatGraphQLError(formattedOf(error), error, logger).extensions).toEqual({
      code: 'BAD_REQUEST',
      status: 400,
    });
    expect(lines).toEqual([]);
  });

  it.each([
    [
      'PERSISTED_QUERY_NOT_FOUND',
      new GraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }),
    ],
    [
      'GRAPHQL_VALIDATION_FAILED',
      new GraphQLError('Unknown argument "nope"', {
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        originalError: new GraphQLError('Unknown argument "nope"'),
      }),
    ],
  ])(
    'decisions "Errors": a code Apollo gave an error (%s) is kept with its message, not collapsed, not logged',
    (code, error) => {
      const { logger, lines } = capturedLogger();
      expect(formatGraphQLError(formattedOf(error), error, logger)).toEqual({
        message: error.message,
        locations: undefined,
        path: undefined,
        extensions: { code },
      });
      expect(lines).toEqual([]);
    },
  );

  it('CONTRACT 7: any other fault is INTERNAL_SERVER_ERROR without its message, stack or SQL, and is logged', () => {
    const { logger, lines } = capturedLogger();
    const fault = new Error('select * from audit.audit_entry failed: relation does not exist');
    const error = fieldError(fault);
    const answer = formatGraphQLError(formattedOf(error), error, logger);
    expect(answer).toEqual({
      message: 'The service failed to complete the request.',
      locations: undefined,
      path: ['auditEntries'],
      extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 },
    });
    expect(JSON.stringify(answer)).not.toMatch(/select|relation|stack/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: ERROR_LEVEL, msg: 'resolver failed' });
  });

  it("a GraphQLError raised while the answer is built (it has a path) is our fault, not the caller's", () => {
    const { logger, lines } = capturedLogger();
    const error = new GraphQLError('Int cannot represent non-integer value: 1.5', {
      path: ['auditEntries', 'total'],
      originalError: new GraphQLError('Int cannot represent non-integer value: 1.5'),
    });
    expect(formatGraphQLError(formattedOf(error), error, logger).extensions?.code).toBe(
      'INTERNAL_SERVER_ERROR',
    );
    expect(lines).toHaveLength(1);
  });

  it('an InternalError thrown by a service is answered without its own message', () => {
    const { logger } = capturedLogger();
    const error = fieldError(new InternalError('pool exhausted at db-7.internal:5432'));
    const answer = formatGraphQLError(formattedOf(error), error, logger);
    expect(answer.message).toBe('The service failed to complete the request.');
    expect(JSON.stringify(answer)).not.toContain('db-7');
  });
});

describe('spec 7 / issue 2 errors: isGraphQLRequestError tells a bad request from a fault', () => {
  it.each([
    ['a validation error without a cause', new GraphQLError('Unknown argument "nope"'), true],
    [
      'a variable coercion error caused by a GraphQLError',
      new GraphQLError('Variable "$t"...', { originalError: new GraphQLError('Int...') }),
      true,
    ],
    [
      'an error caused by a plain Error (context creation)',
      new GraphQLError('x', { originalError: new Error('boom') }),
      false,
    ],
    ['a field error', new GraphQLError('x', { path: ['a'] }), false],
    ['a thrown value that is not a GraphQLError', new Error('x'), false],
  ])('%s', (_what, error, expected) => {
    expect(isGraphQLRequestError(error)).toBe(expected);
  });
});
