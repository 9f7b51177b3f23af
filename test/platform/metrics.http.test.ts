import { createOrganization, expectStatus } from '../support/factories.js';
import type { HttpClient } from '../support/http-client.js';
import { createSet, createVariable, librarianToken } from '../support/library-factories.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let library: HttpClient;
let token: string;
let setId: number;

beforeAll(async () => {
  system = await startTestSystem({
    overrides: { 'Credits:IncludedCredits': 20, 'CreditCosts:VariablePreviewCost': 10 },
  });
  library = system.client('library');
  const organizationId = (await createOrganization(system, 'Measured')).id;
  token = await librarianToken(system, organizationId);
  setId = (await createSet(system, token, { name: 'Measured set' })).id;
  await createVariable(system, token, { name: 'Host', variableSetId: setId, values: [{ value: 'db' }] });
});

afterAll(async () => {
  await system?.stop();
});

interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format's samples (`name{a="b"} 1`), comments left out. */
function parse(text: string): Series[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

async function scrape(client: HttpClient): Promise<Series[]> {
  const response = await client.get('/metrics');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(response.text);
}

/** The value of the one series of that name holding these labels (0 when there is none yet). */
function valueOf(series: Series[], name: string, labels: Record<string, string> = {}): number {
  const found = series.filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  expect(found.length).toBeLessThanOrEqual(1);
  return found[0]?.value ?? 0;
}

function has(series: Series[], name: string, labels: Record<string, string> = {}): boolean {
  return series.some(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
}

describe('issue 13 item 1: /metrics on every service and the gateway', () => {
  it.each(['account', 'audit', 'identity', 'library', 'gateway'] as const)(
    '%s answers /metrics without a token, with the process and event-loop series',
    async (name) => {
      const series = await scrape(system.client(name));
      expect(has(series, 'nodejs_eventloop_lag_seconds')).toBe(true);
      expect(has(series, 'process_resident_memory_bytes')).toBe(true);
      expect(has(series, 'http_requests_in_flight', { service: name })).toBe(true);
    },
  );

  it('on the audit service, whose GET /{id} sits at the root, /metrics is not shadowed (200, not 401)', async () => {
    const response = await system.client('audit').get('/metrics');
    expect(response.status).toBe(200);
    expect(response.text).toContain('# TYPE http_requests_total counter');
  });

  it('counts requests by route template and status, with a latency histogram, never by raw path or id', async () => {
    const labels = { service: 'library', method: 'GET', route: '/variables/{id}', status: '404' };
    const before = valueOf(await scrape(library), 'http_requests_total', labels);
    for (let n = 0; n < 3; n++) {
      expect((await library.get(`/variables/98765${n}`, { token })).status).toBe(404);
    }
    const after = await scrape(library);
    expect(valueOf(after, 'http_requests_total', labels) - before).toBe(3);
    expect(valueOf(after, 'http_request_duration_seconds_count', labels)).toBeGreaterThanOrEqual(3);
    expect(valueOf(after, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
      valueOf(after, 'http_request_duration_seconds_count', labels),
    );
    const text = (await library.get('/metrics')).text;
    expect(text).not.toContain('98765');
    expect(text).not.toMatch(/route="\/variables\/\d/);
  });

  it('a path no route takes is counted under route "(none)", not its path', async () => {
    await library.get('/no/such/place/31337');
    const series = await scrape(library);
    expect(valueOf(series, 'http_requests_total', { route: '(none)', status: '404' })).toBeGreaterThan(0);
    expect(series.some((s) => Object.values(s.labels).some((value) => value.includes('31337')))).toBe(false);
  });

  it("holds the database pool's use, the outbox's depth and oldest age, and the queue consumers' backlog", async () => {
    const series = await scrape(library);
    for (const state of ['used', 'free', 'pending']) {
      expect(has(series, 'db_pool_connections', { service: 'library', state })).toBe(true);
      expect(has(series, 'db_pool_connections', { service: 'account', state })).toBe(true);
    }
    expect(
      valueOf(series, 'db_pool_connections', { service: 'audit', state: 'free' }),
    ).toBeGreaterThanOrEqual(0);
    for (const service of ['library', 'account']) {
      expect(valueOf(series, 'outbox_messages', { service })).toBeGreaterThanOrEqual(0);
      expect(has(series, 'outbox_oldest_message_age_seconds', { service })).toBe(true);
    }
    expect(has(series, 'queue_consumer_pending_messages', { topic: 'audit-entries' })).toBe(true);
    expect(has(series, 'queue_consumer_pending_messages', { topic: 'credits-spent' })).toBe(true);
    expect(has(series, 'queue_consumer_redelivered_messages', { topic: 'audit-entries' })).toBe(true);
  });

  it("counts the library's answer cache hits and misses, and credits refused", async () => {
    const before = await scrape(library);
    const question = `/variablevalues?set=${setId}`;
    await expectStatus(library.get(question, { token }), 200);
    await expectStatus(library.get(question, { token }), 200);
    const refused = await library.get(question, { token });
    expect(refused.status).toBe(429);
    const after = await scrape(library);
    const delta = (name: string) =>
      valueOf(after, name, { service: 'library' }) - valueOf(before, name, { service: 'library' });
    expect(delta('library_answer_cache_misses_total')).toBe(1);
    expect(delta('library_answer_cache_hits_total')).toBe(2);
    expect(delta('credits_refused_total')).toBe(1);
  });
});
