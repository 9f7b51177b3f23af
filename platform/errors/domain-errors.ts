/**
 * The errors a service may throw. Each adapter maps them in one place:
 * REST in problem-details.ts, GraphQL in graphql-errors.ts.
 * Services never throw HTTP types or bare Errors at callers.
 */

/** One field that failed validation, named by where it came from (`body.name`, `query.take`). */
export interface FieldError {
  field: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  abstract readonly title: string;
  /** Extra members of the problem details body, safe to show to the caller. */
  readonly extensions: Record<string, unknown>;

  constructor(message?: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.extensions = { ...details };
  }
}

export class BadRequestError extends DomainError {
  readonly status = 400;
  readonly code = 'BAD_REQUEST';
  readonly title = 'Bad request';
  constructor(
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message, errors.length > 0 ? { errors } : {});
  }

  static invalidFields(errors: FieldError[]): BadRequestError {
    const detail = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    return new BadRequestError(`Invalid request. ${detail}`, errors);
  }
}

/** A request body in a media type the operation does not read. */
export class UnsupportedMediaTypeError extends DomainError {
  readonly status = 415;
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
  readonly title = 'Unsupported media type';

  static expected(expected: string, got: string | undefined): UnsupportedMediaTypeError {
    return new UnsupportedMediaTypeError(
      `The request body must be ${expected}${got ? `, not ${got}` : ' (no Content-Type was given)'}.`,
    );
  }
}

export class UnauthorizedError extends DomainError {
  readonly status = 401;
  readonly code = 'UNAUTHENTICATED';
  readonly title = 'Unauthorized';
  constructor(message = 'A valid session token is required.') {
    super(message);
  }
}

/**
 * 403. Its message never names the missing permission (spec section 7); only a refused
 * grant names what was refused (CONTRACT section 5), as `rejectedPermissions`.
 */
export class ForbiddenError extends DomainError {
  readonly status = 403;
  readonly code = 'FORBIDDEN';
  readonly title = 'Forbidden';
  constructor(message = 'You do not have permission to do this.', details: Record<string, unknown> = {}) {
    super(message, details);
  }

  static grantRefused(rejectedPermissions: string[]): ForbiddenError {
    return new ForbiddenError('You may not grant some of these permissions.', { rejectedPermissions });
  }
}

export class NotFoundError extends DomainError {
  readonly status = 404;
  readonly code = 'NOT_FOUND';
  readonly title = 'Not found';

  static entity(entityName: string, id: string | number): NotFoundError {
    return new NotFoundError(`${entityName} ${id} was not found.`);
  }
}

export class ConflictError extends DomainError {
  readonly status = 409;
  readonly code = 'CONFLICT';
  readonly title = 'Conflict';
}

export class InsufficientCreditsError extends DomainError {
  readonly status = 429;
  readonly code = 'INSUFFICIENT_CREDITS';
  readonly title = 'Insufficient credits';
  constructor(
    readonly available: number,
    readonly required: number,
  ) {
    super(`Insufficient credits: ${available} available, ${required} required.`);
  }
}

/** A fault on our side whose cause must not reach the caller (logged, then shown as a bare 500). */
export class InternalError extends DomainError {
  readonly status = 500;
  readonly code = 'INTERNAL_SERVER_ERROR';
  readonly title = 'Internal server error';
  constructor(message = 'The service failed to complete the request.', options?: { cause?: unknown }) {
    super(message, {}, options);
  }
}

/** A peer service or the queue could not be reached in time, or the service is busy. */
export class ServiceUnavailableError extends DomainError {
  readonly status = 503;
  readonly code = 'SERVICE_UNAVAILABLE';
  readonly title = 'Service unavailable';
  /** When set, the caller is told to try again after this many seconds (`Retry-After`). */
  retryAfterSeconds: number | undefined;

  constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message, details, cause === undefined ? undefined : { cause });
  }

  /** Too much of this work is under way now; it can be asked again after `seconds`. */
  static busy(message: string, seconds: number): ServiceUnavailableError {
    const error = new ServiceUnavailableError(message);
    error.retryAfterSeconds = seconds;
    return error;
  }
}
