import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenSigner } from '../platform/auth/token-signer.js';
import { loadSettings } from '../platform/config/settings.js';
import { startSystem } from '../launcher/system.js';
import { load, type LoadResult } from './load.js';

/**
 * The audit service under load over real HTTP: writing entries, listing a page, filtering.
 * Uses DATABASE_URL and NATS_URL when set, the embedded defaults otherwise.
 *   npm run bench -- audit [seconds] [concurrency]
 */
const seconds = Number(process.argv[2] ?? 10);
const concurrency = Number(process.argv[3] ?? 16);
const dataDir = mkdtempSync(join(tmpdir(), 'config-library-bench-'));
chmodSync(dataDir, 0o755);
const settings = loadSettings({
  overrides: {
    DATA_DIR: dataDir,
    AUDIT_PORT: 0,
    GATEWAY_PORT: 0,
    LOG_LEVEL: 'warn',
    EMBEDDED_POSTGRES_PORT: 54339,
  },
});
const system = await startSystem({ settings, processes: ['audit'] });
const signer = new TokenSigner(system.platform!.keys, settings.jwt);
const organizationId = randomUUID();
const token = await signer.sign(
  { sub: randomUUID(), org: organizationId, permissions: ['AuditList', 'AuditRead'] },
  new Date(),
);
const base = system.urls.audit!;
const headers = { 'x-svc-auth': token, 'content-type': 'application/json' };
const options = { concurrency, seconds };
const writes = Array.from({ length: 1000 }, (_, n) =>
  JSON.stringify({
    entryType: n % 2 ? 'Tag' : 'Variable',
    action: 'Create',
    entityName: `E${n}`,
    afterState: { n },
  }),
);
const filter = JSON.stringify([
  { field: 'EntryType', operatorType: 'eq', value: 'Tag' },
  { field: 'EntityName', operatorType: 'contains', value: '1' },
]);

const results: LoadResult[] = [
  await load(
    'POST / (write an entry)',
    base,
    { method: 'POST', path: '/', headers, bodies: writes },
    options,
  ),
  await load('GET /?take=10', base, { method: 'GET', path: '/?take=10', headers }, options),
  await load('GET /1 (one entry)', base, { method: 'GET', path: '/1', headers }, options),
  await load(
    'POST /filter (EntryType eq, EntityName contains)',
    base,
    { method: 'POST', path: '/filter?take=10', headers, bodies: [filter] },
    options,
  ),
];
await system.stop();
process.stdout.write(`audit service, ${concurrency} concurrent clients, ${seconds} s each\n`);
console.table(results); // eslint-disable-line no-console
