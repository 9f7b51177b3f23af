import { AuditLog } from '../../platform/audit-log/audit-log.js';
import { DirectAuditPublisher } from '../../platform/audit-log/direct-audit-publisher.js';
import { createLogger } from '../../platform/logging/logger.js';
import { NatsQueue } from '../../platform/queue/nats-queue.js';
import { TOPICS, type QueueMessage } from '../../platform/queue/queue.js';
import { eventually } from '../support/eventually.js';
import { freePort } from '../support/free-port.js';
import { NatsServerProcess } from '../support/nats-server.js';
import { TempFolder } from '../support/temp-folder.js';
import { TestClock } from '../support/test-clock.js';

const logger = createLogger('silent');

describe('decision "Audit entries without storage": the identity service keeps its entries through a queue outage and delivers each once after', () => {
  let store: TempFolder;
  let port: number;
  let server: NatsServerProcess;
  let queue: NatsQueue;
  let publisher: DirectAuditPublisher;
  const received: QueueMessage[] = [];

  beforeAll(async () => {
    store = TempFolder.create('direct-audit-nats');
    port = await freePort();
    server = await NatsServerProcess.start({ port, jetStreamStoreDir: store.path });
    queue = new NatsQueue(server.url, 'direct-', logger, 'direct-audit-test');
    queue.consume(TOPICS.auditEntries, 'audit-reader', async (message) => void received.push(message));
    await queue.whenReady();
    publisher = new DirectAuditPublisher(queue, new AuditLog(new TestClock()), logger);
  });

  afterAll(async () => {
    await publisher.stop();
    await queue.close();
    await server.stop();
    store.remove();
  });

  const record = (entityId: string): void =>
    publisher.record(
      { organizationId: null, accountId: null },
      { entryType: 'JWT', entityName: 'JWT', entityId, change: { action: 'Create', after: { entityId } } },
    );
  const receivedIds = (): string[] => received.map((m) => (m.data as { entityId: string }).entityId);

  it('delivers at once while the queue is up', async () => {
    record('before-1');
    record('before-2');
    await eventually(async () => expect(receivedIds()).toEqual(['before-1', 'before-2']));
    expect(publisher.pending()).toBe(0);
  });

  it('keeps what it records while NATS is down, in order, and delivers each exactly once when it is back', async () => {
    await server.stop();
    await eventually(async () => expect(queue.isReady()).toBe(false));
    const duringOutage = ['during-1', 'during-2', 'during-3'];
    for (const id of duringOutage) record(id);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(publisher.pending()).toBe(3);

    server = await NatsServerProcess.start({ port, jetStreamStoreDir: store.path });
    await eventually(async () => expect(publisher.pending()).toBe(0), 30_000);
    await eventually(
      async () => expect(receivedIds()).toEqual(['before-1', 'before-2', ...duringOutage]),
      30_000,
    );
    // Each once, under its own message id.
    expect(new Set(received.map((m) => m.id)).size).toBe(received.length);
  }, 60_000);
});
