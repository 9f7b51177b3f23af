import { capturedLogger, WARN_LEVEL, type LogLine } from '../support/captured-logger.js';
import { eventually } from '../support/eventually.js';
import { createOrganization } from '../support/factories.js';
import { graphqlData } from '../support/graphql.js';
import type { HttpClient, TestResponse } from '../support/http-client.js';
import { librarianToken } from '../support/library-factories.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

const INFO_LEVEL = 30;

let system: TestSystem;
let lines: LogLine[];
let library: HttpClient;
let organizationId: string;
let accountId: string;
let token: string;

beforeAll(async () => {
  const captured = capturedLogger();
  lines = captured.lines;
  system = await startTestSystem({ logger: captured.logger });
  library = system.client('library');
  organizationId = (await createOrganization(system, 'Logged')).id;
  accountId = '6f1d2c3b-9a8e-4d7c-b6a5-f4e3d2c1b0a9';
  token = await librarianToken(system, organizationId, accountId);
});

afterAll(async () => {
  await system?.stop();
});

/** The request line of the response's id, once the service has written it (after the response). */
function lineOf(response: TestResponse): Promise<LogLine> {
  const id = response.headers.get('x-request-id');
  expect(id).toBeTruthy();
  return eventually(async () => {
    const found = lines.filter((line) => line.msg === 'request' && line.requestId === id);
    expect(found).toHaveLength(1);
    return found[0]!;
  });
}

describe('issue 13 item 2: one JSON line per request', () => {
  it('names the method, the route template (not the raw path), status, duration and the caller, at info for a 2xx', async () => {
    const response = await library.get('/taggroups?take=5', { token });
    expect(response.status).toBe(200);
    const line = await lineOf(response);
    expect(line).toMatchObject({
      level: INFO_LEVEL,
      service: 'library',
      method: 'GET',
      route: '/taggroups',
      status: 200,
      organizationId,
      accountId,
    });
    expect(typeof line.durationMs).toBe('number');
  });

  it('logs the template of a path with an id, and a 4xx at warn', async () => {
    const response = await library.get('/variables/987654', { token });
    expect(response.status).toBe(404);
    const line = await lineOf(response);
    expect(line).toMatchObject({ level: WARN_LEVEL, route: '/variables/{id}', status: 404 });
  });

  it('never writes the token, the query string or the body', async () => {
    const response = await library.post('/taggroups', {
      token,
      body: { name: 'SecretLookingGroup-x9', tags: ['Hidden-q7'] },
    });
    const line = await lineOf(response);
    const text = JSON.stringify(line);
    expect(text).not.toContain(token);
    expect(text).not.toContain('SecretLookingGroup-x9');
    const read = await library.get('/variablevalues?set=999999&tag=Private/Query-k3', { token });
    const readText = JSON.stringify(await lineOf(read));
    expect(readText).not.toContain('Query-k3');
    expect(readText).not.toContain(token);
  });

  it('logs the read path (served before Express) with its route and caller', async () => {
    const response = await library.get('/variablevalues?set=999999', { token });
    expect(response.status).toBe(404);
    expect(await lineOf(response)).toMatchObject({
      route: '/variablevalues',
      status: 404,
      organizationId,
      accountId,
    });
  });

  it('logs an unmatched path with no route, and a request without a token with no caller', async () => {
    const response = await library.get('/no/such/path/42');
    expect(response.status).toBe(404);
    const line = await lineOf(response);
    expect(line.route).toBeNull();
    expect(line).not.toHaveProperty('organizationId');
  });

  it("takes the caller's x-request-id and echoes it; one that could inject anything is replaced", async () => {
    const kept = await library.get('/healthz/startup', { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc.123');
    expect(await lineOf(kept)).toMatchObject({ route: '/healthz/startup', status: 200 });
    const replaced = await library.get('/healthz/startup', { headers: { 'x-request-id': 'a b"c' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f]{16}-[0-9a-z]+$/);
  });

  it('logs GraphQL requests on a subgraph with the caller, and on the gateway', async () => {
    const subgraph = await library.post('/graphql', {
      token,
      body: { query: '{ tagGroups(take: 1) { total } }' },
    });
    expect(subgraph.status).toBe(200);
    expect(await lineOf(subgraph)).toMatchObject({
      service: 'library',
      route: '/graphql',
      organizationId,
      accountId,
    });
    const gateway = system.client('gateway');
    await graphqlData(gateway, token, '{ tagGroups(take: 1) { total } }');
    const through = await gateway.post('/graphql', { token, body: { query: '{ __typename }' } });
    expect(await lineOf(through)).toMatchObject({ service: 'gateway', route: '/graphql', status: 200 });
  });
});
