import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenSigner } from '../../platform/auth/token-signer.js';
import { loadSettings, type ProcessName, type Settings } from '../../platform/config/settings.js';
import { createLogger, type Logger } from '../../platform/logging/logger.js';
import type { HostResolver } from '../../platform/http/public-address.js';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import { startSystem, type RunningSystem, type StartableProcess } from '../../launcher/system.js';
import { HttpClient } from './http-client.js';
import { deleteStreams } from '../../platform/queue/nats-streams.js';
import { createTestDatabase, dropTestDatabase } from './test-database.js';
import { TestClock } from './test-clock.js';

export interface TestSystemOptions {
  processes?: StartableProcess[];
  /** Settings by their spec names, over the test defaults. */
  overrides?: Record<string, unknown>;
  clock?: TestClock;
  /** How the system resolves third-party host names (the identity provider check); DNS when omitted. */
  resolver?: HostResolver;
  /**
   * Runs on this existing database (another test system's, say, to restart on it) instead of
   * a fresh one; the database is then not dropped when this system stops.
   */
  databaseUrl?: string;
  /** Where the system logs (a captured logger, say); silent unless TEST_LOG_LEVEL says otherwise when omitted. */
  logger?: Logger;
  /** Shares another test system's queue (its QUEUE_PREFIX), which that system deletes when it stops. */
  queuePrefix?: string;
}

export interface TokenRequest {
  permissions: PermissionName[];
  organizationId?: string;
  accountId?: string;
  variableSets?: Partial<Record<PermissionName, number[]>>;
}

export interface TestSystem {
  readonly system: RunningSystem;
  readonly settings: Settings;
  readonly clock: TestClock;
  readonly databaseUrl: string;
  readonly queuePrefix: string;
  client(process: ProcessName): HttpClient;
  /** A session token signed with the system's key, as the identity service would mint it. */
  token(request: TokenRequest): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Boots the real system in this process on every port 0, against a database of its own
 * on the test PostgreSQL server and, when NATS_URL is set, streams of its own on the real
 * NATS (a unique QUEUE_PREFIX). Stopping drops both.
 */
export async function startTestSystem(options: TestSystemOptions = {}): Promise<TestSystem> {
  // A database of its own, made here and dropped on stop; or the one it was given, left alone.
  const created = options.databaseUrl ? undefined : await createTestDatabase();
  const databaseName = created?.name;
  const databaseUrl = created?.url ?? options.databaseUrl!;
  const queuePrefix = options.queuePrefix ?? `t${randomBytes(4).toString('hex')}-`;
  const clock = options.clock ?? new TestClock();
  const dataDir = mkdtempSync(join(tmpdir(), 'config-library-data-'));
  const settings = loadSettings({
    env: {},
    overrides: {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      NATS_URL: process.env.NATS_URL,
      QUEUE_PREFIX: queuePrefix,
      LIBRARY_PORT: 0,
      ACCOUNT_PORT: 0,
      IDENTITY_PORT: 0,
      AUDIT_PORT: 0,
      GATEWAY_PORT: 0,
      'Jwt:PrivateKey': process.env.TEST_JWT_PRIVATE_KEY,
      // One key for the whole run, so two systems on one database (replicas, a restart) open each other's secrets.
      'Encryption:MasterKey': process.env.TEST_ENCRYPTION_MASTER_KEY,
      ...options.overrides,
    },
  });
  let system: RunningSystem | undefined;
  try {
    system = await startSystem({
      settings,
      processes: options.processes,
      clock,
      logger: options.logger ?? createLogger(settings.logLevel),
      resolver: options.resolver,
    });
    // As `npm start` does before it prints "Ready:": the queue is set up.
    await system.whenReady();
  } catch (error) {
    await system?.stop();
    if (databaseName) await dropTestDatabase(databaseName);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  if (!system.platform) throw new Error('a test system needs at least one service besides the gateway');
  const signer = new TokenSigner(system.platform.keys, settings.jwt);
  return {
    system,
    settings,
    clock,
    databaseUrl,
    queuePrefix,
    client: (name) => {
      const url = system.urls[name];
      if (!url) throw new Error(`${name} was not started in this test system`);
      return new HttpClient(url);
    },
    token: (request) =>
      signer.sign(
        {
          sub: request.accountId ?? randomUUID(),
          org: request.organizationId ?? randomUUID(),
          permissions: request.permissions,
          ...(request.variableSets ? { variableSets: request.variableSets } : {}),
        },
        clock.now(),
      ),
    stop: async () => {
      await system.stop();
      if (databaseName) await dropTestDatabase(databaseName);
      if (settings.queue.natsUrl && !options.queuePrefix)
        await deleteStreams(settings.queue.natsUrl, queuePrefix);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
