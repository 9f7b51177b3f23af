import type { AnsweredRequest, RequestObserver } from '../http/request-record.js';
import type { Logger } from './logger.js';

/**
 * One JSON line per request (issue 13): its id, method, route template, status, duration and
 * the caller's organization and account. Never a header, the query string, a token or a body,
 * which can hold secrets. Logged by status: 5xx error, 4xx and aborted warn, the rest info, so
 * `LOG_LEVEL=warn` keeps only trouble.
 */
export function requestLog(logger: Logger): RequestObserver {
  return {
    answered: (answered) => {
      const level = levelOf(answered);
      if (!logger.isLevelEnabled(level)) return;
      const { record } = answered;
      logger[level](
        {
          requestId: record.id,
          ...(record.traceId ? { traceId: record.traceId } : {}),
          method: answered.method,
          route: answered.route ?? null,
          status: answered.status,
          durationMs: Math.round(answered.durationMs * 100) / 100,
          ...(answered.aborted ? { aborted: true } : {}),
          ...(record.caller
            ? { organizationId: record.caller.organizationId, accountId: record.caller.accountId }
            : {}),
        },
        'request',
      );
    },
  };
}

function levelOf({ status, aborted }: AnsweredRequest): 'error' | 'warn' | 'info' {
  if (status >= 500) return 'error';
  if (status >= 400 || aborted) return 'warn';
  return 'info';
}
