import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { Logger } from '../logging/logger.js';
import { PermanentMessageError, retryDelayMs, type MessageHandler, type Queue, type Topic } from './queue.js';

const DUPLICATE_WINDOW_MS = 2 * 60_000;
const RETENTION_MS = 7 * 24 * 60 * 60_000;
const ACK_WAIT_MS = 30_000;
const PUBLISH_TIMEOUT_MS = 5_000;

interface Registration {
  topic: Topic;
  consumerName: string;
  handler: MessageHandler;
}

/**
 * JetStream: one stream per topic (file storage, deduplicated by message id within a
 * two-minute window, kept seven days) and one durable pull consumer per reader with
 * explicit acks. The connection is made in the background and retried forever, so a
 * service starts, and keeps serving, while NATS is away; its outbox holds what it could
 * not publish.
 */
export class NatsQueue implements Queue {
  readonly kind = 'nats' as const;
  private connection: NatsConnection | undefined;
  private client: JetStreamClient | undefined;
  private manager: JetStreamManager | undefined;
  private ready = false;
  /** False between a lost connection and its return. */
  private connected = false;
  private closing = false;
  private readonly registrations: Registration[] = [];
  private readonly running: Promise<void>[] = [];
  private connecting: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly clientName: string,
  ) {}

  start(): Promise<void> {
    this.connecting ??= this.connectAndPrepare().catch((error: unknown) => {
      if (!this.closing) this.logger.error({ err: error }, 'the NATS queue could not be prepared');
    });
    return Promise.resolve();
  }

  async whenReady(): Promise<void> {
    await this.start();
    await this.connecting;
  }

  isReady(): boolean {
    return this.ready && this.connected && this.connection !== undefined && !this.connection.isClosed();
  }

  async publish(topic: Topic, data: unknown, messageId: string): Promise<void> {
    if (!this.client || !this.ready) throw new Error('the NATS queue is not connected');
    await this.client.publish(this.subject(topic), JSON.stringify(data), {
      msgID: messageId,
      timeout: PUBLISH_TIMEOUT_MS,
    });
  }

  consume(topic: Topic, consumerName: string, handler: MessageHandler): void {
    const registration = { topic, consumerName, handler };
    this.registrations.push(registration);
    if (this.ready) this.running.push(this.keepConsuming(registration));
  }

  async close(): Promise<void> {
    this.closing = true;
    this.ready = false;
    const connection = this.connection;
    if (connection && !connection.isClosed()) await connection.drain().catch(() => connection.close());
    await Promise.allSettled(this.running);
  }

  private subject(topic: Topic): string {
    return `${this.prefix}${topic}`;
  }

  private streamName(topic: Topic): string {
    return `${this.prefix}${topic}`;
  }

  private async connectAndPrepare(): Promise<void> {
    this.connection = await connect({
      servers: this.url,
      name: this.clientName,
      waitOnFirstConnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
    });
    this.connected = true;
    void this.watchStatus(this.connection);
    this.client = jetstream(this.connection);
    this.manager = await jetstreamManager(this.connection);
    const topics = new Set<Topic>(['audit-entries', 'credits-spent']);
    for (const topic of topics) await this.ensureStream(topic);
    this.ready = true;
    this.logger.info({ url: this.url }, 'connected to NATS JetStream');
    for (const registration of this.registrations) this.running.push(this.keepConsuming(registration));
  }

  /** Runs a consumer until the queue closes, starting it again after anything that stops it. */
  private async keepConsuming(registration: Registration): Promise<void> {
    while (!this.closing) {
      try {
        await this.runConsumer(registration);
      } catch (error) {
        if (this.closing) return;
        this.logger.warn(
          { err: error, consumer: registration.consumerName },
          'consumer stopped; starting it again',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  private async watchStatus(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        this.logger.warn('NATS connection lost; reconnecting');
      }
      if (status.type === 'reconnect') {
        this.connected = true;
        this.logger.info('NATS connection restored');
      }
    }
  }

  private async ensureStream(topic: Topic): Promise<void> {
    const manager = this.manager!;
    const name = this.streamName(topic);
    try {
      await manager.streams.info(name);
    } catch (error) {
      if (!(error instanceof JetStreamApiError)) throw error;
      await manager.streams.add({
        name,
        subjects: [this.subject(topic)],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        max_age: nanos(RETENTION_MS),
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      });
    }
  }

  private async runConsumer({ topic, consumerName, handler }: Registration): Promise<void> {
    const stream = this.streamName(topic);
    const manager = this.manager!;
    await manager.consumers.add(stream, {
      durable_name: consumerName,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ACK_WAIT_MS),
      max_deliver: -1,
    });
    const consumer = await this.client!.consumers.get(stream, consumerName);
    const messages = await consumer.consume({ max_messages: 64 });
    for await (const message of messages) {
      const id = message.headers?.get('Nats-Msg-Id') || `${stream}:${message.seq}`;
      const deliveryCount = message.info.deliveryCount;
      try {
        await handler({ id, data: message.json<unknown>(), deliveryCount });
        message.ack();
      } catch (error) {
        if (error instanceof PermanentMessageError || error instanceof SyntaxError) {
          this.logger.error(
            { err: error, consumer: consumerName, messageId: id },
            'message dropped: it can never be processed',
          );
          message.term();
        } else {
          this.logger.warn(
            { err: error, consumer: consumerName, messageId: id },
            'message failed; it will be redelivered',
          );
          message.nak(retryDelayMs(deliveryCount));
        }
      }
    }
  }
}
