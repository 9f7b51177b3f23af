import { randomUUID } from 'node:crypto';
import { libraryFileOf, SHAPES } from './library-shape.js';
import { startServiceInProcess } from './service-in-process.js';

/**
 * POST /import of a whole library (issue 12: a shape-M library, 5,000 values, in under 2 s),
 * over real HTTP: into empty organizations, and replacing the library it made.
 * Uses DATABASE_URL and NATS_URL when set, the embedded defaults otherwise.
 *   npm run bench -- import [M|L] [runs=5]
 */
const shapeName = process.argv[2] ?? 'M';
const shape = SHAPES[shapeName];
if (!shape) throw new Error(`No shape ${shapeName}: choose ${Object.keys(SHAPES).join(' or ')}`);
const runs = Number(process.argv[3] ?? 5);
const service = await startServiceInProcess('library');
const body = JSON.stringify(libraryFileOf(shape));
const values = shape.chains * shape.depth * shape.variablesPerSet * shape.valuesPerVariable;

async function importOnce(token: string, replace: boolean): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${service.url}/import?replaceExisting=${replace}`, {
    method: 'POST',
    headers: { 'x-svc-auth': token, 'content-type': 'application/json' },
    body,
  });
  const elapsed = performance.now() - started;
  if (response.status !== 200)
    throw new Error(`import answered ${response.status}: ${await response.text()}`);
  return elapsed;
}

function tokenOfNewOrganization(): Promise<string> {
  return service.sign(randomUUID(), [
    'BatchProcessingImport',
    'TagGroupList',
    'TagGroupCreate',
    'TagGroupDelete',
    'TagList',
    'TagCreate',
    'TagDelete',
    'VariableList',
    'VariableCreate',
    'VariableDelete',
  ]);
}

const rows: { import: string; ms: number }[] = [];
await importOnce(await tokenOfNewOrganization(), false); // warms the process up; not counted
for (let run = 0; run < runs; run++) {
  rows.push({
    import: `merge into an empty organization #${run + 1}`,
    ms: await importOnce(await tokenOfNewOrganization(), false),
  });
}
const replacer = await tokenOfNewOrganization();
await importOnce(replacer, false);
for (let run = 0; run < runs; run++) {
  rows.push({ import: `replace the same library #${run + 1}`, ms: await importOnce(replacer, true) });
}
await service.stop();
const sorted = rows.map((row) => row.ms).sort((a, b) => a - b);
process.stdout.write(
  `POST /import, shape ${shapeName}: ${shape.chains * shape.depth} sets, ${values} values, a ${(body.length / 1024).toFixed(0)} KiB file; median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms\n`,
);
console.table(rows.map((row) => ({ ...row, ms: Math.round(row.ms) }))); // eslint-disable-line no-console
