import { eventually } from '../support/eventually.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { createTestDatabase, dropTestDatabase } from '../support/test-database.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

interface Health {
  status: number;
  checks: Record<string, boolean>;
}

describe('spec 1.6 / issue 2 health: /healthz/startup answers 503 while the database is unreachable, 200 again after', () => {
  let database: { name: string; url: string };
  let proxy: TcpProxy;
  let system: TestSystem;

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url);
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    const throughProxy = new URL(database.url);
    throughProxy.hostname = '127.0.0.1';
    throughProxy.port = String(proxy.port);
    system = await startTestSystem({ processes: ['audit'], databaseUrl: throughProxy.toString() });
  });

  afterAll(async () => {
    await system?.stop();
    await proxy.close();
    await dropTestDatabase(database.name);
  });

  it('is 200 with every check true while the database answers', async () => {
    const response = await system.client('audit').get<Health>('/healthz/startup');
    expect(response.status).toBe(200);
    expect(response.body.checks.database).toBe(true);
  });

  it('is a 503 problem naming the database check as false once the database is cut off', async () => {
    proxy.cut();
    const response = await system.client('audit').get<Health>('/healthz/startup');
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body.status).toBe(503);
    expect(response.body.checks).toEqual({ database: false, queue: true });
  });

  it('is 200 again once the database is back', async () => {
    proxy.restore();
    await eventually(async () =>
      expect((await system.client('audit').get('/healthz/startup')).status).toBe(200),
    );
  });
});
