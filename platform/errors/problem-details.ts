import type { Logger } from '../logging/logger.js';
import { DomainError, InternalError } from './domain-errors.js';

/** RFC 7807 problem details, as every 4xx and 5xx of the REST facades is written (CONTRACT section 7). */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * The only place a thrown value becomes a REST error body. Anything that is not a
 * DomainError is a fault on our side: it is logged with its cause and answered with a
 * bare 500, so no stack trace or SQL text reaches the caller.
 */
export function toProblemDetails(error: unknown, instance: string, logger: Logger): ProblemDetails {
  const known = error instanceof DomainError ? error : new InternalError(undefined, { cause: error });
  if (known.status >= 500) {
    logger.error({ err: error, instance }, 'request failed');
  }
  const detail = known instanceof InternalError ? new InternalError().message : known.message;
  return {
    type: `https://httpstatuses.io/${known.status}`,
    title: known.title,
    status: known.status,
    detail,
    instance,
    ...known.extensions,
  };
}
