import { eventually } from '../support/eventually.js';
import { createOrganization, expectStatus } from '../support/factories.js';
import type { HttpClient } from '../support/http-client.js';
import { createSet, createVariable, librarianToken } from '../support/library-factories.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

// Two replicas share PostgreSQL and a real NATS; in-process queues cannot reach across systems.
const describeWithNats = process.env.NATS_URL ? describe : describe.skip;

describeWithNats('issue 11 item 5: two library replicas on one PostgreSQL and one NATS', () => {
  let first: TestSystem;
  let second: TestSystem;
  /** In front of the account service as the second replica reaches it, to take it away. */
  let accountProxy: TcpProxy;
  let one: HttpClient;
  let other: HttpClient;
  let token: string;
  let setId: number;

  beforeAll(async () => {
    first = await startTestSystem({
      processes: ['account', 'audit', 'library'],
      overrides: { 'Credits:IncludedCredits': 1_000_000 },
    });
    const account = new URL(first.system.urls.account!);
    accountProxy = await TcpProxy.start({ host: account.hostname, port: Number(account.port) });
    second = await startTestSystem({
      processes: ['library'],
      databaseUrl: first.databaseUrl,
      queuePrefix: first.queuePrefix,
      overrides: {
        'Account:ApiUrl': `http://127.0.0.1:${accountProxy.port}`,
        'Audit:AuditApiUrl': first.system.urls.audit,
        'CreditCosts:VariableGetCost': 100_000,
      },
    });
    one = first.client('library');
    other = second.client('library');
    token = await librarianToken(first, (await createOrganization(first, 'Replicated')).id);
    setId = (await createSet(first, token, { name: 'Shared' })).id;
  });

  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await accountProxy?.close();
  });

  const valuesFrom = async (library: HttpClient) =>
    (
      await expectStatus(
        library.get<{ items: Record<string, string> }>(`/variablevalues?set=${setId}`, { token }),
        200,
      )
    ).items;

  it('a write through one replica is served by the other within 1 s', async () => {
    const variable = await createVariable(first, token, {
      name: 'Feature',
      variableSetId: setId,
      values: [{ value: 'off' }],
    });
    await eventually(async () => expect(await valuesFrom(other)).toEqual({ Feature: 'off' }));
    const latencies: number[] = [];
    let version = variable.version;
    for (const value of ['on', 'off', 'on']) {
      const written = await expectStatus(
        one.put<{ version: number }>(`/variables/${variable.id}`, {
          token,
          body: { version, values: [{ value }] },
        }),
        200,
      );
      version = written.version;
      const start = performance.now();
      while ((await valuesFrom(other)).Feature !== value) {
        if (performance.now() - start > 2_000) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      latencies.push(performance.now() - start);
    }
    expect(Math.max(...latencies)).toBeLessThan(1_000);
  });

  it('spec 6 and 8: the credits both replicas charge add up exactly in the account service', async () => {
    const balance = () =>
      expectStatus(
        first.client('account').get<{ usedCredits: number }>('/organizations/me/credits', { token }),
        200,
      );
    await eventually(async () => {
      const before = (await balance()).usedCredits;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await balance()).usedCredits).toBe(before);
    });
    const before = (await balance()).usedCredits;
    await Promise.all([
      ...Array.from({ length: 30 }, () => valuesFrom(one)),
      ...Array.from({ length: 20 }, () => valuesFrom(other)),
    ]);
    await eventually(async () => expect((await balance()).usedCredits).toBe(before + 50 * 10));
  });

  it('far from the limit a read makes no round trip for the balance; a balance too old to trust and unreadable is 500, as near the limit at once', async () => {
    await valuesFrom(other);
    const variable = await createVariable(first, token, {
      name: 'Costly',
      variableSetId: setId,
      values: [{ value: 'x' }],
    });
    accountProxy.cut();
    try {
      for (let read = 0; read < 5; read++) await valuesFrom(other);
      // VariableGetCost 100000 here: no call is far from the limit, so each reads the balance.
      const near = await other.get<{ detail: string }>(`/variables/${variable.id}`, { token });
      expect(near.status).toBe(500);
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      const stale = await other.get(`/variablevalues?set=${setId}`, { token });
      expect(stale.status).toBe(500);
    } finally {
      accountProxy.restore();
    }
    await valuesFrom(other);
  });
});
