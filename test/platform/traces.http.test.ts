import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadSigningKeys } from '../../platform/auth/signing-keys.js';
import { TokenSigner } from '../../platform/auth/token-signer.js';
import { loadSettings } from '../../platform/config/settings.js';
import { createLogger } from '../../platform/logging/logger.js';
import { projectPath } from '../../platform/project-path.js';
import { deleteStreams } from '../../platform/queue/nats-streams.js';
import { startTracing } from '../../platform/tracing/tracing.js';
import { eventually } from '../support/eventually.js';
import { LIBRARY_PERMISSIONS } from '../support/library-factories.js';
import { createTestDatabase, dropTestDatabase } from '../support/test-database.js';

/** A span as OTLP/HTTP JSON carries it, with the service that sent it. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

const spans: ExportedSpan[] = [];
const logLines: Record<string, unknown>[] = [];
let collector: Server;
let child: ChildProcess;
let urls: Record<string, string>;
let database: { name: string; url: string };
const dataDir = mkdtempSync(join(tmpdir(), 'config-library-traces-'));
const queuePrefix = `t${randomBytes(4).toString('hex')}-`;

/** A tiny OTLP/HTTP collector: records every span it is sent (JSON, as the HTTP exporter sends it). */
function startCollector(): Promise<string> {
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = JSON.parse(body) as {
        resourceSpans: {
          resource: { attributes: { key: string; value: { stringValue?: string } }[] };
          scopeSpans: {
            spans: (Omit<ExportedSpan, 'service' | 'attributes'> & {
              attributes?: { key: string; value: Record<string, unknown> }[];
            })[];
          }[];
        }[];
      };
      for (const { resource, scopeSpans } of request.resourceSpans) {
        const service = resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const { spans: sent } of scopeSpans) {
          for (const span of sent) {
            spans.push({
              ...span,
              service,
              attributes: Object.fromEntries(
                (span.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]),
              ),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    collector.listen(0, '127.0.0.1', () => {
      const address = collector.address() as { port: number };
      resolve(`http://127.0.0.1:${address.port}`);
    }),
  );
}

/** Starts the compiled system as `npm start` does, exporting its traces to the collector. */
async function startSystem(endpoint: string): Promise<Record<string, string>> {
  child = spawn(process.execPath, [projectPath('dist/launcher/main.js')], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      ...(process.env.NATS_URL ? { NATS_URL: process.env.NATS_URL } : {}),
      QUEUE_PREFIX: queuePrefix,
      LIBRARY_PORT: '0',
      ACCOUNT_PORT: '0',
      IDENTITY_PORT: '0',
      AUDIT_PORT: '0',
      GATEWAY_PORT: '0',
      Jwt__PrivateKey: process.env.TEST_JWT_PRIVATE_KEY,
      Encryption__MasterKey: process.env.TEST_ENCRYPTION_MASTER_KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the system exited (${code}) before it was ready:\n${output}`)),
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const lines = output.split('\n');
      output = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('{')) logLines.push(JSON.parse(line) as Record<string, unknown>);
        const ready = logLines.find((entry) => entry.msg === 'ready');
        if (ready) resolve(ready.urls as Record<string, string>);
      }
    });
  });
}

beforeAll(async () => {
  // The instrumentations hook modules as Node loads them, which jest's module loader bypasses:
  // the system runs compiled, in a process of its own, as `npm start` runs it.
  await promisify(execFile)('npx', ['tsc', '-b', 'tsconfig.build.json'], { cwd: projectPath() });
  database = await createTestDatabase();
  urls = await startSystem(await startCollector());
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await new Promise((resolve) => collector?.close(resolve));
  if (database) await dropTestDatabase(database.name);
  if (process.env.NATS_URL) await deleteStreams(process.env.NATS_URL, queuePrefix);
  rmSync(dataDir, { recursive: true, force: true });
});

async function token(): Promise<string> {
  const settings = loadSettings({
    env: {},
    overrides: { 'Jwt:PrivateKey': process.env.TEST_JWT_PRIVATE_KEY },
  });
  const signer = new TokenSigner(await loadSigningKeys(settings, createLogger('silent')), settings.jwt);
  return signer.sign(
    {
      sub: '0b6f3c1e-7a2d-4e5f-9c8b-1a2b3c4d5e6f',
      org: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
      permissions: LIBRARY_PERMISSIONS,
    },
    new Date(),
  );
}

describe('issue 13 item 3: traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set', () => {
  it("a gateway request reaching the library is one trace: the gateway's server and client spans, the library's server span, GraphQL and PostgreSQL spans; its log line carries its request and trace ids", async () => {
    const response = await fetch(`${urls.gateway}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-svc-auth': await token(),
        'x-request-id': 'traced-request-1',
      },
      body: JSON.stringify({ query: '{ tagGroups(take: 1) { total } }' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { tagGroups: { total: 0 } } });

    const gatewayServer = await eventually(async () => {
      const found = spans.find(
        (s) => s.kind === SERVER && s.attributes['http.request.id'] === 'traced-request-1',
      );
      expect(found).toBeDefined();
      return found!;
    });
    const trace = await eventually(async () => {
      const inTrace = spans.filter((s) => s.traceId === gatewayServer.traceId);
      expect(inTrace.some((s) => s.kind === CLIENT && s.name === 'POST')).toBe(true);
      expect(inTrace.filter((s) => s.kind === SERVER)).toHaveLength(2);
      expect(inTrace.some((s) => s.name.startsWith('graphql.'))).toBe(true);
      expect(inTrace.some((s) => s.kind === CLIENT && s.name.startsWith('pg.query:SELECT'))).toBe(true);
      return inTrace;
    });
    const client = trace.find((s) => s.kind === CLIENT && s.name === 'POST')!;
    const libraryServer = trace.find((s) => s.kind === SERVER && s.spanId !== gatewayServer.spanId)!;
    expect(libraryServer.parentSpanId).toBe(client.spanId);

    const line = await eventually(async () => {
      const found = logLines.find(
        (entry) => entry.msg === 'request' && entry.requestId === 'traced-request-1',
      );
      expect(found).toBeDefined();
      return found!;
    });
    expect(line).toMatchObject({ service: 'gateway', route: '/graphql', traceId: gatewayServer.traceId });
    const libraryLine = logLines.find(
      (entry) =>
        entry.msg === 'request' && entry.service === 'library' && entry.traceId === gatewayServer.traceId,
    );
    expect(libraryLine).toMatchObject({ route: '/graphql', status: 200 });
  });

  it("a message on the queue: the consumer's span continues the publisher's trace", async () => {
    const created = await fetch(`${urls.library}/taggroups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-auth': await token() },
      body: JSON.stringify({ name: 'Traced', tags: ['One'] }),
    });
    expect(created.status).toBe(200);
    await eventually(async () => {
      const published = spans.filter((s) => s.kind === PRODUCER && s.name === 'audit-entries publish');
      const consumed = spans.filter((s) => s.kind === CONSUMER && s.name === 'audit-entries process');
      expect(
        consumed.some((c) => published.some((p) => p.traceId === c.traceId && c.parentSpanId === p.spanId)),
      ).toBe(true);
    });
  });
});

describe('issue 13 item 3: without OTEL_EXPORTER_OTLP_ENDPOINT tracing is off', () => {
  it('starts nothing and loads no SDK', async () => {
    expect(await startTracing({}, ['library'])).toBeUndefined();
  });
});
