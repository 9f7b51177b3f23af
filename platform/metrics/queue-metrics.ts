import type { ConsumerState, Queue } from '../queue/queue.js';
import type { Metrics, Sample } from './metrics.js';

/** Each consumer's backlog and redeliveries, asked of the queue when scraped (JetStream's consumer info on NATS). */
export function watchQueue(metrics: Metrics, queue: Queue): void {
  const byConsumer = (value: (state: ConsumerState) => number) => async (): Promise<Sample[]> =>
    (await queue.consumerStates()).map((state) => ({
      labels: { topic: state.topic, consumer: state.consumer },
      value: value(state),
    }));
  metrics.gauge(
    'queue_consumer_pending_messages',
    'Messages waiting for a consumer of this process: not yet delivered, or delivered and not acknowledged.',
    ['topic', 'consumer'],
    byConsumer((state) => state.pending),
  );
  metrics.gauge(
    'queue_consumer_redelivered_messages',
    'Messages waiting for a consumer of this process that were delivered before and failed or timed out.',
    ['topic', 'consumer'],
    byConsumer((state) => state.redelivered),
  );
}
