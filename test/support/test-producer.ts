import { randomUUID } from 'node:crypto';
import { Migration } from '@mikro-orm/migrations';
import { AuditLog } from '../../platform/audit-log/audit-log.js';
import { openDatabase, type Database } from '../../platform/db/database.js';
import { createLogger } from '../../platform/logging/logger.js';
import { OutboxMessage } from '../../platform/outbox/outbox-message.entity.js';
import { outboxTableSql } from '../../platform/outbox/outbox-table.js';
import { createOutbox, type Outbox } from '../../platform/outbox/outbox.js';
import type { TestSystem } from './test-system.js';

const PRODUCER_SCHEMA = 'test_producer';

class ProducerMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create schema if not exists "${PRODUCER_SCHEMA}";`);
    for (const sql of outboxTableSql(PRODUCER_SCHEMA)) this.addSql(sql);
  }
}

/**
 * A stand-in for a service that records audit entries: its own schema and outbox, the
 * platform's AuditLog, and the system's real queue. It lets the platform's delivery path
 * be tested before the services that use it exist.
 */
export class TestProducer {
  private constructor(
    private readonly orm: Database,
    private readonly outbox: Outbox,
    private readonly auditLog: AuditLog,
  ) {}

  static async start(system: TestSystem): Promise<TestProducer> {
    const logger = createLogger(system.settings.logLevel);
    const orm = await openDatabase({
      url: system.databaseUrl,
      schema: PRODUCER_SCHEMA,
      entities: [OutboxMessage],
      migrations: [{ name: 'ProducerMigration', class: ProducerMigration }],
      logger,
    });
    const outbox = createOutbox(orm, system.system.platform!.queue, system.clock, logger);
    return new TestProducer(orm, outbox, new AuditLog(system.clock));
  }

  /** Records the creation of a tag, as a service would inside the transaction of the change. */
  record(organizationId: string, entityId: string): Promise<void> {
    return this.outbox.transactions.run(async ({ outbox }) => {
      this.auditLog.record(
        outbox,
        { organizationId, accountId: randomUUID() },
        {
          entryType: 'Tag',
          entityName: 'Tag',
          entityId,
          version: 1,
          change: { action: 'Create', after: { entityId } },
        },
      );
    });
  }

  /** Messages committed but not yet published. */
  pending(): Promise<number> {
    return this.orm.em.fork().count(OutboxMessage, {});
  }

  async stop(): Promise<void> {
    await this.outbox.relay.stop();
    await this.orm.close();
  }
}
