import type { ApiKeyCreatedView } from '../../subgraphs/account/api-keys/api-key.schemas.js';
import { eventually } from '../support/eventually.js';
import {
  administratorToken,
  createGroup,
  createOrganization,
  createUser,
  expectStatus,
  setMembers,
} from '../support/factories.js';
import { graphql, graphqlData } from '../support/graphql.js';
import type { HttpClient } from '../support/http-client.js';
import { createSet, createTagGroup, createVariable, librarianToken } from '../support/library-factories.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

// More than 15 characters: its hint is its first 4 (spec 2 "Sensitive values").
const SECRET = 's3cret-password-of-the-db';
/** Each organization starts with this many credits; a read costs VariablePreviewCost (10). */
const INCLUDED = 200;

let system: TestSystem;
let library: HttpClient;

beforeAll(async () => {
  system = await startTestSystem({ overrides: { 'Credits:IncludedCredits': INCLUDED } });
  library = system.client('library');
});

afterAll(() => system.stop());

interface Built {
  organizationId: string;
  admin: string;
  service: number;
  dsnId: number;
  /** Service account tokens from API keys: one reading secrets, one not. */
  trusted: string;
  reader: string;
}

/** A library built through the API, and two service accounts signed in with API keys. */
async function buildLibrary(name: string): Promise<Built> {
  const organizationId = (await createOrganization(system, name)).id;
  const admin = await librarianToken(system, organizationId);
  await createTagGroup(system, admin, 'Environment', ['Prod', 'Dev']);
  await createTagGroup(system, admin, 'Region', ['EU', 'US']);
  const base = (await createSet(system, admin, { name: 'Base' })).id;
  const service = (await createSet(system, admin, { name: 'Service', parentVariableSetId: base })).id;
  await createVariable(system, admin, {
    name: 'Host',
    variableSetId: base,
    values: [{ value: 'db.dev' }, { value: 'db.prod', tags: ['Environment/Prod'] }],
  });
  await createVariable(system, admin, {
    name: 'Password',
    variableSetId: base,
    sensitive: true,
    values: [{ value: SECRET }],
  });
  const dsn = await createVariable(system, admin, {
    name: 'Dsn',
    variableSetId: service,
    values: [{ value: 'postgres://app:@[password]@@[Host]/app' }],
  });
  await createVariable(system, admin, {
    name: 'Replicas',
    variableSetId: service,
    type: 'Number',
    values: [
      { numberValue: 1 },
      { numberValue: 3, tags: ['Environment/Prod'] },
      { numberValue: 5, tags: ['Environment/Prod', 'Region/EU'] },
    ],
  });
  return {
    organizationId,
    admin,
    service,
    dsnId: dsn.id,
    trusted: await serviceAccountToken(organizationId, 'Trusted', ['VariableRead', 'VariableReadSecrets']),
    reader: await serviceAccountToken(organizationId, 'Reader', ['VariableRead']),
  };
}

/** A service account in a group of its own with these permissions, signed in with an API key (spec 5). */
async function serviceAccountToken(organizationId: string, name: string, permissions: string[]) {
  const group = await createGroup(system, organizationId, { name, permissions });
  const robot = await createUser(system, organizationId, { name, serviceAccount: true });
  await setMembers(system, organizationId, group.id, [robot.id]);
  const key = await expectStatus(
    system.client('account').post<ApiKeyCreatedView>(`/users/${robot.id}/apikeys`, {
      token: await administratorToken(system, organizationId),
      body: { description: name, expiry: 'OneDay' },
    }),
    201,
  );
  const signedIn = await system
    .client('identity')
    .post('/apikeyjwt', { headers: { 'x-svc-api': key.apiKey } });
  expect(signedIn.status).toBe(200);
  return signedIn.headers.get('x-svc-auth')!;
}

const usedCredits = async (token: string) =>
  (
    await expectStatus(
      system.client('account').get<{ usedCredits: number }>('/organizations/me/credits', { token }),
      200,
    )
  ).usedCredits;

describe('issue 11 journey (spec 4.1, 2 "Sensitive values", 8): a service reads its configuration through REST', () => {
  it('resolves for several tag sets with and without VariableReadSecrets, pays per read, polls with If-None-Match for free until a change, and meets 429 at the limit', async () => {
    const built = await buildLibrary('Journey REST');
    const read = (token: string, tags: string[], headers: Record<string, string> = {}) =>
      library.get<{ total: number; items: Record<string, string> }>(
        `/variablevalues?set=${built.service}${tags.map((tag) => `&tag=${tag}`).join('')}`,
        { token, headers },
      );

    const prodEu = await expectStatus(read(built.trusted, ['Environment/Prod', 'Region/EU']), 200);
    expect(prodEu).toEqual({
      total: 4,
      items: {
        Dsn: `postgres://app:${SECRET}@db.prod/app`,
        Host: 'db.prod',
        Password: SECRET,
        Replicas: '5',
      },
    });
    const dev = await expectStatus(read(built.trusted, ['Environment/Dev']), 200);
    expect(dev.items).toMatchObject({ Host: 'db.dev', Replicas: '1' });
    const prodUs = await expectStatus(read(built.reader, ['Environment/Prod', 'Region/US']), 200);
    // Without VariableReadSecrets the secret, and the value embedding it, are their hints.
    expect(prodUs.items).toEqual({ Dsn: 'post', Host: 'db.prod', Password: 's3cr', Replicas: '3' });
    await eventually(async () => expect(await usedCredits(built.admin)).toBe(30));

    // Polling: the ETag comes back as 304, with no body, and costs nothing.
    const first = await read(built.reader, ['Environment/Prod']);
    const etag = first.headers.get('etag')!;
    for (let poll = 0; poll < 3; poll++) {
      const unchanged = await read(built.reader, ['Environment/Prod'], { 'if-none-match': etag });
      expect(unchanged.status).toBe(304);
      expect(unchanged.text).toBe('');
    }
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await usedCredits(built.admin)).toBe(40);

    const dsn = await expectStatus(
      library.get<{ version: number }>(`/variables/${built.dsnId}`, { token: built.admin }),
      200,
    );
    await expectStatus(
      library.put(`/variables/${built.dsnId}`, {
        token: built.admin,
        body: { version: dsn.version, values: [{ value: 'postgres://@[Host]/app2' }] },
      }),
      200,
    );
    const changed = await read(built.reader, ['Environment/Prod'], { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.items.Dsn).toBe('postgres://db.prod/app2');

    // 200 credits: 4 reads and a variable read (1) so far are 51; 14 more reads fit, the next does not.
    for (let n = 0; n < 14; n++) await expectStatus(read(built.reader, []), 200);
    const refused = await read(built.reader, []);
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('Insufficient credits: 9 available, 10 required.');
    await eventually(async () => expect(await usedCredits(built.admin)).toBe(191));
  });
});

const RESOLVE = `query ($sets: [Int!]!, $tags: [String!]!) {
  resolve(sets: $sets, tags: $tags) { total items { name value sensitive hint tags { name } } }
}`;

interface Resolved {
  resolve: {
    total: number;
    items: {
      name: string;
      value: string;
      sensitive: boolean;
      hint: string | null;
      tags: { name: string }[];
    }[];
  };
}

describe('issue 11 journey through the gateway: resolve(sets, tags, substitute) as the preview answers', () => {
  it('gives the preview for each caller, withholds secrets without VariableReadSecrets, charges VariablePreviewCost, and refuses past the limit', async () => {
    const built = await buildLibrary('Journey GraphQL');
    const gateway = system.client('gateway');
    const trusted = await graphqlData<Resolved>(gateway, built.trusted, RESOLVE, {
      sets: [built.service],
      tags: ['environment/Prod', 'Region/EU'],
    });
    expect(trusted.resolve.total).toBe(4);
    expect(trusted.resolve.items.map((item) => [item.name, item.value])).toEqual([
      ['Dsn', `postgres://app:${SECRET}@db.prod/app`],
      ['Host', 'db.prod'],
      ['Password', SECRET],
      ['Replicas', '5'],
    ]);
    expect(trusted.resolve.items[3]!.tags.map((tag) => tag.name).sort()).toEqual(['EU', 'Prod']);
    const reader = await graphqlData<Resolved>(gateway, built.reader, RESOLVE, {
      sets: [built.service],
      tags: [],
    });
    expect(reader.resolve.items.filter((item) => item.sensitive)).toEqual([
      { name: 'Dsn', value: '', sensitive: true, hint: 'post', tags: [] },
      { name: 'Password', value: '', sensitive: true, hint: 's3cr', tags: [] },
    ]);
    const preview = await expectStatus(
      library.get<{ items: Record<string, { value: string }> }>(
        `/variablevalues/preview?set=${built.service}`,
        { token: built.reader },
      ),
      200,
    );
    expect(Object.fromEntries(reader.resolve.items.map((item) => [item.name, item.value]))).toEqual(
      Object.fromEntries(Object.entries(preview.items).map(([name, item]) => [name, item.value])),
    );
    const unknown = await graphql(gateway, built.reader, RESOLVE, { sets: [999_999], tags: [] });
    expect(unknown.body.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    await eventually(async () => expect(await usedCredits(built.admin)).toBe(30));

    for (let n = 0; n < 17; n++)
      await graphqlData(gateway, built.reader, RESOLVE, { sets: [built.service], tags: [] });
    const refused = await graphql(gateway, built.reader, RESOLVE, { sets: [built.service], tags: [] });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: 'Insufficient credits: 0 available, 10 required.',
      extensions: { code: 'INSUFFICIENT_CREDITS' },
    });
  });
});
