import { startGateway, type RunningGateway } from '../../gateway/gateway.js';
import { readSupergraph } from '../../gateway/supergraph.js';
import { createLogger } from '../../platform/logging/logger.js';
import { freePort } from '../support/free-port.js';
import { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
}

describe('CONTRACT 7: the gateway answers REST-style errors as problem details, with no stack trace', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await startTestSystem({ processes: ['audit', 'gateway'] });
  });

  afterAll(() => system.stop());

  it('malformed JSON to /graphql is a 400 problem, not an HTML stack trace', async () => {
    const response = await system.client('gateway').post<Problem>('/graphql', { body: '{"query": ' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      status: 400,
      title: 'Bad request',
      type: 'https://httpstatuses.io/400',
    });
    expect(response.text).not.toMatch(/SyntaxError|node_modules|at .*\.js:\d+/);
  });

  it('an unknown path is a 404 problem, not an Express HTML page', async () => {
    const response = await system.client('gateway').get<Problem>('/no/such/page');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      status: 404,
      title: 'Not found',
      detail: 'There is no GET /no/such/page.',
    });
  });
});

describe('issue 2 gateway: a subgraph that is down is named, its internal address is not', () => {
  let gateway: RunningGateway;
  let downPort: number;

  beforeAll(async () => {
    downPort = await freePort(); // nothing listens there
    gateway = await startGateway({
      supergraphSdl: readSupergraph(),
      subgraphUrls: {
        audit: `http://127.0.0.1:${downPort}/graphql`,
        account: `http://127.0.0.1:${downPort}/graphql`,
      },
      host: '127.0.0.1',
      port: 0,
      logger: createLogger('silent'),
    });
  });

  afterAll(() => gateway.close());

  it('answers SERVICE_UNAVAILABLE saying the audit subgraph is unavailable, without host or port', async () => {
    const response = await new HttpClient(gateway.url).post<{
      errors: { message: string; extensions: Record<string, unknown> }[];
    }>('/graphql', { body: { query: '{ auditEntries { total } }' } });
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]!.message).toMatch(/^The audit subgraph is unavailable/);
    expect(response.body.errors[0]!.extensions).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      subgraph: 'audit',
    });
    expect(response.text).not.toContain(String(downPort));
    expect(response.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|localhost/);
  });
});

describe('issue 2 gateway: an IPv6 HOST is written in brackets in its address', () => {
  it('listens on ::1 and answers at http://[::1]:<port>', async () => {
    const gateway = await startGateway({
      supergraphSdl: readSupergraph(),
      subgraphUrls: {},
      host: '::1',
      port: 0,
      logger: createLogger('silent'),
    });
    try {
      expect(gateway.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect((await new HttpClient(gateway.url).get('/healthz/startup')).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
