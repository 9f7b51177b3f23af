import type { Settings } from '../config/settings.js';
import type { Logger } from '../logging/logger.js';
import { InProcessQueue } from './in-process-queue.js';
import { NatsQueue } from './nats-queue.js';
import type { Queue } from './queue.js';

/** NATS JetStream when NATS_URL is set, the in-process queue otherwise (CONTRACT section 1). */
export function createQueue(settings: Settings, logger: Logger, clientName: string): Queue {
  const log = logger.child({ component: 'queue' });
  return settings.queue.natsUrl
    ? new NatsQueue(settings.queue.natsUrl, settings.queue.prefix, log, clientName)
    : new InProcessQueue(log);
}
