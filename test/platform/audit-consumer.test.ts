import { randomUUID } from 'node:crypto';
import { AuditLog, type AuditRecord } from '../../platform/audit-log/audit-log.js';
import type { QueueMessage } from '../../platform/queue/queue.js';
import { openDatabase, type Database } from '../../platform/db/database.js';
import { createLogger } from '../../platform/logging/logger.js';
import { AUDIT_ENTITIES } from '../../launcher/services/audit.js';
import { AUDIT_MIGRATIONS } from '../../subgraphs/audit/migrations/index.js';
import { AUDIT_SCHEMA } from '../../subgraphs/audit/audit-entry.repository.js';
import { AuditService } from '../../subgraphs/audit/audit.service.js';
import { AuditEntry } from '../../subgraphs/audit/audit-entry.entity.js';
import { ParkedMessage } from '../../subgraphs/audit/parked-message.entity.js';
import { MAX_POSTGRES_INTEGER } from '../../platform/db/postgres-integer.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { writeEntry } from '../support/audit-log.js';

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
  audit = new AuditService({ orm, clock: system.clock, logger: createLogger('silent'), authNotRequired: [] });
});

afterAll(async () => {
  await orm.close();
  await system.stop();
});

describe('spec 6 "every create, update and delete writes one entry": a delivered audit message is stored once, however often it is redelivered', () => {
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

  it('parks a message that is not an audit entry (decisions "Ids and versions"): kept, not dropped', async () => {
    const message = { id: randomUUID(), data: { hello: 'world' }, deliveryCount: 1 };
    await audit.store(message);
    expect(await parked(message.id)).toMatchObject({ data: '{"hello":"world"}', attempts: 1 });
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

/** A message as a service's outbox delivers it, with an id of its own. */
function delivery(organizationId: string, record: AuditRecord): QueueMessage {
  return {
    id: randomUUID(),
    data: new AuditLog(system.clock).message({ organizationId, accountId: randomUUID() }, record),
    deliveryCount: 1,
  };
}

const parked = (messageId: string) => orm.em.fork().findOne(ParkedMessage, { messageId });

const stored = (organizationId: string) =>
  orm.em.fork().find(AuditEntry, { organizationId }, { orderBy: { id: 'asc', version: 'asc' } });

describe('spec 9.2: delivered entries of one entity share an id and differ by version', () => {
  it("an entity's Create, Update and Delete share the id; another entity takes the next one", async () => {
    const organizationId = randomUUID();
    const group = (id: number, version: number, change: AuditRecord['change']): QueueMessage =>
      delivery(organizationId, { entryType: 'Group', entityName: 'Group', entityId: id, version, change });
    await audit.store(group(7, 1, { action: 'Create', after: { v: 1 } }));
    await audit.store(group(8, 1, { action: 'Create', after: { v: 1 } }));
    await audit.store(group(7, 2, { action: 'Update', before: { v: 1 }, after: { v: 2 } }));
    await audit.store(group(7, 2, { action: 'Delete', before: { v: 2 } }));
    expect((await stored(organizationId)).map((e) => [e.entityId, e.id, e.version, e.action])).toEqual([
      ['7', 1, 1, 'Create'],
      ['7', 1, 2, 'Update'],
      ['7', 1, 3, 'Delete'],
      ['8', 2, 1, 'Create'],
    ]);
  });

  it('the entity is told by entry type, entity name and entity id together, within one organization', async () => {
    const organizationId = randomUUID();
    const other = randomUUID();
    // One entity, then one differing from it in each of entry type, entity name, entity id and organization.
    const entities: [string, AuditRecord['entryType'], string, string][] = [
      [organizationId, 'User', 'User', 'u'],
      [organizationId, 'JWT', 'User', 'u'],
      [organizationId, 'User', 'Account', 'u'],
      [organizationId, 'User', 'User', 'v'],
      [other, 'User', 'User', 'u'],
    ];
    for (const [inOrganization, entryType, entityName, entityId] of entities) {
      await audit.store(
        delivery(inOrganization, {
          entryType,
          entityName,
          entityId,
          change: { action: 'Create', after: {} },
        }),
      );
    }
    expect((await stored(organizationId)).map((e) => e.id)).toEqual([1, 2, 3, 4]);
    expect((await stored(other)).map((e) => [e.id, e.version])).toEqual([[1, 1]]);
  });

  it('an entry naming no entity (an empty entity id) takes an id of its own', async () => {
    const organizationId = randomUUID();
    const denied = {
      entryType: 'JWT' as const,
      entityName: 'UserApiKey',
      entityId: '',
      change: { action: 'ApiKeyDenied' as const },
    };
    await audit.store(delivery(organizationId, denied));
    await audit.store(delivery(organizationId, denied));
    expect((await stored(organizationId)).map((e) => [e.id, e.version])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it('entries of one new entity delivered at once still share one id, each with its own version', async () => {
    const organizationId = randomUUID();
    const messages = Array.from({ length: 8 }, (_, n) =>
      delivery(organizationId, {
        entryType: 'Tag',
        entityName: 'Tag',
        entityId: 'racing',
        change: { action: 'Update', before: { n }, after: { n: n + 1 } },
      }),
    );
    // Open the pool's connections first, so the deliveries below really run side by side.
    await Promise.all(Array.from({ length: 8 }, () => orm.em.fork().execute('select pg_sleep(0.05)')));
    await Promise.all(messages.map((message) => audit.store(message)));
    const entries = await stored(organizationId);
    expect(new Set(entries.map((e) => e.id))).toEqual(new Set([1]));
    expect(entries.map((e) => e.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('spec 2 Audit entry: entity names and ids hold the e-mail addresses writers put there', () => {
  it('stores a delivered entry whose entity id is a 320-character address', async () => {
    const organizationId = randomUUID();
    const address = `${'a'.repeat(64)}@${'b'.repeat(251)}.com`;
    expect(address).toHaveLength(320);
    await audit.store(
      delivery(organizationId, {
        entryType: 'User',
        entityName: address,
        entityId: address,
        change: { action: 'ProvisionDenied', after: { email: address } },
      }),
    );
    expect((await stored(organizationId)).map((e) => e.entityId)).toEqual([address]);
  });

  it('parks an entity id longer than 500 characters (decisions "Ids and versions")', async () => {
    const message = delivery(randomUUID(), {
      entryType: 'User',
      entityName: 'User',
      entityId: 'x'.repeat(501),
      change: { action: 'Denied' },
    });
    await audit.store(message);
    expect((await parked(message.id))?.reason).toContain('entityId');
  });
});

describe('issue 8.2 / decisions "Ids and versions": no writer can stop an organization\'s delivered entries from being stored', () => {
  it('stores the next version of an entity a writer pushed to version 2147483647', async () => {
    const organizationId = randomUUID();
    const tag = (version?: number): QueueMessage =>
      delivery(organizationId, {
        entryType: 'Tag',
        entityName: 'Tag',
        entityId: '1',
        version,
        change: { action: 'Update', before: {}, after: {} },
      });
    await audit.store(tag(MAX_POSTGRES_INTEGER));
    await audit.store(tag());
    expect((await stored(organizationId)).map((e) => e.version)).toEqual([
      MAX_POSTGRES_INTEGER,
      MAX_POSTGRES_INTEGER + 1,
    ]);
  });

  it('stores a new entity of an organization whose writer took id 2147483647', async () => {
    const organizationId = randomUUID();
    await writeEntry(system.client('audit'), await system.token({ organizationId, permissions: [] }), {
      id: MAX_POSTGRES_INTEGER,
      entryType: 'Tag',
      action: 'Create',
    });
    await audit.store(
      delivery(organizationId, {
        entryType: 'Tag',
        entityName: 'Tag',
        entityId: 'new',
        change: { action: 'Create', after: {} },
      }),
    );
    expect((await stored(organizationId)).map((e) => e.id)).toEqual([
      MAX_POSTGRES_INTEGER,
      MAX_POSTGRES_INTEGER + 1,
    ]);
  });

  it('parks a delivered version beyond what a writer may name, and a retry leaves it parked, counting attempts', async () => {
    const message = delivery(randomUUID(), {
      entryType: 'Tag',
      entityName: 'Tag',
      entityId: '1',
      version: MAX_POSTGRES_INTEGER + 1,
      change: { action: 'Create', after: {} },
    });
    await audit.store(message);
    expect(await audit.retryParked()).toBeGreaterThanOrEqual(1);
    expect((await parked(message.id))?.attempts).toBe(2);
  });

  it('a retry stores a parked message that can now be stored, and it leaves the table', async () => {
    const organizationId = randomUUID();
    const message = delivery(organizationId, {
      entryType: 'Group',
      entityName: 'Group',
      entityId: '3',
      version: 2,
      change: { action: 'Update', before: { v: 1 }, after: { v: 2 } },
    });
    // As a version with a narrower rule would have parked it.
    const now = system.clock.now();
    await orm.em.fork().insert(ParkedMessage, {
      messageId: message.id,
      data: JSON.stringify(message.data),
      reason: 'an older rule refused it',
      parkedAt: now,
      attempts: 1,
      lastAttemptAt: now,
    });
    await audit.retryParked();
    expect(await parked(message.id)).toBeNull();
    expect((await stored(organizationId)).map((e) => [e.entityId, e.version, e.sourceMessageId])).toEqual([
      ['3', 2, message.id],
    ]);
  });
});
