import type { Queue } from '../queue/queue.js';
import type { Metrics } from './metrics.js';

/** Each consumer's backlog and redeliveries, asked of the queue once per scrape (JetStream's consumer info on NATS). */
export function watchQueue(metrics: Metrics, queue: Queue): void {
  metrics.sampled(
    [
      {
        name: 'queue_consumer_pending_messages',
        help: 'Messages waiting for a consumer of this process: not yet delivered, or delivered and not acknowledged.',
      },
      {
        name: 'queue_consumer_redelivered_messages',
        help: 'Messages waiting for a consumer of this process that were delivered before and failed or timed out.',
      },
    ],
    async () =>
      (await queue.consumerStates()).flatMap((state) => {
        const labels = { topic: state.topic, consumer: state.consumer };
        return [
          { gauge: 'queue_consumer_pending_messages', labels, value: state.pending },
          { gauge: 'queue_consumer_redelivered_messages', labels, value: state.redelivered },
        ];
      }),
  );
}
