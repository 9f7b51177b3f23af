import type { ProcessName, ServiceName, Settings } from '../platform/config/settings.js';
import { loadSigningKeys, type SigningKeys } from '../platform/auth/signing-keys.js';
import { loadMasterKey, type MasterKey } from '../platform/encryption/master-key.js';
import { TokenVerifier } from '../platform/auth/token-verifier.js';
import { startEmbeddedPostgres } from '../platform/db/embedded-postgres.js';
import { systemResolver, type HostResolver } from '../platform/http/public-address.js';
import { createLogger, type Logger } from '../platform/logging/logger.js';
import { Metrics } from '../platform/metrics/metrics.js';
import { watchQueue } from '../platform/metrics/queue-metrics.js';
import { createQueue } from '../platform/queue/create-queue.js';
import { systemClock, type Clock } from '../platform/time/clock.js';
import { startGateway } from '../gateway/gateway.js';
import { readSupergraph } from '../gateway/supergraph.js';
import { defaultSubgraphUrl, SUBGRAPHS } from '../gateway/subgraphs.js';
import type { PlatformContext, StartedService } from './platform-context.js';
import { startAccountService } from './services/account.js';
import { startAuditService } from './services/audit.js';
import { startIdentityService } from './services/identity.js';
import { startLibraryService } from './services/library.js';

/** Services this build can start, in start order (those others record audit entries with come first). */
const SERVICE_STARTERS = {
  audit: startAuditService,
  account: startAccountService,
  identity: startIdentityService,
  library: startLibraryService,
} satisfies Partial<Record<ServiceName, (platform: PlatformContext) => Promise<StartedService>>>;

export type StartableService = keyof typeof SERVICE_STARTERS;
export type StartableProcess = StartableService | 'gateway';

export const STARTABLE_SERVICES = Object.keys(SERVICE_STARTERS) as StartableService[];
export const STARTABLE: StartableProcess[] = [...STARTABLE_SERVICES, 'gateway'];

export function isStartable(name: string): name is StartableProcess {
  return (STARTABLE as string[]).includes(name);
}

export interface SystemOptions {
  settings: Settings;
  /** What to start; everything startable when omitted. */
  processes?: StartableProcess[];
  clock?: Clock;
  logger?: Logger;
  resolver?: HostResolver;
}

export interface RunningSystem {
  readonly urls: Partial<Record<ProcessName, string>>;
  /** What the services share; absent when only the gateway runs. */
  readonly platform: PlatformContext | undefined;
  /**
   * Resolves once every service can do all its work: its queue connected with its streams
   * in place. Services serve before that (their health says 503); this may wait as long as
   * the queue is away.
   */
  whenReady(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The composition root: builds the platform (database, queue, keys) once, starts the
 * requested services on it and then the gateway, and stops them in reverse.
 */
export async function startSystem(options: SystemOptions): Promise<RunningSystem> {
  const { settings } = options;
  const processes = options.processes ?? STARTABLE;
  const logger = options.logger ?? createLogger(settings.logLevel);
  const clock = options.clock ?? systemClock;
  const metrics = new Metrics(logger);
  const cleanups: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) =>
        logger.error({ err: error }, 'a part of the system failed to stop'),
      );
    }
    cleanups.length = 0;
  };

  try {
    const services = STARTABLE_SERVICES.filter((name) => processes.includes(name));
    const started: Partial<Record<ServiceName, StartedService>> = {};
    const urls: Partial<Record<ProcessName, string>> = {};
    let platform: PlatformContext | undefined;
    if (services.length > 0) {
      // First, so a missing or unusable key stops the start before anything else runs.
      const keys = await loadSigningKeys(settings, logger);
      if (services.includes('identity') && settings.production) assertCanSign(keys);
      // Likewise the master key, for the one service that encrypts (the library).
      const masterKey = services.includes('library') ? loadMasterKey(settings, logger) : undefined;
      platform = await startPlatform(
        { settings, logger, metrics, clock, keys, masterKey, resolver: options.resolver ?? systemResolver },
        cleanups,
        (service) => started[service]?.url,
      );
      const queue = platform.queue;
      let closing: Promise<void> | undefined;
      const closeQueue = (): Promise<void> => (closing ??= queue.close());
      // Registered now too, so a service that fails to start leaves no open connection behind.
      cleanups.push(closeQueue);
      for (const name of services) {
        // A service that fails to start has closed what it opened (launcher/service-parts.ts).
        const service = await SERVICE_STARTERS[name](platform);
        started[name] = service;
        urls[name] = service.url;
        cleanups.push(() => service.stop());
        // Closed before the services stop, whether the next one fails to start or all of them
        // stop: running handlers finish before the databases close.
        cleanups.push(closeQueue);
      }
    }

    if (processes.includes('gateway')) {
      const gateway = await startGateway({
        supergraphSdl: readSupergraph(),
        subgraphUrls: Object.fromEntries(
          SUBGRAPHS.map(({ name }) => [name, subgraphUrl(name, started[name], settings)]),
        ),
        host: settings.http.host,
        port: settings.http.ports.gateway,
        logger: logger.child({ service: 'gateway' }),
        metrics,
      });
      urls.gateway = gateway.url;
      cleanups.push(() => gateway.close());
    }
    const queue = platform?.queue;
    return { urls, platform, whenReady: async () => queue?.whenReady(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * CONTRACT section 1: the in-process queue connects only the services of one process.
 * Without NATS_URL, a process must run every service of this build (audit entries and
 * credits would otherwise go into a queue nothing reads), or none (the gateway alone).
 * Answers why the processes cannot run, or undefined when they can.
 */
export function inProcessQueueProblem(
  processes: readonly StartableProcess[],
  settings: Settings,
): string | undefined {
  if (settings.queue.natsUrl) return undefined;
  const services = STARTABLE_SERVICES.filter((name) => processes.includes(name));
  if (services.length === 0 || services.length === STARTABLE_SERVICES.length) return undefined;
  const missing = STARTABLE_SERVICES.filter((name) => !services.includes(name));
  return (
    `NATS_URL is not set, and the in-process queue only connects services of one process: ` +
    `${services.join(', ')} alone would exchange events with ${missing.join(', ')} through nothing. ` +
    'Set NATS_URL (and DATABASE_URL) to run services apart, or start them all (`npm start`).'
  );
}

/**
 * CONTRACT section 1: in production the identity service, which signs tokens, refuses to
 * start without a private key. (Elsewhere a verify-only identity service starts, reports
 * not ready and answers 500 where it would sign; its tests use that.)
 */
function assertCanSign(keys: SigningKeys): void {
  if (!keys.privateKey) {
    throw new Error(
      'Jwt:PrivateKey: required by the identity service, which signs tokens (Jwt:PublicKey only verifies them)',
    );
  }
}

/**
 * What the services of this process share: the database server (embedded when
 * DATABASE_URL is unset, started when a service first asks for it), the queue, the
 * signing keys and the master key.
 */
async function startPlatform(
  {
    settings,
    logger,
    metrics,
    clock,
    keys,
    masterKey,
    resolver,
  }: {
    settings: Settings;
    logger: Logger;
    metrics: Metrics;
    clock: Clock;
    keys: SigningKeys;
    masterKey: MasterKey | undefined;
    resolver: HostResolver;
  },
  cleanups: (() => Promise<void>)[],
  startedUrl: (service: ServiceName) => string | undefined,
): Promise<PlatformContext> {
  let database: Promise<string> | undefined;
  const startDatabase = async (): Promise<string> => {
    if (settings.database.url) return settings.database.url;
    const embedded = await startEmbeddedPostgres({
      dataDir: settings.dataDir,
      port: settings.database.embeddedPort,
      logger: logger.child({ component: 'embedded-postgres' }),
    });
    cleanups.push(() => embedded.stop());
    return embedded.url;
  };
  const queue = createQueue(settings, logger, 'config-library');
  await queue.start();
  watchQueue(metrics, queue);
  return {
    settings,
    logger,
    metrics,
    clock,
    queue,
    databaseUrl: () => (database ??= startDatabase()),
    keys,
    masterKey,
    verifier: new TokenVerifier(keys, settings.jwt, clock),
    resolver,
    peerUrl: (service) => startedUrl(service) ?? settings.peers[service],
  };
}

function subgraphUrl(name: ServiceName, started: StartedService | undefined, settings: Settings): string {
  if (started?.graphqlUrl) return started.graphqlUrl;
  const configured = settings.peers[name];
  return configured
    ? `${configured.replace(/\/$/, '')}/graphql`
    : defaultSubgraphUrl(name, settings.http.ports);
}
