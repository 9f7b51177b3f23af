import { randomUUID } from 'node:crypto';
import { load, type LoadResult } from './load.js';
import { startServiceInProcess } from './service-in-process.js';

/**
 * The audit service under load over real HTTP: writing entries, listing a page, filtering.
 * Uses DATABASE_URL and NATS_URL when set, the embedded defaults otherwise.
 *   npm run bench -- audit [seconds] [concurrency]
 */
const seconds = Number(process.argv[2] ?? 10);
const concurrency = Number(process.argv[3] ?? 16);
const service = await startServiceInProcess('audit');
const token = await service.sign(randomUUID(), ['AuditList', 'AuditRead']);
const base = service.url;
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
await service.stop();
process.stdout.write(`audit service, ${concurrency} concurrent clients, ${seconds} s each\n`);
console.table(results); // eslint-disable-line no-console
