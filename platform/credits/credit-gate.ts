import type { Caller } from '../auth/caller.js';
import type { CreditBalance } from '../clients/account-client.js';
import { InsufficientCreditsError, InternalError } from '../errors/domain-errors.js';
import type { SpendAggregator } from './spend-aggregator.js';

/** Where balances come from: the account service's GET /organizations/me/credits, with the caller's token. */
export interface CreditBalances {
  credits(token: string): Promise<CreditBalance>;
}

/**
 * The one gate every billable call goes through (spec 8 "Credit rules"): a cost of 0 is free;
 * otherwise the organization's balance is read first, and a call it cannot afford is 429 with
 * the spec's text, nothing charged. The work runs only then, and only when it succeeds is its
 * cost spent, so a 4xx or 5xx costs nothing. A balance that cannot be read is a 500.
 */
export class CreditGate {
  constructor(
    private readonly balances: CreditBalances,
    private readonly spend: SpendAggregator,
  ) {}

  async charge<T>(caller: Caller, cost: number, work: () => Promise<T>): Promise<T> {
    if (cost <= 0) return work();
    const available = await this.available(caller);
    if (cost > available) throw new InsufficientCreditsError(Math.max(available, 0), cost);
    const result = await work();
    this.spend.add(caller.organizationId, cost);
    return result;
  }

  /** What the organization can still spend: its balance, less what this service spent and has not yet published. */
  private async available(caller: Caller): Promise<number> {
    let balance: CreditBalance;
    try {
      balance = await this.balances.credits(caller.token);
    } catch (error) {
      // Spec 7: a balance that cannot be read is a 500 (whatever the account service answered).
      throw new InternalError('The credit balance could not be read.', { cause: error });
    }
    return balance.totalCredits - balance.usedCredits - this.spend.unpublished(caller.organizationId);
  }
}
