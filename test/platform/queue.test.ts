import { randomBytes, randomUUID } from 'node:crypto';
import { createLogger } from '../../platform/logging/logger.js';
import { InProcessQueue } from '../../platform/queue/in-process-queue.js';
import { NatsQueue } from '../../platform/queue/nats-queue.js';
import { PermanentMessageError, TOPICS, type Queue, type QueueMessage } from '../../platform/queue/queue.js';
import { eventually } from '../support/eventually.js';
import { deleteStreams } from '../../platform/queue/nats-streams.js';

const logger = createLogger('silent');
const natsUrl = process.env.NATS_URL;

interface Implementation {
  name: string;
  create(): Promise<{ queue: Queue; dispose(): Promise<void> }>;
}

const implementations: Implementation[] = [
  {
    name: 'in-process',
    create: async () => {
      const queue = new InProcessQueue(logger);
      await queue.start();
      return { queue, dispose: () => queue.close() };
    },
  },
];
if (natsUrl) {
  implementations.push({
    name: 'NATS JetStream',
    create: async () => {
      const prefix = `t${randomBytes(4).toString('hex')}-`;
      const queue = new NatsQueue(natsUrl, prefix, logger, 'queue-test');
      await queue.whenReady();
      return {
        queue,
        dispose: async () => {
          await queue.close();
          await deleteStreams(natsUrl, prefix);
        },
      };
    },
  });
}

describe.each(implementations)(
  'decisions "Queue": each queue keeps the same promises: durable consumers, message-id deduplication, redelivery ($name)',
  (implementation) => {
    let queue: Queue;
    let dispose: () => Promise<void>;

    beforeEach(async () => {
      const created = await implementation.create();
      queue = created.queue;
      dispose = () => created.dispose();
    });

    afterEach(() => dispose());

    it('delivers messages published before the durable consumer registered', async () => {
      await queue.publish(TOPICS.creditsSpent, { Amount: 1 }, randomUUID());
      await queue.publish(TOPICS.creditsSpent, { Amount: 2 }, randomUUID());
      const received: unknown[] = [];
      queue.consume(TOPICS.creditsSpent, 'early-bird', async (message) => {
        received.push(message.data);
      });
      await eventually(async () => expect(received).toEqual([{ Amount: 1 }, { Amount: 2 }]));
    });

    it('drops a republished message id (deduplication by message id)', async () => {
      const received: QueueMessage[] = [];
      queue.consume(TOPICS.auditEntries, 'dedup', async (message) => {
        received.push(message);
      });
      const id = randomUUID();
      await queue.publish(TOPICS.auditEntries, { n: 1 }, id);
      await queue.publish(TOPICS.auditEntries, { n: 1 }, id);
      await queue.publish(TOPICS.auditEntries, { n: 2 }, randomUUID());
      await eventually(async () => expect(received.map((m) => m.data)).toEqual([{ n: 1 }, { n: 2 }]));
      expect(received[0]!.id).toBe(id);
    });

    it('redelivers a message whose handler failed, with the same id and a higher delivery count', async () => {
      const deliveries: QueueMessage[] = [];
      queue.consume(TOPICS.auditEntries, 'flaky', async (message) => {
        deliveries.push(message);
        if (deliveries.length === 1) throw new Error('database briefly away');
      });
      const id = randomUUID();
      await queue.publish(TOPICS.auditEntries, { n: 1 }, id);
      await eventually(async () => expect(deliveries).toHaveLength(2));
      expect(deliveries.map((m) => [m.id, m.deliveryCount])).toEqual([
        [id, 1],
        [id, 2],
      ]);
    });

    it('drops a message that can never succeed, and goes on with the next', async () => {
      const handled: unknown[] = [];
      queue.consume(TOPICS.auditEntries, 'picky', async (message) => {
        if ((message.data as { poison?: boolean }).poison)
          throw new PermanentMessageError('not an audit entry');
        handled.push(message.data);
      });
      await queue.publish(TOPICS.auditEntries, { poison: true }, randomUUID());
      await queue.publish(TOPICS.auditEntries, { n: 3 }, randomUUID());
      await eventually(async () => expect(handled).toEqual([{ n: 3 }]));
    });

    it('gives every durable consumer of a topic its own copy', async () => {
      const first: unknown[] = [];
      const second: unknown[] = [];
      queue.consume(TOPICS.creditsSpent, 'reader-one', async (m) => void first.push(m.data));
      queue.consume(TOPICS.creditsSpent, 'reader-two', async (m) => void second.push(m.data));
      await queue.publish(TOPICS.creditsSpent, { Amount: 5 }, randomUUID());
      await eventually(async () => {
        expect(first).toEqual([{ Amount: 5 }]);
        expect(second).toEqual([{ Amount: 5 }]);
      });
    });
  },
);
