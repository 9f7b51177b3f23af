import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger.js';
import { retryDelayMs, TOPICS, type Queue } from '../queue/queue.js';
import type { AuditAuthor, AuditLog, AuditRecord } from './audit-log.js';
import type { AuditMessage } from './audit-message.js';

/**
 * How a service without a database (the identity service) records audit entries: straight
 * onto the queue, each with its own message id. While the queue refuses, entries wait here
 * in order and are retried with backoff; the caller never waits and never fails. Up to
 * `capacity` entries wait; past that the oldest is dropped with an error in the log. A
 * crash loses what was waiting: the price of keeping the identity service storage-free
 * (docs/decisions.md).
 */
export class DirectAuditPublisher {
  private readonly waiting: { id: string; message: AuditMessage }[] = [];
  private flushing = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly queue: Queue,
    private readonly auditLog: AuditLog,
    private readonly logger: Logger,
    private readonly capacity = 10_000,
  ) {}

  record(author: AuditAuthor, record: AuditRecord): void {
    if (this.waiting.length >= this.capacity) {
      const dropped = this.waiting.shift();
      this.logger.error({ messageId: dropped?.id }, 'audit entry dropped: too many waiting for the queue');
    }
    this.waiting.push({ id: randomUUID(), message: this.auditLog.message(author, record) });
    void this.flush();
  }

  /** Entries not yet accepted by the queue. */
  pending(): number {
    return this.waiting.length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.waiting.length > 0)
      this.logger.error({ entries: this.waiting.length }, 'stopping with audit entries not yet published');
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.stopped) return;
    this.flushing = true;
    try {
      while (this.waiting.length > 0) {
        const next = this.waiting[0]!;
        await this.queue.publish(TOPICS.auditEntries, next.message, next.id);
        this.waiting.shift();
      }
      this.failures = 0;
    } catch (error) {
      this.failures += 1;
      if (this.failures === 1) this.logger.warn({ err: error }, 'audit entries wait for the queue');
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.flush(), retryDelayMs(this.failures));
    } finally {
      this.flushing = false;
    }
  }
}
