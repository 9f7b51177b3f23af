import { capturedLogger, ERROR_LEVEL, WARN_LEVEL } from '../../test/support/captured-logger.js';
import type { AnsweredRequest } from '../http/request-record.js';
import { requestLog } from './request-log.js';

function answered(status: number, aborted = false): AnsweredRequest {
  return {
    method: 'GET',
    route: '/variables/{id}',
    status,
    durationMs: 1.234,
    aborted,
    record: { id: 'r1', startedAt: 0, route: '/variables/{id}', caller: undefined, traceId: undefined },
  };
}

describe('issue 13 item 2: a request line is logged at the level of its status', () => {
  it.each([
    [200, false, 30],
    [304, false, 30],
    [404, false, WARN_LEVEL],
    [429, false, WARN_LEVEL],
    [499, true, WARN_LEVEL],
    [500, false, ERROR_LEVEL],
    [503, false, ERROR_LEVEL],
  ])('status %i (aborted %s) at level %i', (status, aborted, level) => {
    const { logger, lines } = capturedLogger();
    requestLog(logger).answered(answered(status, aborted));
    expect(lines).toEqual([
      expect.objectContaining({ level, msg: 'request', requestId: 'r1', status, durationMs: 1.23 }),
    ]);
  });

  it('writes nothing below the logger level: LOG_LEVEL=warn keeps only trouble', () => {
    const { logger, lines } = capturedLogger();
    logger.level = 'warn';
    const log = requestLog(logger);
    log.answered(answered(200));
    log.answered(answered(503));
    expect(lines.map((line) => line.status)).toEqual([503]);
  });
});
