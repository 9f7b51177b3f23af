import type { Database } from '../db/database.js';
import type { Logger } from '../logging/logger.js';
import type { Queue } from '../queue/queue.js';
import type { Clock } from '../time/clock.js';
import { OutboxRelay } from './outbox-relay.js';
import { TransactionRunner } from './transaction-runner.js';

export interface Outbox {
  /** Runs changes together with the messages they cause. */
  readonly transactions: TransactionRunner;
  /** Publishes what the transactions committed; stop it before closing the database. */
  readonly relay: OutboxRelay;
}

/** The outbox of one service's database, with its relay started. */
export function createOutbox(orm: Database, queue: Queue, clock: Clock, logger: Logger): Outbox {
  const relay = new OutboxRelay(orm, queue, logger.child({ component: 'outbox-relay' }));
  const transactions = new TransactionRunner(orm, clock, () => relay.nudge());
  relay.start();
  return { transactions, relay };
}
