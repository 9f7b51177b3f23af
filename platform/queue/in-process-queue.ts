import { AsyncResource } from 'node:async_hooks';
import type { Logger } from '../logging/logger.js';
import { consuming, publishing, type TraceCarrier } from './queue-tracing.js';
import {
  PermanentMessageError,
  retryDelayMs,
  type ConsumerState,
  type MessageHandler,
  type Notice,
  type NoticeListener,
  type Queue,
  type QueueMessage,
  type Topic,
} from './queue.js';

const DEDUPLICATION_WINDOW_MS = 120_000;

/** A message as this queue keeps it: with the trace context it was published in. */
interface Queued extends QueueMessage {
  readonly trace: TraceCarrier;
}

interface Consumer {
  readonly topic: Topic;
  readonly name: string;
  readonly handler: MessageHandler;
  readonly pending: Queued[];
  running: boolean;
  /** The delivery under way, if any: close waits for it. */
  delivering: Promise<void> | undefined;
}

/**
 * The queue when NATS_URL is unset. It keeps JetStream's promises that the services rely on
 * (durable consumers, message-id deduplication, redelivery after a failure) within one
 * process; messages live in memory, so it is only valid when every service runs in this
 * process (CONTRACT section 1).
 */
export class InProcessQueue implements Queue {
  readonly kind = 'in-process' as const;
  private readonly consumers = new Map<Topic, Consumer[]>();
  /** Messages of a topic that no consumer has registered for yet. */
  private readonly backlog = new Map<Topic, Queued[]>();
  private readonly recentIds = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly listeners = new Map<Notice, NoticeListener[]>();
  private closed = false;
  /**
   * Runs work in the async context the queue was made in. Delivery must not inherit the
   * publisher's context (its open transaction, say), as it would not across a real queue.
   */
  private readonly inQueueContext = AsyncResource.bind((work: () => void) => work());

  constructor(private readonly logger: Logger) {}

  async start(): Promise<void> {
    this.logger.warn(
      'NATS_URL is not set: using the in-process queue, valid only when every service runs in this process',
    );
  }

  async whenReady(): Promise<void> {
    if (this.closed) throw new Error('the queue is closed');
  }

  isReady(): boolean {
    return !this.closed;
  }

  async publish(topic: Topic, data: unknown, messageId: string): Promise<void> {
    if (this.closed) throw new Error('the queue is closed');
    if (this.isDuplicate(`${topic}/${messageId}`)) return;
    await publishing(topic, async (trace) => {
      // A structured clone keeps consumers from sharing the publisher's objects, as a real queue would.
      const message: Queued = { id: messageId, data: structuredClone(data), deliveryCount: 1, trace };
      const consumers = this.consumers.get(topic);
      if (!consumers || consumers.length === 0) {
        this.backlogOf(topic).push(message);
        return;
      }
      for (const consumer of consumers) {
        consumer.pending.push(message);
        this.schedule(consumer, 0);
      }
    });
  }

  /** Heard after the announcer's turn, as over a connection, and never missed: every listener is in this process. */
  announce(notice: Notice, data: unknown): void {
    if (this.closed) return;
    const copy = structuredClone(data);
    for (const listener of this.listeners.get(notice) ?? []) {
      this.inQueueContext(() => setImmediate(() => listener.heard(copy)));
    }
  }

  listen(notice: Notice, listener: NoticeListener): void {
    this.listeners.set(notice, [...(this.listeners.get(notice) ?? []), listener]);
  }

  consume(topic: Topic, consumerName: string, handler: MessageHandler): void {
    const consumer: Consumer = {
      topic,
      name: consumerName,
      handler,
      pending: [],
      running: false,
      delivering: undefined,
    };
    const consumers = this.consumers.get(topic) ?? [];
    consumers.push(consumer);
    this.consumers.set(topic, consumers);
    const waiting = this.backlog.get(topic);
    if (waiting) {
      consumer.pending.push(...waiting);
      this.backlog.delete(topic);
      this.schedule(consumer, 0);
    }
  }

  /**
   * Stops delivering, after the handlers running now have finished (their services are
   * stopped next). What was not delivered yet lives only in memory, so it is lost: it is
   * counted in the log.
   */
  async consumerStates(): Promise<ConsumerState[]> {
    return [...this.consumers].flatMap(([topic, consumers]) =>
      consumers.map((consumer) => ({
        topic,
        consumer: consumer.name,
        pending: consumer.pending.length,
        redelivered: consumer.pending.filter((message) => message.deliveryCount > 1).length,
      })),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const all = [...this.consumers.values()].flat();
    await Promise.all(all.flatMap((consumer) => (consumer.delivering ? [consumer.delivering] : [])));
    const undelivered =
      all.reduce((sum, consumer) => sum + consumer.pending.length, 0) +
      [...this.backlog.values()].reduce((sum, messages) => sum + messages.length, 0);
    if (undelivered > 0) {
      this.logger.warn(
        { undelivered },
        'the in-process queue closed with messages not delivered; they are lost',
      );
    }
  }

  private backlogOf(topic: Topic): Queued[] {
    const list = this.backlog.get(topic) ?? [];
    this.backlog.set(topic, list);
    return list;
  }

  private isDuplicate(key: string): boolean {
    const now = Date.now();
    for (const [id, seenAt] of this.recentIds) {
      if (now - seenAt < DEDUPLICATION_WINDOW_MS) break;
      this.recentIds.delete(id);
    }
    if (this.recentIds.has(key)) return true;
    this.recentIds.set(key, now);
    return false;
  }

  private schedule(consumer: Consumer, delayMs: number): void {
    if (consumer.running || this.closed) return;
    consumer.running = true;
    this.inQueueContext(() => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        consumer.delivering = this.drain(consumer).finally(() => (consumer.delivering = undefined));
      }, delayMs);
      this.timers.add(timer);
    });
  }

  /** Delivers a consumer's messages one at a time, in order, until one fails or none are left. */
  private async drain(consumer: Consumer): Promise<void> {
    while (!this.closed && consumer.pending.length > 0) {
      const message = consumer.pending[0]!;
      try {
        const { id, data, deliveryCount } = message;
        await consuming(consumer.topic, consumer.name, message.trace, () =>
          consumer.handler({ id, data, deliveryCount }),
        );
        consumer.pending.shift();
      } catch (error) {
        if (error instanceof PermanentMessageError) {
          this.logger.error(
            { err: error, consumer: consumer.name, messageId: message.id },
            'message dropped: it can never be processed',
          );
          consumer.pending.shift();
          continue;
        }
        this.logger.warn(
          { err: error, consumer: consumer.name, messageId: message.id },
          'message failed; it will be redelivered',
        );
        consumer.pending[0] = { ...message, deliveryCount: message.deliveryCount + 1 };
        consumer.running = false;
        this.schedule(consumer, retryDelayMs(message.deliveryCount));
        return;
      }
    }
    consumer.running = false;
  }
}
