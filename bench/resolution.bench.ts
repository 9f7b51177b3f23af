import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSigningKeys } from '../platform/auth/signing-keys.js';
import { TokenSigner } from '../platform/auth/token-signer.js';
import { loadSettings } from '../platform/config/settings.js';
import { createScratchDatabase, dropScratchDatabase } from '../platform/db/scratch-database.js';
import { createLogger } from '../platform/logging/logger.js';
import type { PermissionName } from '../platform/permissions/catalogue.js';
import { deleteStreams } from '../platform/queue/nats-streams.js';
import { plannedVariables, readQuery, setName, SHAPES, TAG_GROUPS, type Shape } from './library-shape.js';
import { chooseLayout, startBenchSystem, type BenchSystem } from './bench-system.js';
import {
  CAN_PIN,
  memoryUnder,
  residentMemory,
  pinSelf,
  startPinned,
  type MemoryUnderLoad,
  type Started,
} from './pinned-process.js';
import { HAVE_WRK, wrk, type WrkResult } from './wrk.js';

/**
 * The read path under load (issue 11 item 8): `npm run bench -- resolution [M|L] [seconds=10]
 * [connections=100]`. Starts the system as `npm start` does (bench-system.ts: every service in one
 * process on the embedded defaults; the library alone in a process of its own, as a production
 * replica runs, when DATABASE_URL and NATS_URL are set), the library's process pinned to core 0,
 * builds a library of the shape through the API, and drives warm GET /variablevalues with wrk
 * from core 1; then a plain Node `http` server answering the same bytes, on the same core, the
 * same way. RSS is that of the library's process.
 */
const shapeName = (process.argv[2] ?? 'M').toUpperCase();
const seconds = Number(process.argv[3] ?? 10);
const connections = Number(process.argv[4] ?? 100);
const shape = SHAPES[shapeName];
if (!shape) {
  process.stderr.write(`Choose a shape: ${Object.keys(SHAPES).join(', ')}\n`);
  process.exit(2);
}
if (!HAVE_WRK) {
  process.stderr.write('The benchmark drives load with wrk: install it (Debian: apt-get install wrk).\n');
  process.exit(2);
}
pinSelf(1);

const LIBRARY_PERMISSIONS: PermissionName[] = [
  'TagGroupCreate',
  'TagCreate',
  'VariableCreate',
  'VariableUpdate',
  'VariableRead',
  'VariableList',
];
/** How many of the shape's chains the load asks about, one question each, in turn. */
const QUESTIONS = 20;
const CHANGES = 20;

const log = (line: string) => process.stderr.write(`${line}\n`);
const layout = chooseLayout(process.env);
const serverUrl = process.env.DATABASE_URL;
const scratch = serverUrl ? await createScratchDatabase(serverUrl, 'bench') : undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'config-library-bench-'));
chmodSync(dataDir, 0o755);
const queuePrefix = `bench${randomBytes(3).toString('hex')}-`;
const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
let system: BenchSystem | undefined;
let plain: Started | undefined;
try {
  system = await startBenchSystem(
    layout,
    {
      ...process.env,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      DATA_DIR: dataDir,
      // BENCH_LOG_LEVEL=info: with a request line per read, to measure what the request log costs.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      QUEUE_PREFIX: queuePrefix,
      EMBEDDED_POSTGRES_PORT: '54341',
      LIBRARY_PORT: '0',
      ACCOUNT_PORT: '0',
      IDENTITY_PORT: '0',
      AUDIT_PORT: '0',
      GATEWAY_PORT: '0',
      Jwt__PrivateKey: privateKey,
      Credits__IncludedCredits: '2000000000',
    },
    [
      // BENCH_CPU_PROFILE=<dir>: the library's process writes a V8 CPU profile there when it stops.
      ...(process.env.BENCH_CPU_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
        : []),
      // BENCH_HEAP_SNAPSHOT=<dir>: a heap snapshot of the library's process there after the load.
      ...(process.env.BENCH_HEAP_SNAPSHOT
        ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${process.env.BENCH_HEAP_SNAPSHOT}`]
        : []),
    ],
    // The others' process (library-alone) shares wrk's core: the library's has core 0 to itself.
    { server: 0, others: 1 },
  );
  const { urls } = system;
  const settings = loadSettings({ env: {}, overrides: { 'Jwt:PrivateKey': privateKey } });
  const signer = new TokenSigner(await loadSigningKeys(settings, createLogger('silent')), settings.jwt);
  const sign = (organizationId: string, permissions: PermissionName[]) =>
    signer.sign({ sub: randomUUID(), org: organizationId, permissions }, new Date());

  const started = performance.now();
  const built = await buildLibrary(urls, shape, sign);
  log(`built shape ${shapeName} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // A replica serves a library others built: the process that took every write of the build (its
  // heap grown by them, and kept by V8) is replaced by a fresh one, as a replica starts.
  const builderPeakMb = system.restartLibrary ? residentMemory(system.library.child.pid!).peakMb : undefined;
  await system.restartLibrary?.();
  const reader = await sign(built.organizationId, ['VariableRead']);
  const paths = built.leaves.slice(0, QUESTIONS).map((setId, chain) => readQuery(setId, chain));
  const recorded: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
  for (const path of paths) {
    const response = await fetch(`${urls.library}${path}`, { headers: { 'x-svc-auth': reader } });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body.toString()}`);
    recorded[path] = {
      status: 200,
      headers: {
        'content-type': response.headers.get('content-type')!,
        etag: response.headers.get('etag')!,
      },
      body: body.toString('base64'),
    };
  }
  const options = { connections, seconds, core: 1 };
  const { result: library, memory: libraryMemory } = await memoryUnder(
    system.library.child.pid!,
    wrk(urls.library!, paths, { 'x-svc-auth': reader }, options),
  );
  if (process.env.BENCH_HEAP_SNAPSHOT) {
    system.library.child.kill('SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 15_000));
  }
  const writer = await sign(built.organizationId, LIBRARY_PERMISSIONS);
  const visible = await changeVisibility(urls.library!, built, reader, writer);
  await system.stop();
  system = undefined;

  const answers = join(dataDir, 'answers.json');
  writeFileSync(answers, JSON.stringify(recorded));
  plain = await startPinned(
    0,
    fileURLToPath(new URL('./plain-server.js', import.meta.url)),
    [answers],
    [],
    process.env,
    /READY \d+\n/,
  );
  const plainUrl = `http://127.0.0.1:${/READY (\d+)/.exec(plain.output)![1]}`;
  const { result: yardstick, memory: plainMemory } = await memoryUnder(
    plain.child.pid!,
    wrk(plainUrl, paths, { 'x-svc-auth': reader }, options),
  );
  await plain.stop();
  plain = undefined;

  const sizes = Object.values(recorded).map((answer) => Buffer.from(answer.body, 'base64').length);
  const row = (name: string, result: WrkResult, memory: MemoryUnderLoad) =>
    `| ${name} | ${result.perSecond} | ${result.p50Ms.toFixed(2)} | ${result.p99Ms.toFixed(2)} | ${memory.rssMb} / ${memory.loadMaxMb} (${memory.peakMb}) | ${result.non2xx} | ${result.errors} |`;
  process.stdout.write(
    [
      `Read path, shape ${shapeName}: ${built.sets} sets (chains of ${shape.depth}), ${built.variables} variables, ${built.values} values (${built.referring} with references, ${built.sensitive} sensitive), ${Object.keys(TAG_GROUPS).length} tag groups of 5`,
      `${paths.length} questions in turn (answers ${Math.min(...sizes)}-${Math.max(...sizes)} bytes), ${connections} connections, ${seconds} s each; ${CAN_PIN ? `server on core 0, wrk${layout === 'library-alone' ? ' and the other services' : ''} on core 1` : 'not pinned (taskset or a second core missing)'}`,
      layout === 'library-alone'
        ? `the library service alone in its process (RSS is that process's, started after the build, as a replica; the process that built the library peaked at ${builderPeakMb} MB); account, audit, identity and the gateway in a second`
        : "every service and the gateway in one process (RSS is the whole system's)",
      `PostgreSQL: ${scratch ? 'DATABASE_URL' : 'embedded'}; queue: ${process.env.NATS_URL ? 'NATS_URL' : 'in-process'}`,
      '',
      '| server | req/s | p50 ms | p99 ms | RSS MB at end / most under load (peak since start) | non-2xx | socket errors |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      row('library `GET /variablevalues`', library, libraryMemory),
      row('plain Node `http`, same bytes', yardstick, plainMemory),
      '',
      `ratio to the plain server: ${(library.perSecond / yardstick.perSecond).toFixed(2)}`,
      `a change through PUT /variables/{id} first read: p50 ${visible.p50.toFixed(1)} ms, max ${visible.max.toFixed(1)} ms (${CHANGES} changes)`,
      '',
    ].join('\n'),
  );
} finally {
  await system?.stop();
  await plain?.stop();
  if (scratch && serverUrl) await dropScratchDatabase(serverUrl, scratch.name);
  if (process.env.NATS_URL) await deleteStreams(process.env.NATS_URL, queuePrefix);
  rmSync(dataDir, { recursive: true, force: true });
}

interface BuiltLibrary {
  organizationId: string;
  /** The deepest set of each chain. */
  leaves: number[];
  /** A variable of the first chain's root set, each read of its leaf shows, for the change timing. */
  watched: { id: number; version: number; name: string };
  sets: number;
  variables: number;
  values: number;
  referring: number;
  sensitive: number;
}

/** Builds the shape through the REST API as an organization's librarian. */
async function buildLibrary(
  urls: Record<string, string>,
  shape: Shape,
  sign: (organizationId: string, permissions: PermissionName[]) => Promise<string>,
): Promise<BuiltLibrary> {
  const post = async <T>(base: string, path: string, token: string, body: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'x-svc-auth': token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const operator = await sign(randomUUID(), ['GlobalOrganizationCreate']);
  const organization = await post<{ id: string }>(urls.account!, '/organizations', operator, {
    name: `Bench ${randomUUID()}`,
  });
  const token = await sign(organization.id, LIBRARY_PERMISSIONS);
  for (const [group, tags] of Object.entries(TAG_GROUPS)) {
    const created = await post<{ id: number }>(urls.library!, '/taggroups', token, { name: group });
    for (const tag of tags) await post(urls.library!, '/tags', token, { name: tag, tagGroupId: created.id });
  }
  const setIds: number[][] = [];
  for (let chain = 0; chain < shape.chains; chain++) {
    const ids: number[] = [];
    for (let depth = 0; depth < shape.depth; depth++) {
      const set = await post<{ id: number }>(urls.library!, '/variablesets', token, {
        name: setName(chain, depth),
        parentVariableSetId: depth === 0 ? null : ids[depth - 1],
      });
      ids.push(set.id);
    }
    setIds.push(ids);
  }
  const planned = setIds.flatMap((ids, chain) =>
    ids.flatMap((_, depth) => plannedVariables(shape, chain, depth)),
  );
  const created: { id: number; version: number; name: string }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < planned.length) {
        const index = next++;
        const variable = planned[index]!;
        created[index] = await post(urls.library!, '/variables', token, {
          ...variable.body,
          variableSetId: setIds[variable.chain]![variable.depth]!,
        });
      }
    }),
  );
  const watchedIndex = planned.findIndex(
    (variable) =>
      variable.chain === 0 &&
      variable.depth === 0 &&
      !variable.body.name.startsWith('Shared') &&
      !variable.body.sensitive &&
      variable.body.type === 'String',
  );
  const values = planned.flatMap((variable) => variable.body.values);
  return {
    organizationId: organization.id,
    leaves: setIds.map((ids) => ids[ids.length - 1]!),
    watched: created[watchedIndex]!,
    sets: shape.chains * shape.depth,
    variables: planned.length,
    values: values.length,
    referring: values.filter((value) => value.value?.includes('@[')).length,
    sensitive: planned.filter((variable) => variable.body.sensitive).length,
  };
}

/** The time from sending a PUT to the first read of the leaf that shows it, over CHANGES changes. */
async function changeVisibility(
  libraryUrl: string,
  built: BuiltLibrary,
  reader: string,
  writer: string,
): Promise<{ p50: number; max: number }> {
  const timings: number[] = [];
  let version = built.watched.version;
  const leaf = `${libraryUrl}/variablevalues?set=${built.leaves[0]}`;
  for (let change = 0; change < CHANGES; change++) {
    const text = `changed-${change}`;
    const started = performance.now();
    const written = fetch(`${libraryUrl}/variables/${built.watched.id}`, {
      method: 'PUT',
      headers: { 'x-svc-auth': writer, 'content-type': 'application/json' },
      body: JSON.stringify({ version, values: [{ value: text }] }),
    }).then(async (response) => {
      if (response.status !== 200) throw new Error(`PUT: ${response.status} ${await response.text()}`);
      version = ((await response.json()) as { version: number }).version;
    });
    for (;;) {
      const items = (
        (await (await fetch(leaf, { headers: { 'x-svc-auth': reader } })).json()) as {
          items: Record<string, string>;
        }
      ).items;
      if (items[built.watched.name] === text) break;
    }
    timings.push(performance.now() - started);
    await written;
  }
  timings.sort((a, b) => a - b);
  return { p50: timings[Math.floor(timings.length / 2)]!, max: timings[timings.length - 1]! };
}
