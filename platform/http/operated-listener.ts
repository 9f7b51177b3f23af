import type { RequestListener } from 'node:http';
import { requestLog } from '../logging/request-log.js';
import type { Logger } from '../logging/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import { observedListener } from './request-record.js';

/**
 * What every server of the system (each service and the gateway) puts around its own listener:
 * `/metrics` answered first, and each request logged and counted under `service`.
 */
export function operatedListener(
  listener: RequestListener,
  service: string,
  logger: Logger,
  metrics: Metrics,
): RequestListener {
  return observedListener(
    (req, res) => {
      if (!metrics.serve(req, res)) listener(req, res);
    },
    [requestLog(logger), metrics.requestObserver(service)],
  );
}
