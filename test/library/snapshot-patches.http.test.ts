import { eventually } from '../support/eventually.js';
import { createOrganization, expectStatus } from '../support/factories.js';
import type { HttpClient } from '../support/http-client.js';
import { createSet, createTagGroup, createVariable, librarianToken } from '../support/library-factories.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

/**
 * Decisions "The read path": a write that changed only some variables patches the snapshot of the
 * replica that made it. Each patched answer must be the answer a replica reading the library whole
 * gives: `whole` runs on the same database, hears no notices, and reads the library again each time
 * its revision check finds it changed.
 */
let patching: TestSystem;
let whole: TestSystem;
let writer: HttpClient;
let admin: string;
let reader: string;
let questions: string[];
const ids: Record<string, number> = {};

beforeAll(async () => {
  patching = await startTestSystem({
    processes: ['account', 'audit', 'library'],
    overrides: { 'Credits:IncludedCredits': 100_000 },
  });
  whole = await startTestSystem({
    processes: ['library'],
    databaseUrl: patching.databaseUrl,
    overrides: { 'Account:ApiUrl': patching.system.urls.account },
  });
  writer = patching.client('library');
  const organizationId = (await createOrganization(patching, 'Patched')).id;
  admin = await librarianToken(patching, organizationId);
  reader = await patching.token({ organizationId, permissions: ['VariableRead'] });
  const env = await createTagGroup(patching, admin, 'Env', ['Prod', 'Dev']);
  ids.dev = env.tags.find((tag) => tag.name === 'Dev')!.id;
  ids.base = (await createSet(patching, admin, { name: 'Base' })).id;
  ids.child = (await createSet(patching, admin, { name: 'Child', parentVariableSetId: ids.base })).id;
  ids.other = (await createSet(patching, admin, { name: 'Other' })).id;
  for (const [key, body] of Object.entries({
    host: {
      name: 'Host',
      variableSetId: ids.base,
      values: [{ value: 'h' }, { value: 'hp', tags: ['Env/Prod'] }],
    },
    secret: {
      name: 'Secret',
      variableSetId: ids.base,
      sensitive: true,
      values: [{ value: 'a secret of twenty chars' }],
    },
    url: { name: 'Url', variableSetId: ids.child, values: [{ value: 'https://@[host]/@[Secret]' }] },
  })) {
    ids[key] = (await createVariable(patching, admin, body)).id;
  }
  questions = [
    `/variablevalues/preview?set=${ids.child}&tag=Env/Prod`,
    `/variablevalues/preview?set=${ids.child}&set=${ids.other}&tag=Env/Dev`,
    `/variablevalues?set=${ids.base}&set=${ids.other}`,
  ];
});

afterAll(async () => {
  await whole?.stop();
  await patching?.stop();
});

const answers = async (library: HttpClient) =>
  Promise.all(
    questions.flatMap((path) =>
      [admin, reader].map((token) => expectStatus(library.get<unknown>(path, { token }), 200)),
    ),
  );

const versionOf = async (id: number) =>
  (await expectStatus(writer.get<{ version: number }>(`/variables/${id}`, { token: admin }), 200)).version;

const steps: [string, () => Promise<unknown>][] = [
  [
    'a variable created',
    async () => {
      ids.port = (
        await createVariable(patching, admin, {
          name: 'Port',
          variableSetId: ids.child,
          type: 'Number',
          values: [{ numberValue: 80 }, { numberValue: 8080, tags: ['Env/Dev'] }],
        })
      ).id;
    },
  ],
  [
    "a variable's values and tags changed",
    async () =>
      writer.put(`/variables/${ids.host}`, {
        token: admin,
        body: {
          version: await versionOf(ids.host!),
          values: [{ value: 'h2' }, { value: 'hd', tags: ['Env/Dev'] }],
        },
      }),
  ],
  [
    'a variable renamed',
    async () =>
      writer.put(`/variables/${ids.url}`, {
        token: admin,
        body: { version: await versionOf(ids.url!), name: 'Endpoint' },
      }),
  ],
  [
    'a variable moved to another set',
    async () =>
      writer.put(`/variables/${ids.port}`, {
        token: admin,
        body: { version: await versionOf(ids.port!), variableSetId: ids.other },
      }),
  ],
  [
    'a variable made sensitive',
    async () =>
      writer.put(`/variables/${ids.host}`, {
        token: admin,
        body: { version: await versionOf(ids.host!), sensitive: true },
      }),
  ],
  ['a variable deleted', async () => writer.delete(`/variables/${ids.url}`, { token: admin })],
  [
    'a tag renamed (not a variable write: read whole)',
    async () => writer.put(`/tags/${ids.dev}`, { token: admin, body: { name: 'Development' } }),
  ],
  [
    'a variable changed after that',
    async () =>
      writer.put(`/variables/${ids.port}`, {
        token: admin,
        body: { version: await versionOf(ids.port!), values: [{ numberValue: 443 }] },
      }),
  ],
];

describe('decisions "The read path": a patched snapshot answers as the library read whole', () => {
  it.each(steps.map(([name], index) => [name, index]))('after %s', async (_name, index) => {
    const before = await answers(writer);
    const response = (await steps[index]![1]()) as { status?: number } | undefined;
    if (response?.status !== undefined) expect(response.status).toBe(200);
    const after = await answers(writer);
    expect(after).not.toEqual(before);
    await eventually(async () => expect(await answers(whole.client('library'))).toEqual(after), 5_000);
  });
});
