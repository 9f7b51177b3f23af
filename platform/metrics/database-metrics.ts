import type { Database } from '../db/database.js';
import type { Metrics } from './metrics.js';

/** What tarn, knex's pool under MikroORM, tells of itself. */
interface PoolState {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The pool's connections in use, idle, and the acquires waiting for one, read when scraped. */
export function watchDatabasePool(metrics: Metrics, service: string, orm: Database): void {
  const gauge = 'db_pool_connections';
  metrics.sampled(
    [
      {
        name: gauge,
        help: 'Database pool connections by state (used, free) and acquires waiting (pending), by service.',
      },
    ],
    async () => {
      // knex's client keeps its pool untyped; tarn's methods are what it is.
      const pool = (orm.em.getConnection().getKnex().client as { pool?: PoolState }).pool;
      if (!pool) return [];
      return [
        { gauge, labels: { service, state: 'used' }, value: pool.numUsed() },
        { gauge, labels: { service, state: 'free' }, value: pool.numFree() },
        { gauge, labels: { service, state: 'pending' }, value: pool.numPendingAcquires() },
      ];
    },
  );
}

/**
 * The service's outbox, in one query per scrape: messages committed and not yet published, and how
 * long the oldest has waited. A depth that grows, or an age past seconds, means the relay cannot
 * reach the queue.
 */
export function watchOutbox(metrics: Metrics, service: string, orm: Database): void {
  const table = `"${orm.config.get('schema')}"."outbox_message"`;
  metrics.sampled(
    [
      { name: 'outbox_messages', help: 'Messages in the outbox, not yet published, by service.' },
      {
        name: 'outbox_oldest_message_age_seconds',
        help: 'How long the oldest message in the outbox has waited, by service (0 when empty).',
      },
    ],
    async () => {
      const [row] = await orm.em
        .fork()
        .execute<{ depth: number; oldest: number }[]>(
          `select count(*)::int as depth, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest from ${table}`,
        );
      return [
        { gauge: 'outbox_messages', labels: { service }, value: row?.depth ?? 0 },
        { gauge: 'outbox_oldest_message_age_seconds', labels: { service }, value: row?.oldest ?? 0 },
      ];
    },
  );
}
