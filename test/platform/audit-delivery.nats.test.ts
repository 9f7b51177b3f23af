import { randomUUID } from 'node:crypto';
import type { AuditEntryView } from '../../subgraphs/audit/audit.schemas.js';
import { eventually } from '../support/eventually.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { TestProducer } from '../support/test-producer.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

const natsUrl = process.env.NATS_URL;
// The outage is made with a proxy in front of the real NATS; the in-process queue has no outage to make.
const describeWithNats = natsUrl ? describe : describe.skip;

describeWithNats(
  'spec 1 "every change is recorded as an audit entry" and 1.6 health: a queue outage delays audit entries (/healthz/startup says 503), never loses them or fails the writer',
  () => {
    let proxy: TcpProxy;
    let system: TestSystem;
    let producer: TestProducer;
    const organizationId = randomUUID();

    beforeAll(async () => {
      const target = new URL(natsUrl!.includes('://') ? natsUrl! : `nats://${natsUrl}`);
      proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 4222) });
      system = await startTestSystem({
        processes: ['audit'],
        overrides: { NATS_URL: `nats://127.0.0.1:${proxy.port}` },
      });
      producer = await TestProducer.start(system);
    });

    afterAll(async () => {
      await producer.stop();
      await system.stop();
      await proxy.close();
    });

    const storedEntityIds = async (): Promise<string[]> => {
      const token = await system.token({ organizationId, permissions: ['AuditList'] });
      const response = await system
        .client('audit')
        .get<{ items: AuditEntryView[] }>('/?take=1000', { token });
      return response.body.items.map((entry) => entry.entityId);
    };

    it('stores every entry written during the outage exactly once after the queue returns', async () => {
      for (let n = 0; n < 5; n++) await producer.record(organizationId, `before-${n}`);
      await eventually(async () => expect((await storedEntityIds()).length).toBe(5));

      proxy.cut();
      const health = system.client('audit');
      await eventually(async () => {
        const response = await health.get<{ checks: Record<string, boolean> }>('/healthz/startup');
        expect(response.status).toBe(503);
        expect(response.body.checks).toEqual({ database: true, queue: false });
      });
      const duringOutage = Array.from({ length: 20 }, (_, n) => `during-${n}`);
      // Every write succeeds while the queue is away: the caller's request never fails.
      for (const entityId of duringOutage) await producer.record(organizationId, entityId);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await producer.pending()).toBeGreaterThan(0);
      proxy.restore();

      const expected = [...Array.from({ length: 5 }, (_, n) => `before-${n}`), ...duringOutage];
      await eventually(
        async () => {
          const stored = await storedEntityIds();
          expect([...stored].sort()).toEqual([...expected].sort());
        },
        45_000,
        250,
      );
      expect(await producer.pending()).toBe(0);
      expect((await health.get('/healthz/startup')).status).toBe(200);
    }, 90_000);
  },
);
