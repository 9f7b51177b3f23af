import type { Logger } from '../logging/logger.js';
import type { TransactionRunner } from '../outbox/transaction-runner.js';
import { TOPICS } from '../queue/queue.js';

/**
 * Credits spent by billable calls, summed per organization and published as one `credits-spent`
 * message per organization (spec 6) through the outbox, at most `flushMs` after the first spend
 * and when the service stops. A message leaves only in a committed transaction, and the account
 * service counts each message id once, so nothing is counted twice; what a crash of the process
 * can lose is the spend of the last `flushMs` (decisions "Credits").
 */
export class SpendAggregator {
  private readonly pending = new Map<string, number>();
  /** The batch being written to the outbox: not pending any more, not yet published either. */
  private writing = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly logger: Logger,
    private readonly flushMs = 1_000,
  ) {}

  add(organizationId: string, amount: number): void {
    this.pending.set(organizationId, (this.pending.get(organizationId) ?? 0) + amount);
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  /** Spent here and not yet published: the balance the account service answers does not count it yet. */
  unpublished(organizationId: string): number {
    return (this.pending.get(organizationId) ?? 0) + (this.writing.get(organizationId) ?? 0);
  }

  /** Publishes what is pending now; on failure it stays pending and is tried again. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    if (this.pending.size === 0) return;
    const batch = new Map(this.pending);
    this.writing = batch;
    this.pending.clear();
    this.flushing = this.transactions
      .run(async ({ outbox }) => {
        for (const [organizationId, amount] of batch) {
          outbox.add(TOPICS.creditsSpent, { OrganizationId: organizationId, Amount: amount });
        }
      })
      .catch((error: unknown) => {
        for (const [organizationId, amount] of batch) this.add(organizationId, amount);
        this.logger.warn({ err: error }, 'credits spent could not be recorded yet; trying again');
      })
      .finally(() => {
        this.writing = new Map();
        this.flushing = undefined;
      });
    await this.flushing;
  }

  /** At stop: what is pending is published. */
  stop(): Promise<void> {
    return this.flush();
  }
}
