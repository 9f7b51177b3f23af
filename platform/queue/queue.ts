/**
 * The message queue every service uses: NATS JetStream when NATS_URL is set, an in-process
 * queue otherwise. Delivery is at least once; consumers must store idempotently, keyed by
 * the message id.
 */

/** Topics (queue names) and who reads them. */
export const TOPICS = {
  /** Audit entries recorded by the account, library and identity services; read by audit. */
  auditEntries: 'audit-entries',
  /** Credits spent by billable library calls (spec section 6); read by account. */
  creditsSpent: 'credits-spent',
} as const;
export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

/**
 * Notices: fan-out news for every running process that listens, not kept and not retried (core
 * NATS publish and subscribe). A listener that may have missed some is told so, and must find out
 * by itself what changed; they make a replica learn sooner, never be right.
 */
export const NOTICES = {
  /** An organization's library changed (data: the organization); read by every library replica. */
  libraryChanged: 'library-changed',
} as const;
export type Notice = (typeof NOTICES)[keyof typeof NOTICES];

export interface NoticeListener {
  heard(data: unknown): void;
  /** Notices may have been missed: the connection was lost, or made anew. */
  missed(): void;
}

export interface QueueMessage {
  /** The publisher's id for this message; the same id on every redelivery. */
  readonly id: string;
  readonly data: unknown;
  /** 1 on first delivery. */
  readonly deliveryCount: number;
}

/**
 * A handler that resolves has processed the message (it is acknowledged). One that throws
 * is retried later, unless it throws PermanentMessageError: then the message can never
 * succeed, and it is logged and dropped rather than retried forever.
 */
/** A consumer's backlog, for metrics: what waits for it, and what of that is being delivered again. */
export interface ConsumerState {
  readonly topic: Topic;
  readonly consumer: string;
  /** Messages not yet delivered, or delivered and not yet acknowledged. */
  readonly pending: number;
  /** Of those, the ones delivered before and failed or timed out. */
  readonly redelivered: number;
}

export type MessageHandler = (message: QueueMessage) => Promise<void>;

export class PermanentMessageError extends Error {}

export interface Queue {
  readonly kind: 'nats' | 'in-process';
  /** Connects (in the background for NATS: the service starts while the queue is away). */
  start(): Promise<void>;
  /**
   * Resolves once connected with everything set up to publish and consume, however long
   * that takes (the launcher prints "Ready:" only then); rejects if the queue closes first.
   */
  whenReady(): Promise<void>;
  isReady(): boolean;
  /** Resolves once the queue has durably accepted the message; rejects when it cannot. */
  publish(topic: Topic, data: unknown, messageId: string): Promise<void>;
  /** Registers a durable consumer: messages published while it was away are delivered later. */
  consume(topic: Topic, consumerName: string, handler: MessageHandler): void;
  /** Sends a notice to every listener now connected, this process's too; dropped while disconnected. */
  announce(notice: Notice, data: unknown): void;
  listen(notice: Notice, listener: NoticeListener): void;
  /** Stops consuming after the handlers running now finish, then disconnects. */
  /** Each consumer of this process, as the queue knows it now; none while the queue is not connected. */
  consumerStates(): Promise<ConsumerState[]>;
  close(): Promise<void>;
}

/** How long a failed message waits before its next attempt: 0.5 s doubling to 30 s. */
export function retryDelayMs(deliveryCount: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, deliveryCount - 1));
}
