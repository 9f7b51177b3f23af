import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenSigner } from '../platform/auth/token-signer.js';
import { loadSettings } from '../platform/config/settings.js';
import type { PermissionName } from '../platform/permissions/catalogue.js';
import { startSystem } from '../launcher/system.js';

export interface ServiceInProcess {
  readonly url: string;
  /** A session token for a new account of `organizationId` with these permissions. */
  sign(organizationId: string, permissions: PermissionName[]): Promise<string>;
  /** Stops the service and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * One service started in the benchmark's own process, as the audit and import benchmarks drive it:
 * DATABASE_URL and NATS_URL when set, the embedded defaults otherwise (a data folder of its own).
 */
export async function startServiceInProcess(service: 'audit' | 'library'): Promise<ServiceInProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'config-library-bench-'));
  // The embedded PostgreSQL runs as its own OS user when this runs as root: it must reach the folder.
  chmodSync(dataDir, 0o755);
  const settings = loadSettings({
    overrides: {
      DATA_DIR: dataDir,
      [`${service.toUpperCase()}_PORT`]: 0,
      GATEWAY_PORT: 0,
      LOG_LEVEL: 'warn',
      EMBEDDED_POSTGRES_PORT: 54339,
    },
  });
  const system = await startSystem({ settings, processes: [service] });
  const signer = new TokenSigner(system.platform!.keys, settings.jwt);
  return {
    url: system.urls[service]!,
    sign: (organizationId, permissions) =>
      signer.sign({ sub: randomUUID(), org: organizationId, permissions }, new Date()),
    stop: async () => {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
