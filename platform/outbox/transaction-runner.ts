import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Database } from '../db/database.js';
import { scopeToOrganization } from '../db/tenancy.js';
import type { Topic } from '../queue/queue.js';
import type { Clock } from '../time/clock.js';
import { OutboxMessage } from './outbox-message.entity.js';

/** Adds messages to the outbox of the transaction it was handed. */
export interface OutboxWriter {
  add(topic: Topic, payload: unknown): void;
}

export interface Transaction {
  readonly em: EntityManager;
  readonly outbox: OutboxWriter;
}

/** Runs a change in one transaction with its messages, its rows limited to `organizationId` when one is given. */
export interface Transactions {
  run<T>(work: (tx: Transaction) => Promise<T>, organizationId?: string): Promise<T>;
}

/**
 * Runs a change in one database transaction together with the messages it causes, so a
 * change is never committed without its audit entry or event, nor an event without its
 * change. After a commit that wrote messages, the relay is nudged to publish them at once.
 */
export class TransactionRunner implements Transactions {
  constructor(
    private readonly orm: Database,
    private readonly clock: Clock,
    private readonly onMessagesCommitted: () => void,
  ) {}

  /** Runs `work` in a transaction, its rows limited to `organizationId` when one is given. */
  async run<T>(work: (tx: Transaction) => Promise<T>, organizationId?: string): Promise<T> {
    let wroteMessages = false;
    const root = this.orm.em.fork();
    if (organizationId) scopeToOrganization(root, organizationId);
    const result = await root.transactional(async (em) => {
      const outbox: OutboxWriter = {
        add: (topic, payload) => {
          wroteMessages = true;
          em.create(OutboxMessage, { id: randomUUID(), topic, payload, createdAt: this.clock.now() });
        },
      };
      return work({ em, outbox });
    });
    if (wroteMessages) this.onMessagesCommitted();
    return result;
  }
}
