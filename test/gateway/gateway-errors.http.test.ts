import { Metrics } from '../../platform/metrics/metrics.js';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { startGateway, type RunningGateway } from '../../gateway/gateway.js';
import { readSupergraph } from '../../gateway/supergraph.js';
import { createLogger } from '../../platform/logging/logger.js';
import { capturedLogger, ERROR_LEVEL, type LogLine } from '../support/captured-logger.js';
import { freePort } from '../support/free-port.js';
import { HttpClient } from '../support/http-client.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

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

describe('decisions "Gateway errors": a subgraph that fails is named, its internal address is not; the failure is logged once, with it', () => {
  let gateway: RunningGateway;
  let downPort: number;
  let failing: Server;
  let failingPort: number;
  let lines: LogLine[];

  beforeAll(async () => {
    downPort = await freePort(); // nothing listens there
    // A subgraph that answers every request with a 500 and no GraphQL body.
    failing = createHttpServer((_req, res) =>
      res.writeHead(500, { 'content-type': 'text/plain' }).end('boom'),
    );
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    failingPort = (failing.address() as { port: number }).port;
    const captured = capturedLogger();
    lines = captured.lines;
    gateway = await startGateway({
      supergraphSdl: readSupergraph(),
      subgraphUrls: {
        audit: `http://127.0.0.1:${downPort}/graphql`,
        account: `http://127.0.0.1:${failingPort}/graphql`,
      },
      host: '127.0.0.1',
      port: 0,
      logger: captured.logger,
      metrics: new Metrics(captured.logger),
    });
  });

  beforeEach(() => void lines.splice(0));

  afterAll(async () => {
    await gateway.close();
    await new Promise((resolve) => failing.close(resolve));
  });

  const errorLines = (): LogLine[] => lines.filter((line) => line.level >= ERROR_LEVEL);

  it('answers SERVICE_UNAVAILABLE saying the audit subgraph is unavailable, without host or port, and logs the address once', async () => {
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
    expect(errorLines()).toHaveLength(1);
    expect(JSON.stringify(errorLines()[0])).toContain(`127.0.0.1:${downPort}`);
  });

  it('answers a bare INTERNAL_SERVER_ERROR for a subgraph that fails with a 500, and logs the call once, with its address and status', async () => {
    const response = await new HttpClient(gateway.url).post<{
      errors: { message: string; extensions: Record<string, unknown> }[];
    }>('/graphql', { body: { query: '{ organizations { total } }' } });
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors[0]!.extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(response.text).not.toContain(String(failingPort));
    expect(errorLines()).toHaveLength(1);
    expect(JSON.stringify(errorLines()[0])).toContain(`127.0.0.1:${failingPort}`);
    expect(JSON.stringify(errorLines()[0])).toContain('500');
  });
});

/** Whether this host has the IPv6 loopback address (containers often have IPv6 turned off). */
function canListenOn(host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, host, () => probe.close(() => resolve(true)));
  });
}

const describeWithIpv6 = (await canListenOn('::1')) ? describe : describe.skip;

describeWithIpv6(
  'CONTRACT 1 "Bind address": the gateway listens on an IPv6 HOST, written in brackets in its address (skipped where ::1 is not available)',
  () => {
    it('listens on ::1 and answers at http://[::1]:<port>', async () => {
      const gateway = await startGateway({
        supergraphSdl: readSupergraph(),
        subgraphUrls: {},
        host: '::1',
        port: 0,
        logger: createLogger('silent'),
        metrics: new Metrics(createLogger('silent')),
      });
      try {
        expect(gateway.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
        expect((await new HttpClient(gateway.url).get('/healthz/startup')).status).toBe(200);
      } finally {
        await gateway.close();
      }
    });
  },
);
