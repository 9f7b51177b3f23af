import {
  SERVICE_NAMES,
  type ProcessName,
  type ServiceName,
  type Settings,
} from '../platform/config/settings.js';
import { loadSigningKeys } from '../platform/auth/signing-keys.js';
import { TokenVerifier } from '../platform/auth/token-verifier.js';
import { startEmbeddedPostgres } from '../platform/db/embedded-postgres.js';
import { systemResolver, type HostResolver } from '../platform/http/public-address.js';
import { createLogger, type Logger } from '../platform/logging/logger.js';
import { createQueue } from '../platform/queue/create-queue.js';
import type { Queue } from '../platform/queue/queue.js';
import { systemClock, type Clock } from '../platform/time/clock.js';
import { startGateway } from '../gateway/gateway.js';
import { readSupergraph } from '../gateway/supergraph.js';
import { defaultSubgraphUrl, SUBGRAPHS } from '../gateway/subgraphs.js';
import type { PlatformContext, StartedService } from './platform-context.js';
import { startAccountService } from './services/account.js';
import { startAuditService } from './services/audit.js';
import { startIdentityService } from './services/identity.js';

/** Services this build can start, in start order (those others record audit entries with come first). */
const SERVICE_STARTERS: Partial<Record<ServiceName, (platform: PlatformContext) => Promise<StartedService>>> =
  {
    audit: startAuditService,
    account: startAccountService,
    identity: startIdentityService,
  };

export const STARTABLE: ProcessName[] = [
  ...SERVICE_NAMES.filter((name) => SERVICE_STARTERS[name] !== undefined),
  'gateway',
];

export interface SystemOptions {
  settings: Settings;
  /** What to start; everything startable when omitted. */
  processes?: ProcessName[];
  clock?: Clock;
  logger?: Logger;
  resolver?: HostResolver;
}

export interface RunningSystem {
  readonly urls: Partial<Record<ProcessName, string>>;
  /** What the services share; absent when only the gateway runs. */
  readonly platform: PlatformContext | undefined;
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
    const services = processes.filter((name): name is ServiceName => name !== 'gateway');
    const started: Partial<Record<ServiceName, StartedService>> = {};
    const urls: Partial<Record<ProcessName, string>> = {};
    let platform: PlatformContext | undefined;
    if (services.length > 0) {
      platform = await startPlatform(
        { settings, logger, clock, resolver: options.resolver ?? systemResolver },
        cleanups,
        (service) => started[service]?.url,
      );
      for (const name of SERVICE_NAMES) {
        if (!services.includes(name)) continue;
        const starter = SERVICE_STARTERS[name];
        if (!starter) throw new Error(`The ${name} service is not part of this build yet.`);
        const service = await starter(platform);
        started[name] = service;
        urls[name] = service.url;
        cleanups.push(() => service.stop());
      }
      // Stopped first: consumers finish their message before the databases close.
      const queue = platform.queue;
      cleanups.push(() => queue.close());
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
      });
      urls.gateway = gateway.url;
      cleanups.push(() => gateway.close());
    }
    await platform?.queue.whenReady();
    return { urls, platform, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * What the services of this process share: the database server (embedded when
 * DATABASE_URL is unset), the queue and the signing keys.
 */
async function startPlatform(
  {
    settings,
    logger,
    clock,
    resolver,
  }: { settings: Settings; logger: Logger; clock: Clock; resolver: HostResolver },
  cleanups: (() => Promise<void>)[],
  startedUrl: (service: ServiceName) => string | undefined,
): Promise<PlatformContext> {
  // First, so a missing production key stops the start before anything else runs.
  const keys = await loadSigningKeys(settings, logger);
  let databaseUrl = settings.database.url;
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres({
      dataDir: settings.dataDir,
      port: settings.database.embeddedPort,
      logger: logger.child({ component: 'embedded-postgres' }),
    });
    cleanups.push(() => embedded.stop());
    databaseUrl = embedded.url;
  }
  const queue: Queue = createQueue(settings, logger, 'config-library');
  await queue.start();
  return {
    settings,
    logger,
    clock,
    queue,
    databaseUrl,
    keys,
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
