import type { Database } from '../db/database.js';
import type { Logger } from '../logging/logger.js';
import { retryDelayMs, type Queue, type Topic } from '../queue/queue.js';

interface OutboxRow {
  id: string;
  topic: Topic;
  payload: unknown;
}

/**
 * Publishes committed outbox messages, at least once, with the row's id as message id,
 * then deletes them. Replicas share the table safely: each claims its batch with
 * `for update skip locked`. While the queue is away, rows stay and the relay backs off;
 * nothing is lost and no caller waits on it.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private wanted = false;
  private stopped = true;
  private failures = 0;

  constructor(
    private readonly orm: Database,
    private readonly queue: Queue,
    private readonly logger: Logger,
    private readonly options: { idleMs: number; batchSize: number } = { idleMs: 1_000, batchSize: 100 },
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Asks for a run as soon as possible (after a commit that wrote messages). */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.wanted = true;
    else if (this.failures === 0) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.run().finally(() => (this.running = undefined));
    }, delayMs);
  }

  private async run(): Promise<void> {
    if (this.stopped) return;
    let delay = this.options.idleMs;
    try {
      while (!this.stopped && (await this.publishBatch()) === this.options.batchSize);
      if (this.failures > 0) this.logger.info('outbox relay is publishing again');
      this.failures = 0;
    } catch (error) {
      this.failures += 1;
      delay = retryDelayMs(this.failures);
      const log =
        this.failures === 1 ? this.logger.warn.bind(this.logger) : this.logger.debug.bind(this.logger);
      log(
        { err: error, retryInMs: delay },
        'outbox relay could not publish; the messages stay in the outbox',
      );
    }
    if (this.stopped) return;
    if (this.wanted && this.failures === 0) delay = 0;
    this.wanted = false;
    this.schedule(delay);
  }

  /** Publishes one batch; returns how many rows it claimed. Throws after committing what did publish. */
  private async publishBatch(): Promise<number> {
    const table = `"${this.orm.config.get('schema')}"."outbox_message"`;
    let firstFailure: unknown;
    const claimed = await this.orm.em.fork().transactional(async (em) => {
      const rows: OutboxRow[] = await em.execute(
        `select id, topic, payload from ${table} order by created_at limit ? for update skip locked`,
        [this.options.batchSize],
      );
      if (rows.length === 0) return 0;
      const results = await Promise.allSettled(
        rows.map((row) => this.queue.publish(row.topic, row.payload, row.id)),
      );
      const published = rows
        .filter((_, index) => results[index]!.status === 'fulfilled')
        .map((row) => row.id);
      firstFailure = results.find((result) => result.status === 'rejected')?.reason;
      if (published.length > 0) await em.execute(`delete from ${table} where id in (?)`, [published]);
      return rows.length;
    });
    if (firstFailure !== undefined) {
      throw firstFailure instanceof Error
        ? firstFailure
        : new Error('publishing failed', { cause: firstFailure });
    }
    return claimed;
  }
}
