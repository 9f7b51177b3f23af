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
  /** Written to the outbox, and not yet seen in a balance the account service answered. */
  private readonly uncounted = new Map<string, Uncounted>();
  /** The used credits of each organization's latest balance read. */
  private readonly lastUsed = new Map<string, number>();
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

  /**
   * Spent here that the balance the account service answers may not count yet: pending, being
   * written, or written to the outbox and not yet seen counted (the relay publishes it and the
   * account service consumes it a moment later).
   */
  unseen(organizationId: string): number {
    return (
      (this.pending.get(organizationId) ?? 0) +
      (this.writing.get(organizationId) ?? 0) +
      (this.uncounted.get(organizationId)?.amount ?? 0)
    );
  }

  /**
   * A balance read, newer than any before it: the spend written to the outbox that it shows
   * counted is no longer unseen (see `settled`).
   */
  observed(organizationId: string, usedCredits: number): void {
    this.lastUsed.set(organizationId, usedCredits);
    const uncounted = this.uncounted.get(organizationId);
    if (!uncounted) return;
    const left = settled(uncounted, usedCredits);
    if (left) this.uncounted.set(organizationId, left);
    else this.uncounted.delete(organizationId);
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
      .then(() => {
        for (const [organizationId, amount] of batch) this.handedOver(organizationId, amount);
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

  /**
   * Spend now in the outbox. Its baseline is the used credits of the last balance read, which
   * ended before this commit and so cannot count it; when earlier spend is still uncounted, the
   * baseline of that one stays.
   */
  private handedOver(organizationId: string, amount: number): void {
    const uncounted = this.uncounted.get(organizationId);
    this.uncounted.set(
      organizationId,
      uncounted
        ? { ...uncounted, amount: uncounted.amount + amount }
        : { amount, baseline: this.lastUsed.get(organizationId) ?? 0 },
    );
  }
}

/** Spend written to the outbox and not yet seen counted, with the used credits read before it was written. */
export interface Uncounted {
  amount: number;
  baseline: number;
}

/**
 * What is still uncounted after a balance read showing `usedCredits`: the used credits only grow
 * by spend the account service counted, so what they grew since the baseline is counted (this
 * process's first, as far as it goes); less than the baseline means a payment reset them to 0
 * (spec 3), after which growth is counted from 0. Another replica's spend counted meanwhile is
 * taken for this one's, which can only end the wait early (decisions "The credit gate").
 */
export function settled(uncounted: Uncounted, usedCredits: number): Uncounted | undefined {
  const baseline = usedCredits < uncounted.baseline ? 0 : uncounted.baseline;
  const counted = usedCredits - baseline;
  if (counted >= uncounted.amount) return undefined;
  return { amount: uncounted.amount - counted, baseline: usedCredits };
}
