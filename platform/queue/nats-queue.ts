import { connect, headers, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { Logger } from '../logging/logger.js';
import { consuming, publishing, type TraceCarrier } from './queue-tracing.js';
import {
  PermanentMessageError,
  retryDelayMs,
  TOPICS,
  type ConsumerState,
  type MessageHandler,
  type Notice,
  type NoticeListener,
  type Queue,
  type Topic,
} from './queue.js';

const DUPLICATE_WINDOW_MS = 2 * 60_000;
const RETENTION_MS = 7 * 24 * 60 * 60_000;
const ACK_WAIT_MS = 30_000;
const PUBLISH_TIMEOUT_MS = 5_000;
/** How long a JetStream API call (stream and consumer set-up), or a connection attempt, may take before it counts as failed. */
const API_TIMEOUT_MS = 5_000;
const CONSUMER_RESTART_MS = 1_000;

interface Registration {
  topic: Topic;
  consumerName: string;
  handler: MessageHandler;
}

/**
 * JetStream: one stream per topic (file storage, deduplicated by message id within a
 * two-minute window, kept seven days) and one durable pull consumer per reader with
 * explicit acks. The connection is made in the background and retried until it succeeds,
 * and so is the set-up after it (JetStream may not be enabled yet, or may time out), each
 * failure logged: a service starts, and keeps serving, while NATS is away or not ready; its
 * outbox holds what it could not publish. After every reconnect the streams and consumers
 * are made sure of again, since a NATS server that restarted may have lost them; a
 * connection the client gave up on for good is made anew.
 */
export class NatsQueue implements Queue {
  readonly kind = 'nats' as const;
  private connection: NatsConnection | undefined;
  private client: JetStreamClient | undefined;
  private manager: JetStreamManager | undefined;
  /** True once streams and consumers are set up on the current connection. */
  private ready = false;
  /** False between a lost connection and its return. */
  private connected = false;
  private closing = false;
  /** Set when the set-up must run (again): at start, and after each reconnect. */
  private setUpWanted = false;
  private settingUp: Promise<void> | undefined;
  private readonly registrations: Registration[] = [];
  private readonly listeners: { notice: Notice; listener: NoticeListener }[] = [];
  /** Consumer loops, started at the first readiness (and at once for consumers registered after it). */
  private readonly running: Promise<void>[] = [];
  private consuming = false;
  /** The message iterators of the consumers running now. */
  private readonly liveMessages = new Set<ConsumerMessages>();
  /** The handlers running now, each up to its ack (or nak): close waits for them. */
  private readonly handling = new Set<Promise<void>>();
  private readonly whenReadyWaiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** Wakes every pause early when the queue closes. */
  private readonly pauses = new Set<() => void>();

  constructor(
    private readonly url: string,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly clientName: string,
  ) {}

  start(): Promise<void> {
    if (!this.settingUp && !this.ready && !this.closing) this.setUpUntilReady();
    return Promise.resolve();
  }

  /** Resolves once connected with every stream and consumer in place; waits as long as that takes. */
  async whenReady(): Promise<void> {
    if (this.closing) throw new Error('the NATS queue is closed');
    await this.start();
    if (this.isReady()) return;
    await new Promise<void>((resolve, reject) => this.whenReadyWaiters.push({ resolve, reject }));
  }

  isReady(): boolean {
    return this.ready && this.connected && this.connection !== undefined && !this.connection.isClosed();
  }

  async publish(topic: Topic, data: unknown, messageId: string): Promise<void> {
    if (!this.client || !this.isReady()) throw new Error('the NATS queue is not ready');
    const client = this.client;
    await publishing(topic, (carrier) =>
      client.publish(this.subject(topic), JSON.stringify(data), {
        msgID: messageId,
        timeout: PUBLISH_TIMEOUT_MS,
        headers: natsHeaders(carrier),
      }),
    );
  }

  announce(notice: Notice, data: unknown): void {
    if (!this.connection || !this.connected || this.connection.isClosed()) return;
    this.connection.publish(this.subject(notice), JSON.stringify(data));
  }

  /** Subscribed on the connection there is now and on every one made later (the client renews it across reconnects). */
  listen(notice: Notice, listener: NoticeListener): void {
    this.listeners.push({ notice, listener });
    if (this.connection && !this.connection.isClosed()) this.subscribe(this.connection, notice, listener);
  }

  private subscribe(connection: NatsConnection, notice: Notice, listener: NoticeListener): void {
    connection.subscribe(this.subject(notice), {
      callback: (error, message) => {
        if (error) {
          this.logger.warn({ err: error, notice }, 'a notice subscription failed');
          listener.missed();
          return;
        }
        let data: unknown;
        try {
          data = message.json();
        } catch (parseError) {
          this.logger.warn({ err: parseError, notice }, 'a notice that is not JSON was ignored');
          return;
        }
        listener.heard(data);
      },
    });
  }

  consume(topic: Topic, consumerName: string, handler: MessageHandler): void {
    const registration = { topic, consumerName, handler };
    this.registrations.push(registration);
    if (this.consuming) this.running.push(this.keepConsuming(registration));
  }

  async consumerStates(): Promise<ConsumerState[]> {
    const manager = this.manager;
    if (!this.ready || !manager) return [];
    const states: ConsumerState[] = [];
    for (const { topic, consumerName } of this.registrations) {
      const info = await manager.consumers.info(this.streamName(topic), consumerName);
      states.push({
        topic,
        consumer: consumerName,
        pending: info.num_pending + info.num_ack_pending,
        redelivered: info.num_redelivered,
      });
    }
    return states;
  }

  /**
   * Stops the consumers taking messages, waits for the handlers running now and their acks,
   * and only then drains the connection, which sends those acks before it closes: a message
   * handled before close is not delivered again at the next start. The set-up's retries stop
   * (an attempt under way ends within its timeout and closes what it opened), so nothing of
   * the queue is left running once this resolves.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.ready = false;
    for (const wake of this.pauses) wake();
    for (const waiter of this.whenReadyWaiters.splice(0)) {
      waiter.reject(new Error('the NATS queue closed before it was ready'));
    }
    for (const messages of this.liveMessages) messages.stop();
    await Promise.allSettled([...this.handling]);
    const connection = this.connection;
    if (connection && !connection.isClosed()) {
      await connection.drain().catch(async (error: unknown) => {
        this.logger.warn({ err: error }, 'the NATS connection did not drain; closing it');
        await connection.close();
      });
    }
    await Promise.allSettled([...this.running, this.settingUp]);
  }

  private subject(topic: Topic | Notice): string {
    return `${this.prefix}${topic}`;
  }

  private streamName(topic: Topic): string {
    return `${this.prefix}${topic}`;
  }

  /**
   * Runs the set-up until it succeeds, with backoff (0.5 s doubling to 30 s), and again
   * whenever it is wanted anew (a reconnect) while it runs. Each failure is logged with the
   * address; close ends the retries.
   */
  private setUpUntilReady(): void {
    this.setUpWanted = true;
    if (this.settingUp) return;
    this.settingUp = (async () => {
      let failures = 0;
      while (this.setUpWanted && !this.closing) {
        this.setUpWanted = false;
        try {
          await this.setUp();
          failures = 0;
        } catch (error) {
          if (this.closing) return;
          failures += 1;
          this.setUpWanted = true;
          const retryInMs = retryDelayMs(failures);
          this.logger.warn(
            { err: error, url: this.url, attempt: failures, retryInMs },
            this.connection
              ? 'the NATS queue could not be set up; trying again'
              : 'could not connect to NATS; trying again',
          );
          await this.pause(retryInMs);
        }
      }
    })().finally(() => (this.settingUp = undefined));
  }

  /** Connects (the client then reconnects by itself), then makes sure of streams and consumers. */
  private async setUp(): Promise<void> {
    this.ready = false;
    const connection = await this.connectOnce();
    const manager = await jetstreamManager(connection, { timeout: API_TIMEOUT_MS });
    let madeStreams = false;
    for (const topic of Object.values(TOPICS))
      madeStreams = (await this.ensureStream(manager, topic)) || madeStreams;
    for (const registration of this.registrations) await this.ensureConsumer(manager, registration);
    if (this.closing || this.setUpWanted) return;
    this.manager = manager;
    this.client = jetstream(connection, { timeout: API_TIMEOUT_MS });
    this.ready = true;
    this.logger.info({ url: this.url }, 'connected to NATS JetStream; streams and consumers are in place');
    if (!this.consuming) {
      this.consuming = true;
      for (const registration of this.registrations) this.running.push(this.keepConsuming(registration));
    } else if (madeStreams) {
      // The server had lost its streams: the running iterators pull from consumers that are
      // gone and would notice only at their next heartbeat. Start them again at once.
      for (const messages of this.liveMessages) messages.stop();
    }
    for (const waiter of this.whenReadyWaiters.splice(0)) waiter.resolve();
  }

  /**
   * The connection, made if there is none or the client closed it for good. A first attempt
   * that fails rejects (it is retried by setUpUntilReady, which logs it); once connected, the
   * client reconnects by itself for as long as it takes.
   */
  private async connectOnce(): Promise<NatsConnection> {
    if (this.connection && !this.connection.isClosed()) return this.connection;
    this.connection = undefined;
    const connection = await connect({
      servers: this.url,
      name: this.clientName,
      timeout: API_TIMEOUT_MS,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
    });
    if (this.closing) {
      await connection.close();
      throw new Error('the queue closed while connecting');
    }
    this.connection = connection;
    this.connected = true;
    for (const { notice, listener } of this.listeners) {
      this.subscribe(connection, notice, listener);
      listener.missed();
    }
    void this.watchStatus(connection);
    void connection.closed().then((reason) => this.whenClosed(connection, reason));
    return connection;
  }

  private async watchStatus(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        this.logger.warn({ url: this.url }, 'NATS connection lost; reconnecting');
      }
      if (status.type === 'reconnect') {
        this.connected = true;
        this.logger.info('NATS connection restored; making sure of streams and consumers');
        for (const { listener } of this.listeners) listener.missed();
        if (!this.closing) this.setUpUntilReady();
      }
    }
  }

  /** A connection closed other than by close() (the client gave up on it): connect anew. */
  private whenClosed(connection: NatsConnection, reason: void | Error): void {
    if (this.closing || this.connection !== connection) return;
    this.connected = false;
    this.ready = false;
    this.logger.warn({ err: reason, url: this.url }, 'the NATS connection closed; connecting again');
    this.setUpUntilReady();
  }

  /** Makes the topic's stream unless it exists; answers whether it had to. */
  private async ensureStream(manager: JetStreamManager, topic: Topic): Promise<boolean> {
    const name = this.streamName(topic);
    try {
      await manager.streams.info(name);
      return false;
    } catch (error) {
      if (!isStreamNotFound(error)) throw error;
    }
    await manager.streams.add({
      name,
      subjects: [this.subject(topic)],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: nanos(RETENTION_MS),
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    });
    return true;
  }

  /** Creates the durable consumer, or finds it as it is (the same configuration is accepted again). */
  private async ensureConsumer(
    manager: JetStreamManager,
    { topic, consumerName }: Registration,
  ): Promise<void> {
    await manager.consumers.add(this.streamName(topic), {
      durable_name: consumerName,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ACK_WAIT_MS),
      max_deliver: -1,
    });
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
      if (this.closing) return;
      await this.pause(CONSUMER_RESTART_MS);
    }
  }

  /**
   * Consumes until the iterator stops. The set-up made the consumer; one registered after it,
   * or lost with a server's restart, is made here.
   */
  private async runConsumer(registration: Registration): Promise<void> {
    const { topic, consumerName } = registration;
    const stream = this.streamName(topic);
    const consumer = await this.client!.consumers.get(stream, consumerName).catch(async (error: unknown) => {
      if (!isConsumerNotFound(error)) throw error;
      await this.ensureConsumer(this.manager!, registration);
      return this.client!.consumers.get(stream, consumerName);
    });
    const messages = await consumer.consume({ max_messages: 64 });
    this.liveMessages.add(messages);
    // The queue may have closed while the iterator was being made: it takes nothing then.
    if (this.closing) messages.stop();
    try {
      for await (const message of messages) {
        const handled = this.handle(message, stream, registration);
        this.handling.add(handled);
        await handled.finally(() => this.handling.delete(handled));
      }
    } finally {
      this.liveMessages.delete(messages);
    }
  }

  /** Runs the handler and acks, naks or terminates the message by its outcome; never rejects. */
  private async handle(
    message: JsMsg,
    stream: string,
    { topic, consumerName, handler }: Registration,
  ): Promise<void> {
    // Already pulled when close stopped the consumer: handed back at once, for the next start.
    if (this.closing) {
      message.nak();
      return;
    }
    const id = message.headers?.get('Nats-Msg-Id') || `${stream}:${message.seq}`;
    const deliveryCount = message.info.deliveryCount;
    try {
      await consuming(topic, consumerName, traceCarrier(message), () =>
        handler({ id, data: message.json<unknown>(), deliveryCount }),
      );
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

  /** Waits `ms`, or less if the queue closes meanwhile (not at all once it is closing). */
  private pause(ms: number): Promise<void> {
    if (this.closing) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.pauses.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.pauses.add(wake);
    });
  }
}

/**
 * Only JetStream's "stream not found" means the stream must be made. Any other failure of
 * `streams.info` (a timeout, JetStream unavailable) fails the set-up, which is tried again;
 * treating it as missing would try to add a stream that may well exist.
 */
export function isStreamNotFound(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound;
}

function isConsumerNotFound(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound;
}

/** The trace context as NATS headers; none when there is none (tracing off). */
function natsHeaders(carrier: TraceCarrier): MsgHdrs | undefined {
  const entries = Object.entries(carrier);
  if (entries.length === 0) return undefined;
  const result = headers();
  for (const [name, value] of entries) result.set(name, value);
  return result;
}

/** The trace context a message arrived with, if any. */
function traceCarrier(message: JsMsg): TraceCarrier | undefined {
  const traceparent = message.headers?.get('traceparent');
  if (!traceparent) return undefined;
  const tracestate = message.headers?.get('tracestate');
  return tracestate ? { traceparent, tracestate } : { traceparent };
}
