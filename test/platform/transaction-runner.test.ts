import { Migration } from '@mikro-orm/migrations';
import { openDatabase, type Database } from '../../platform/db/database.js';
import { createLogger } from '../../platform/logging/logger.js';
import { OutboxMessage } from '../../platform/outbox/outbox-message.entity.js';
import { outboxTableSql } from '../../platform/outbox/outbox-table.js';
import { TransactionRunner } from '../../platform/outbox/transaction-runner.js';
import { TOPICS } from '../../platform/queue/queue.js';
import { createTestDatabase, dropTestDatabase } from '../support/test-database.js';
import { TestClock } from '../support/test-clock.js';

const SCHEMA = 'outbox_test';

class OutboxTestMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create schema if not exists "${SCHEMA}";`);
    this.addSql(`create table "${SCHEMA}"."change" ("id" int primary key);`);
    for (const sql of outboxTableSql(SCHEMA)) this.addSql(sql);
  }
}

let database: { name: string; url: string };
let orm: Database;
let nudges: number;
let runner: TransactionRunner;

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await openDatabase({
    url: database.url,
    schema: SCHEMA,
    entities: [OutboxMessage],
    migrations: [{ name: 'OutboxTestMigration', class: OutboxTestMigration }],
    logger: createLogger('silent'),
  });
  runner = new TransactionRunner(orm, new TestClock(), () => (nudges += 1));
});

afterAll(async () => {
  await orm.close();
  await dropTestDatabase(database.name);
});

beforeEach(async () => {
  nudges = 0;
  await orm.em.fork().getConnection().execute(`truncate "${SCHEMA}"."change", "${SCHEMA}"."outbox_message"`);
});

const count = async (table: string): Promise<number> => {
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute<{ n: number }[]>(`select count(*)::int as n from "${SCHEMA}"."${table}"`);
  return rows[0]!.n;
};

describe('architecture "transactional outbox": a change and its messages commit together or not at all', () => {
  it('commits the change and its message in one transaction, then nudges the relay once', async () => {
    await runner.run(async ({ em, outbox }) => {
      await em.execute(`insert into "${SCHEMA}"."change" values (1)`);
      outbox.add(TOPICS.auditEntries, { entityId: '1' });
    });
    expect(await count('change')).toBe(1);
    expect(await count('outbox_message')).toBe(1);
    expect(nudges).toBe(1);
  });

  it('a change that fails after adding its message leaves no outbox row and no change, and nudges nothing', async () => {
    const failure = new Error('the change was refused');
    await expect(
      runner.run(async ({ em, outbox }) => {
        await em.execute(`insert into "${SCHEMA}"."change" values (2)`);
        outbox.add(TOPICS.auditEntries, { entityId: '2' });
        await em.flush();
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await count('outbox_message')).toBe(0);
    expect(await count('change')).toBe(0);
    expect(nudges).toBe(0);
  });

  it('a transaction that writes no message does not nudge the relay', async () => {
    await runner.run(async ({ em }) => {
      await em.execute(`insert into "${SCHEMA}"."change" values (3)`);
    });
    expect(nudges).toBe(0);
  });
});
