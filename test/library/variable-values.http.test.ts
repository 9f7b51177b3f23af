import { createHmac } from 'node:crypto';
import { createOrganization, expectStatus } from '../support/factories.js';
import { eventually } from '../support/eventually.js';
import type { HttpClient } from '../support/http-client.js';
import { createSet, createTagGroup, createVariable, librarianToken } from '../support/library-factories.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

interface Flat {
  total: number;
  items: Record<string, string>;
}
interface Preview {
  total: number;
  items: Record<
    string,
    {
      id: number;
      value: string;
      sensitive: boolean;
      hint: string | null;
      hash: string | null;
      tags: { id: number; name: string; tagGroupId: number }[];
    }
  >;
}

let system: TestSystem;
let library: HttpClient;
let organizationId: string;
let admin: string;
let base: number;
let web: number;
let api: number;

const SECRET = 'correct horse battery staple';

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit', 'library'] });
  library = system.client('library');
  organizationId = (await createOrganization(system, 'Reader')).id;
  admin = await librarianToken(system, organizationId);
  await createTagGroup(system, admin, 'Environment', ['Prod', 'Dev']);
  await createTagGroup(system, admin, 'Region', ['EU', 'US']);
  base = (await createSet(system, admin, { name: 'Base' })).id;
  web = (await createSet(system, admin, { name: 'Web', parentVariableSetId: base })).id;
  api = (await createSet(system, admin, { name: 'Api' })).id;
  await createVariable(system, admin, {
    name: 'Host',
    variableSetId: base,
    values: [{ value: 'db.local' }, { value: 'db.prod', tags: ['Environment/Prod'] }],
  });
  await createVariable(system, admin, {
    name: 'Port',
    variableSetId: base,
    type: 'Number',
    values: [{ numberValue: 5432 }, { numberValue: 1e21, tags: ['Region/EU'] }],
  });
  await createVariable(system, admin, {
    name: 'Debug',
    variableSetId: web,
    type: 'Boolean',
    values: [{ booleanValue: false }, { booleanValue: true, tags: ['Environment/Dev'] }],
  });
  await createVariable(system, admin, {
    name: 'Password',
    variableSetId: base,
    sensitive: true,
    values: [{ value: SECRET }],
  });
  await createVariable(system, admin, {
    name: 'Dsn',
    variableSetId: web,
    values: [{ value: 'postgres://app:@[Password]@@[HOST]:@[Port]/@[Missing]' }],
  });
  await createVariable(system, admin, {
    name: 'Url',
    variableSetId: web,
    values: [{ value: 'https://web.eu', tags: ['Region/EU', 'Environment/Prod'] }, { value: 'https://web' }],
  });
  await createVariable(system, admin, {
    name: 'Url',
    variableSetId: api,
    values: [{ value: 'https://api' }],
  });
});

afterAll(() => system.stop());

const read = (path: string, token = admin, headers: Record<string, string> = {}) =>
  library.get<Flat>(path, { token, headers });

describe('spec 4.1 "Variable values (consumption)": GET /variablevalues', () => {
  it('resolves the sets with their ancestors and the tags into a flat map; a Number as JavaScript writes it, a Boolean true or false', async () => {
    const answer = await expectStatus(
      read(`/variablevalues?set=${web}&tag=environment/Prod&tag=Region/EU`),
      200,
    );
    expect(answer).toEqual({
      total: 6,
      items: {
        Debug: 'false',
        Dsn: `postgres://app:${SECRET}@db.prod:1e+21/@[Missing]`,
        Host: 'db.prod',
        Password: SECRET,
        Port: '1e+21',
        Url: 'https://web.eu',
      },
    });
  });

  it('spec 4.1 rule 6: the group part of a tag is matched without regard to case, the tag part with it; an unknown tag matches nothing', async () => {
    const answer = await expectStatus(
      read(`/variablevalues?set=${web}&tag=ENVIRONMENT/Dev&tag=Environment/prod&tag=Nowhere/X`),
      200,
    );
    expect(answer.items).toMatchObject({ Debug: 'true', Host: 'db.local' });
  });

  it('spec 4.1 rule 4: unrelated sets by name, the later name winning, never the query-string order', async () => {
    for (const query of [`set=${api}&set=${web}`, `set=${web}&set=${api}`]) {
      expect((await expectStatus(read(`/variablevalues?${query}`), 200)).items.Url).toBe('https://web');
    }
  });

  it('no set is 400 naming query.set; a set that does not exist, or of another organization, makes the whole request 404', async () => {
    const none = await library.get<Problem>('/variablevalues?tag=Region/EU', { token: admin });
    expect(none.status).toBe(400);
    expect(none.body.errors?.[0]?.field).toBe('query.set');
    expect((await read(`/variablevalues?set=${web}&set=999999`)).status).toBe(404);
    const stranger = await librarianToken(system, (await createOrganization(system, 'Stranger')).id);
    const theirs = await createSet(system, stranger, { name: 'Theirs' });
    expect((await read(`/variablevalues?set=${web}&set=${theirs.id}`)).status).toBe(404);
  });

  it('needs VariableRead for every set reached, ancestors included: an ancestor outside a restricted scope is 403', async () => {
    const onlyWeb = await system.token({
      organizationId,
      permissions: ['VariableRead'],
      variableSets: { VariableRead: [web] },
    });
    expect((await read(`/variablevalues?set=${web}`, onlyWeb)).status).toBe(403);
    const both = await system.token({
      organizationId,
      permissions: ['VariableRead'],
      variableSets: { VariableRead: [web, base] },
    });
    expect((await read(`/variablevalues?set=${web}`, both)).status).toBe(200);
    expect(
      (await read(`/variablevalues?set=${web}`, await system.token({ organizationId, permissions: [] })))
        .status,
    ).toBe(403);
  });

  it('spec 2 "Sensitive values": without VariableReadSecrets a secret is its hint, and so is a value embedding it (Substitution rule 5)', async () => {
    const reader = await system.token({ organizationId, permissions: ['VariableRead'] });
    const answer = await expectStatus(read(`/variablevalues?set=${web}`, reader), 200);
    expect(answer.items.Password).toBe('corr');
    expect(answer.items.Dsn).toBe('post');
    expect(JSON.stringify(answer)).not.toContain(SECRET);
  });
});

describe('decisions "The read path": served before Express, answered as Express would answer it', () => {
  it('the same bytes and ETag by the direct path and by Express (a path written another way, HEAD)', async () => {
    const direct = await read(`/variablevalues?set=${web}&tag=Region/EU`);
    const routed = await read(`/VariableValues/?set=${web}&tag=Region/EU`);
    expect(routed.status).toBe(200);
    expect(routed.text).toBe(direct.text);
    expect(routed.headers.get('etag')).toBe(direct.headers.get('etag'));
    expect(routed.headers.get('content-type')).toBe(direct.headers.get('content-type'));
    const head = await fetch(`${system.system.urls.library}/variablevalues?set=${web}`, {
      method: 'HEAD',
      headers: { 'x-svc-auth': admin },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe((await read(`/variablevalues?set=${web}`)).headers.get('etag'));
  });

  it('errors by the direct path are the problem details the error handler writes, with the request as instance', async () => {
    const direct = await library.get<Problem>(`/variablevalues?set=abc`, { token: admin });
    const routed = await library.get<Problem>(`/variablevalues/?set=abc`, { token: admin });
    expect(direct.status).toBe(400);
    expect(direct.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect({ ...direct.body, instance: undefined }).toEqual({ ...routed.body, instance: undefined });
    expect(direct.body.instance).toBe('/variablevalues?set=abc');
    const anonymous = await library.get<Problem>(`/variablevalues?set=${web}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.title).toBe((await library.get<Problem>(`/variablevalues/?set=${web}`)).body.title);
  });
});

describe('spec 4.1: GET /variablevalues/preview', () => {
  it('answers the winning value objects with their tag objects', async () => {
    const answer = await expectStatus(
      library.get<Preview>(`/variablevalues/preview?set=${web}&tag=Environment/Prod&tag=Region/EU`, {
        token: admin,
      }),
      200,
    );
    expect(answer.items.Url).toMatchObject({
      value: 'https://web.eu',
      sensitive: false,
      hint: null,
      hash: null,
    });
    expect(answer.items.Url!.tags.map((tag) => tag.name).sort()).toEqual(['EU', 'Prod']);
  });

  it('without VariableReadSecrets a secret is an empty value beside its hint and hash; a value embedding one gets a hint and hash of its own text', async () => {
    const reader = await system.token({ organizationId, permissions: ['VariableRead'] });
    const answer = await expectStatus(
      library.get<Preview>(`/variablevalues/preview?set=${web}`, { token: reader }),
      200,
    );
    const hash = (text: string) => createHmac('sha256', organizationId).update(text).digest('hex');
    expect(answer.items.Password).toMatchObject({
      value: '',
      sensitive: true,
      hint: 'corr',
      hash: hash(SECRET),
    });
    const composed = `postgres://app:${SECRET}@db.local:5432/@[Missing]`;
    expect(answer.items.Dsn).toMatchObject({
      value: '',
      sensitive: true,
      hint: 'post',
      hash: hash(composed),
    });
  });

  it('substitute=false answers the winners as stored, no @[Name] replaced', async () => {
    const answer = await expectStatus(
      library.get<Preview>(`/variablevalues/preview?set=${web}&substitute=false`, { token: admin }),
      200,
    );
    expect(answer.items.Dsn).toMatchObject({
      value: 'postgres://app:@[Password]@@[HOST]:@[Port]/@[Missing]',
      sensitive: false,
    });
  });
});

describe('issue 11.6: ETag and conditional reads; spec 8: VariablePreviewCost per call, 304 not charged', () => {
  it('answers 304 with no body while the answer is the same, uncharged, and 200 with the change after a write', async () => {
    const metered = (await createOrganization(system, 'Polling')).id;
    const token = await librarianToken(system, metered);
    const set = await createSet(system, token, { name: 'Polled' });
    const variable = await createVariable(system, token, {
      name: 'Mode',
      variableSetId: set.id,
      values: [{ value: 'one' }],
    });
    const credits = async () =>
      (
        await expectStatus(
          system.client('account').get<{ usedCredits: number }>('/organizations/me/credits', { token }),
          200,
        )
      ).usedCredits;
    const first = await expectStatus(read(`/variablevalues?set=${set.id}`, token), 200);
    expect(first.items.Mode).toBe('one');
    const etag = (await read(`/variablevalues?set=${set.id}`, token)).headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    for (let poll = 0; poll < 3; poll++) {
      const unchanged = await read(`/variablevalues?set=${set.id}`, token, { 'if-none-match': etag });
      expect(unchanged.status).toBe(304);
      expect(unchanged.text).toBe('');
    }
    await eventually(async () => expect(await credits()).toBe(20));
    await expectStatus(
      library.put(`/variables/${variable.id}`, { token, body: { values: [{ value: 'two' }] } }),
      200,
    );
    const changed = await read(`/variablevalues?set=${set.id}`, token, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body.items.Mode).toBe('two');
    expect(changed.headers.get('etag')).not.toBe(etag);
    await eventually(async () => expect(await credits()).toBe(30));
  });
});

describe('issue 11.6: the OpenAPI document declares the conditional read', () => {
  it.each(['/variablevalues', '/variablevalues/preview'])(
    'GET %s takes If-None-Match and answers an ETag, and documents the 304',
    async (path) => {
      interface Operation {
        parameters: { name: string; in: string }[];
        responses: Record<string, { headers?: Record<string, unknown> }>;
      }
      const document = await library.get<{ paths: Record<string, { get: Operation }> }>('/openapi/v1.json');
      const operation = document.body.paths[path]!.get;
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ name: 'If-None-Match', in: 'header' }),
      );
      expect(Object.keys(operation.responses['200']!.headers ?? {})).toEqual(['ETag']);
      expect(operation.responses).toHaveProperty('304');
    },
  );
});
