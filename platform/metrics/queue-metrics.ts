import type { Queue } from '../queue/queue.js';
import type { Metrics } from './metrics.js';

/** Each consumer's backlog and redeliveries, asked of the queue when scraped (JetStream's consumer info on NATS). */
export function watchQueue(metrics: Metrics, queue: Queue): void {
  metrics.gauge(
    'queue_consumer_pending_messages',
    'Messages waiting for a consumer of this process: not yet delivered, or delivered and not acknowledged.',
    ['topic', 'consumer'],
    async () =>
      (await queue.consumerStates()).map((state) => ({
        labels: { topic: state.topic, consumer: state.consumer },
        value: state.pending,
      })),
  );
  metrics.gauge(
    'queue_consumer_redelivered_messages',
    'Messages waiting for a consumer of this process that were delivered before and failed or timed out.',
    ['topic', 'consumer'],
    async () =>
      (await queue.consumerStates()).map((state) => ({
        labels: { topic: state.topic, consumer: state.consumer },
        value: state.redelivered,
      })),
  );
}
