import { randomUUID } from 'node:crypto';
import { AuditLog } from '../../platform/audit-log/audit-log.js';
import { openDatabase, type Database } from '../../platform/db/database.js';
import { createLogger } from '../../platform/logging/logger.js';
import { PermanentMessageError } from '../../platform/queue/queue.js';
import { AUDIT_ENTITIES } from '../../launcher/services/audit.js';
import { AUDIT_MIGRATIONS } from '../../subgraphs/audit/migrations/index.js';
import { AUDIT_SCHEMA } from '../../subgraphs/audit/services/audit-entry.repository.js';
import { AuditService } from '../../subgraphs/audit/services/audit.service.js';
import { AuditEntry } from '../../subgraphs/audit/entities/audit-entry.entity.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let orm: Database;
let audit: AuditService;

beforeAll(async () => {
  // The system provides a database of this test's own; the service is then used directly.
  system = await startTestSystem({ processes: ['audit'] });
  orm = await openDatabase({
    url: system.databaseUrl,
    schema: AUDIT_SCHEMA,
    entities: AUDIT_ENTITIES,
    migrations: AUDIT_MIGRATIONS,
    logger: createLogger('silent'),
  });
  audit = new AuditService({ orm, clock: system.clock, authNotRequired: [] });
});

afterAll(async () => {
  await orm.close();
  await system.stop();
});

describe('issue 2 "consumers store idempotently": a redelivered audit message is stored once', () => {
  it('stores a message delivered twice once', async () => {
    const organizationId = randomUUID();
    const data = new AuditLog(system.clock).message(
      { organizationId, accountId: randomUUID() },
      {
        entryType: 'Group',
        entityName: 'Group',
        entityId: 4,
        version: 3,
        change: { action: 'Update', before: { a: 1 }, after: { a: 2 } },
      },
    );
    const message = { id: randomUUID(), data, deliveryCount: 1 };
    await audit.store(message);
    await audit.store({ ...message, deliveryCount: 2 });
    const stored = await orm.em.fork().find(AuditEntry, { organizationId });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      entityId: '4',
      version: 3,
      action: 'Update',
      beforeState: '{"a":1}',
      afterState: '{"a":2}',
    });
  });

  it('stores two deliveries racing each other once', async () => {
    const organizationId = randomUUID();
    const data = new AuditLog(system.clock).message(
      { organizationId, accountId: null },
      { entryType: 'User', entityName: 'User', entityId: 'x', change: { action: 'Delete', before: {} } },
    );
    const message = { id: randomUUID(), data, deliveryCount: 1 };
    await Promise.all([audit.store(message), audit.store(message), audit.store(message)]);
    expect(await orm.em.fork().count(AuditEntry, { organizationId })).toBe(1);
  });

  it('refuses, for good, a message that is not an audit entry', async () => {
    await expect(
      audit.store({ id: randomUUID(), data: { hello: 'world' }, deliveryCount: 1 }),
    ).rejects.toBeInstanceOf(PermanentMessageError);
  });
});

describe('spec 2 Audit entry: states as the writing service serialises them (create: after; update: both; delete: before)', () => {
  const log = () => new AuditLog(system.clock);
  const author = { organizationId: randomUUID(), accountId: randomUUID() };

  it('create carries the after state only', () => {
    const message = log().message(author, {
      entryType: 'Tag',
      entityName: 'Tag',
      entityId: 1,
      change: { action: 'Create', after: { name: 'EU' } },
    });
    expect([message.beforeState, message.afterState]).toEqual([null, '{"name":"EU"}']);
  });

  it('update carries both', () => {
    const message = log().message(author, {
      entryType: 'Tag',
      entityName: 'Tag',
      entityId: 1,
      change: { action: 'Update', before: { v: 1 }, after: { v: 2 } },
    });
    expect([message.beforeState, message.afterState]).toEqual(['{"v":1}', '{"v":2}']);
  });

  it('delete carries the before state only', () => {
    const message = log().message(author, {
      entryType: 'Tag',
      entityName: 'Tag',
      entityId: 1,
      change: { action: 'Delete', before: { v: 2 } },
    });
    expect([message.beforeState, message.afterState]).toEqual(['{"v":2}', null]);
  });
});
