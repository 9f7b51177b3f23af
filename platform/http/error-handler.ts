import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  BadRequestError,
  DomainError,
  InsufficientCreditsError,
  NotFoundError,
  ServiceUnavailableError,
} from '../errors/domain-errors.js';
import { PROBLEM_CONTENT_TYPE, toProblemDetails } from '../errors/problem-details.js';
import type { Logger } from '../logging/logger.js';

/** The last route of an app: whatever nothing else answered is a 404 problem. */
export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => next(new NotFoundError(`There is no ${req.method} ${req.path}.`));
}

/**
 * The only place a REST error is written: problem details (CONTRACT section 7), or the
 * spec's plain text for the 429 of the credit check. Never a stack trace: Express's own
 * handler, which writes one as HTML, is never reached.
 */
export function problemErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const known = fromExpress(error);
    if (known instanceof InsufficientCreditsError) {
      res.status(429).type('text/plain').send(known.message);
      return;
    }
    if (known instanceof ServiceUnavailableError && known.retryAfterSeconds !== undefined) {
      res.set('Retry-After', String(known.retryAfterSeconds));
    }
    const problem = toProblemDetails(known, req.originalUrl, logger);
    res.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
  };
}

/** Body-parser and other framework errors carry a safe 4xx status; keep it with a plain message. */
function fromExpress(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  const candidate = error as { type?: unknown; status?: unknown; expose?: unknown } | null;
  if (candidate?.type === 'entity.parse.failed')
    return new BadRequestError('The request body is not valid JSON.');
  if (
    typeof candidate?.status === 'number' &&
    candidate.status >= 400 &&
    candidate.status < 500 &&
    candidate.expose
  ) {
    return new HttpFrameworkError(candidate.status, (error as Error).message);
  }
  return error;
}

class HttpFrameworkError extends DomainError {
  readonly code = 'BAD_REQUEST';
  readonly title: string;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.title =
      status === 413 ? 'Payload too large' : status === 415 ? 'Unsupported media type' : 'Bad request';
  }
}
