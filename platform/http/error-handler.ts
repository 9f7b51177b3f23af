import type { ServerResponse } from 'node:http';
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
  return (error: unknown, req, res, _next) => writeProblem(fromExpress(error), req.originalUrl, res, logger);
}

/** Writes an error as problem details, or the 429's plain text; for Express and the direct routes alike. */
export function writeProblem(error: unknown, instance: string, res: ServerResponse, logger: Logger): void {
  if (error instanceof InsufficientCreditsError) {
    res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8' }).end(error.message);
    return;
  }
  const problem = toProblemDetails(error, instance, logger);
  res
    .writeHead(problem.status, {
      'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
      ...(error instanceof ServiceUnavailableError && error.retryAfterSeconds !== undefined
        ? { 'retry-after': String(error.retryAfterSeconds) }
        : {}),
    })
    .end(JSON.stringify(problem));
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
