import { capturedLogger, ERROR_LEVEL } from '../../test/support/captured-logger.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  InternalError,
  ServiceUnavailableError,
  UnauthorizedError,
} from './domain-errors.js';
import { toProblemDetails } from './problem-details.js';

describe('CONTRACT 7: toProblemDetails writes every REST error as RFC 7807 problem details', () => {
  it('a domain error: type by status, title, status, its message as detail, the instance', () => {
    const { logger, lines } = capturedLogger();
    expect(
      toProblemDetails(new ConflictError('Version 3 is not the stored version 4.'), '/groups/1', logger),
    ).toEqual({
      type: 'https://httpstatuses.io/409',
      title: 'Conflict',
      status: 409,
      detail: 'Version 3 is not the stored version 4.',
      instance: '/groups/1',
    });
    expect(lines).toEqual([]);
  });

  it('a validation error carries errors: [{field, message}]', () => {
    const { logger } = capturedLogger();
    const problem = toProblemDetails(
      BadRequestError.invalidFields([{ field: 'query.take', message: 'must be an integer' }]),
      '/?take=x',
      logger,
    );
    expect(problem).toMatchObject({
      status: 400,
      title: 'Bad request',
      detail: 'Invalid request. query.take: must be an integer',
      errors: [{ field: 'query.take', message: 'must be an integer' }],
    });
  });

  it('CONTRACT 5: a refused grant names rejectedPermissions; spec 7: a plain 403 names no permission', () => {
    const { logger } = capturedLogger();
    expect(toProblemDetails(ForbiddenError.grantRefused(['AuditDelete']), '/groups', logger)).toMatchObject({
      status: 403,
      rejectedPermissions: ['AuditDelete'],
    });
    const plain = toProblemDetails(new ForbiddenError(), '/', logger);
    expect(Object.keys(plain).sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
  });

  it('401 has the Unauthorized title', () => {
    const { logger } = capturedLogger();
    expect(toProblemDetails(new UnauthorizedError(), '/', logger)).toMatchObject({
      status: 401,
      title: 'Unauthorized',
    });
  });

  it('CONTRACT 7: anything else is a bare 500 without message, stack or SQL, logged with its cause', () => {
    const { logger, lines } = capturedLogger();
    const fault = new Error('insert into "audit"."audit_entry" violates something');
    const problem = toProblemDetails(fault, '/', logger);
    expect(problem).toEqual({
      type: 'https://httpstatuses.io/500',
      title: 'Internal server error',
      status: 500,
      detail: 'The service failed to complete the request.',
      instance: '/',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: ERROR_LEVEL, msg: 'request failed' });
    expect(JSON.stringify(lines[0])).toContain('audit_entry');
  });

  it('an InternalError keeps its own message out of the answer', () => {
    const { logger } = capturedLogger();
    expect(toProblemDetails(new InternalError('disk full on db-3'), '/', logger).detail).toBe(
      'The service failed to complete the request.',
    );
  });

  it('a 503 keeps its message and details, and is logged', () => {
    const { logger, lines } = capturedLogger();
    const problem = toProblemDetails(
      new ServiceUnavailableError('The service is not ready yet.', { checks: { database: false } }),
      '/healthz/startup',
      logger,
    );
    expect(problem).toMatchObject({
      status: 503,
      detail: 'The service is not ready yet.',
      checks: { database: false },
    });
    expect(lines).toHaveLength(1);
  });
});
