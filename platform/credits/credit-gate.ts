import type { Caller } from '../auth/caller.js';
import type { CreditBalance } from '../clients/account-client.js';
import { InsufficientCreditsError, InternalError } from '../errors/domain-errors.js';
import type { Tally } from '../metrics/metrics.js';
import type { Logger } from '../logging/logger.js';
import type { SpendAggregator } from './spend-aggregator.js';

/** Where balances come from: the account service's GET /organizations/me/credits, with the caller's token. */
export interface CreditBalances {
  credits(token: string): Promise<CreditBalance>;
}

/** What the gate knows of an organization's balance from its last read. */
interface Ledger {
  total: number;
  /** What it could spend when the balance was read: total less used, less this process's spend the balance did not count yet. */
  availableAtRead: number;
  /** Spent here since. */
  spentSince: number;
  readAt: number;
  refreshing: boolean;
}

export interface CreditGateTimings {
  /** A balance older than this is read again in the background, while the one known still serves. */
  refreshMs: number;
  /** A balance older than this is not trusted: the call waits for a fresh one. */
  trustMs: number;
}

const TIMINGS: CreditGateTimings = { refreshMs: 250, trustMs: 2_000 };

export interface CreditGateOptions {
  /** Counts each call refused (429). */
  refused?: Tally;
  timings?: CreditGateTimings;
  now?: () => number;
}

/**
 * Whether a call may be let through on a balance read a moment ago (decisions "The credit gate"):
 * only when, after it, the organization still has at least 100 calls' worth and a twentieth of its
 * credits, so spend this process has not seen (other replicas', in the moment since the read)
 * cannot have brought it to the limit. Nearer the limit every call reads the balance.
 */
export function farFromLimit(available: number, total: number, cost: number): boolean {
  return available - cost >= Math.max(100 * cost, total / 20);
}

/**
 * The one gate every billable call goes through (spec 8 "Credit rules"): a cost of 0 is free;
 * otherwise the organization's balance is read first, and a call it cannot afford is 429 with
 * the spec's text, nothing charged. The work runs only then, and only when it succeeds is its
 * cost spent, so a 4xx or 5xx costs nothing. A balance that cannot be read is a 500. Far from
 * the limit, the balance read a moment ago serves (and is read again in the background), so a
 * busy organization's calls make no round trip each to the account service.
 */
export class CreditGate {
  private readonly ledgers = new Map<string, Ledger>();
  /** Costs of calls let through and still running, per organization: held back until they end. */
  private readonly reserved = new Map<string, number>();
  private readonly timings: CreditGateTimings;
  private readonly now: () => number;

  constructor(
    private readonly balances: CreditBalances,
    private readonly spend: SpendAggregator,
    private readonly logger: Logger,
    private readonly options: CreditGateOptions = {},
  ) {
    this.timings = options.timings ?? TIMINGS;
    this.now = options.now ?? (() => performance.now());
  }

  async charge<T>(caller: Caller, cost: number, work: () => Promise<T>): Promise<T> {
    if (cost <= 0) return work();
    const organizationId = caller.organizationId;
    const ledger = this.trusted(caller, cost) ?? (await this.read(caller));
    const available = this.available(ledger, organizationId);
    if (cost > available) {
      this.options.refused?.inc();
      throw new InsufficientCreditsError(Math.max(available, 0), cost);
    }
    this.reserved.set(organizationId, this.reservedBy(organizationId) + cost);
    let result: T;
    try {
      result = await work();
    } finally {
      const left = this.reservedBy(organizationId) - cost;
      if (left > 0) this.reserved.set(organizationId, left);
      else this.reserved.delete(organizationId);
    }
    this.spent(organizationId, cost);
    return result;
  }

  /**
   * Charges a call whose work is done and cannot fail, when that needs no balance read: a cost
   * of 0, or a balance read a moment ago far from the limit. False when it cannot say without
   * reading one: then `charge` must.
   */
  chargeNow(caller: Caller, cost: number): boolean {
    if (cost <= 0) return true;
    if (!this.trusted(caller, cost)) return false;
    this.spent(caller.organizationId, cost);
    return true;
  }

  /** Spent: to be published, and counted in the ledger now (which may have been read again since the call began, without it). */
  private spent(organizationId: string, cost: number): void {
    this.spend.add(organizationId, cost);
    const current = this.ledgers.get(organizationId);
    if (current) current.spentSince += cost;
  }

  private reservedBy(organizationId: string): number {
    return this.reserved.get(organizationId) ?? 0;
  }

  private available(ledger: Ledger, organizationId: string): number {
    return ledger.availableAtRead - ledger.spentSince - this.reservedBy(organizationId);
  }

  /** The ledger known, when it is recent and the call leaves the organization far from its limit (read again in the background when due). */
  private trusted(caller: Caller, cost: number): Ledger | undefined {
    const known = this.ledgers.get(caller.organizationId);
    if (!known) return undefined;
    const age = this.now() - known.readAt;
    const available = this.available(known, caller.organizationId);
    if (age >= this.timings.trustMs || !farFromLimit(available, known.total, cost)) return undefined;
    if (age >= this.timings.refreshMs && !known.refreshing) void this.refresh(caller, known);
    return known;
  }

  private async read(caller: Caller): Promise<Ledger> {
    const readAt = this.now();
    let balance: CreditBalance;
    try {
      balance = await this.balances.credits(caller.token);
    } catch (error) {
      // Spec 7: a balance that cannot be read is a 500 (whatever the account service answered).
      throw new InternalError('The credit balance could not be read.', { cause: error });
    }
    const kept = this.ledgers.get(caller.organizationId);
    // A read that ended after a newer one began says less than it: it informs only this call.
    const newest = !kept || kept.readAt <= readAt;
    if (newest) this.spend.observed(caller.organizationId, balance.usedCredits);
    const ledger: Ledger = {
      total: balance.totalCredits,
      availableAtRead: balance.totalCredits - balance.usedCredits - this.spend.unseen(caller.organizationId),
      spentSince: 0,
      readAt,
      refreshing: false,
    };
    if (newest) this.ledgers.set(caller.organizationId, ledger);
    return ledger;
  }

  private async refresh(caller: Caller, known: Ledger): Promise<void> {
    known.refreshing = true;
    try {
      await this.read(caller);
    } catch (error) {
      // The known balance serves until it is too old to trust; then a call reads it, and fails as spec 7 says.
      this.logger.warn(
        { err: error, organizationId: caller.organizationId },
        'the credit balance could not be read again',
      );
    } finally {
      known.refreshing = false;
    }
  }
}
