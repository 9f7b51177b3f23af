import type { Settings, ServiceName } from '../platform/config/settings.js';
import type { SigningKeys } from '../platform/auth/signing-keys.js';
import type { MasterKey } from '../platform/encryption/master-key.js';
import type { TokenVerifier } from '../platform/auth/token-verifier.js';
import type { HostResolver } from '../platform/http/public-address.js';
import type { Logger } from '../platform/logging/logger.js';
import type { Metrics } from '../platform/metrics/metrics.js';
import type { Queue } from '../platform/queue/queue.js';
import type { Clock } from '../platform/time/clock.js';

/** What the launcher hands every service it starts: shared by all services of one process. */
export interface PlatformContext {
  readonly settings: Settings;
  readonly logger: Logger;
  /** The process's metrics, served at `/metrics` on every port. */
  readonly metrics: Metrics;
  readonly clock: Clock;
  readonly queue: Queue;
  /** The PostgreSQL server's URL; the embedded server starts on the first call (services without storage never call it). */
  databaseUrl(): Promise<string>;
  readonly keys: SigningKeys;
  /** Encryption:MasterKey; loaded only when the library service, which encrypts, is started here. */
  readonly masterKey: MasterKey | undefined;
  readonly verifier: TokenVerifier;
  /** How outbound calls to third parties find addresses (injected so tests can point a host anywhere). */
  readonly resolver: HostResolver;
  /** Base URL of each peer service: started in this process, or configured (CONTRACT section 1). */
  peerUrl(service: ServiceName): string | undefined;
}

/** A service the launcher started. */
export interface StartedService {
  readonly url: string;
  /** Where the gateway finds its subgraph, if it has one. */
  readonly graphqlUrl?: string;
  stop(): Promise<void>;
}
