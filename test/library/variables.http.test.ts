import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { projectPath } from '../../platform/project-path.js';
import type { VariableSetDetailView } from '../../subgraphs/library/sets/variable-set.schemas.js';
import type { TagGroupView } from '../../subgraphs/library/tag-groups/tag-group.schemas.js';
import type { VariableView } from '../../subgraphs/library/variables/variable.schemas.js';
import { auditEntries, conditionsAbout } from '../support/audit-log.js';
import { eventually } from '../support/eventually.js';
import { createOrganization, expectStatus } from '../support/factories.js';
import type { HttpClient } from '../support/http-client.js';
import {
  createSet,
  createTagGroup,
  createVariable,
  expectNeedsOnly,
  librarianToken,
} from '../support/library-factories.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let library: HttpClient;
let orgA: string;
let orgB: string;
let tokenA: string;
let tokenB: string;
let setId: number;
let env: TagGroupView;
let region: TagGroupView;

const SECRET = 'correct horse battery staple';

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit', 'library'] });
  library = system.client('library');
  orgA = (await createOrganization(system, 'Variables A')).id;
  orgB = (await createOrganization(system, 'Variables B')).id;
  tokenA = await librarianToken(system, orgA);
  tokenB = await librarianToken(system, orgB);
  setId = (await createSet(system, tokenA, { name: 'Main' })).id;
  env = await createTagGroup(system, tokenA, 'Environment', ['Prod', 'prod', 'Dev']);
  region = await createTagGroup(system, tokenA, 'Region', ['EU', 'US']);
});

afterAll(() => system.stop());

const tokenWith = (
  permissions: Parameters<TestSystem['token']>[0]['permissions'],
  variableSets?: Parameters<TestSystem['token']>[0]['variableSets'],
) => system.token({ organizationId: orgA, permissions, variableSets });
const tagId = (group: TagGroupView, name: string) => group.tags.find((tag) => tag.name === name)!.id;
const variableNamed = (name: string, body: Record<string, unknown> = {}) =>
  createVariable(system, tokenA, { name, variableSetId: setId, ...body });

describe('spec 4.1: each variable path needs exactly its permission', () => {
  it.each([
    ['GET', '/variables', 'VariableList'],
    ['GET', '/variables/{id}', 'VariableRead'],
    ['POST', '/variables', 'VariableCreate'],
    ['PUT', '/variables/{id}', 'VariableUpdate'],
    ['DELETE', '/variables/{id}', 'VariableDelete'],
  ] as const)(
    '%s %s needs %s: 403 with every other library permission, 401 without a session',
    async (method, template, permission) => {
      const variable = await variableNamed(`Perm${permission}`);
      const path = template.replace('{id}', String(variable.id));
      const body =
        method === 'POST'
          ? { name: `Made${permission}`, variableSetId: setId }
          : method === 'PUT'
            ? { values: [] }
            : undefined;
      await expectNeedsOnly(system, orgA, permission, { method, path, body });
    },
  );
});

describe('spec 2 Variable "Type storage" and rule 1: every value has its variable\'s type, in its storage field', () => {
  it.each([
    ['String', [{ value: 'eu-west-1' }], 'value', 'eu-west-1'],
    ['Multiline', [{ value: 'line one\nline two' }], 'value', 'line one\nline two'],
    ['Json', [{ value: '{"pool":5}' }], 'value', '{"pool":5}'],
    ['Number', [{ numberValue: 3.5 }], 'numberValue', 3.5],
    ['Boolean', [{ booleanValue: true }], 'booleanValue', true],
    [
      'Certificate',
      [
        {
          value: readFileSync(
            projectPath('test', 'support', 'fixtures', 'self-signed-certificate.pem'),
            'utf8',
          ),
        },
      ],
      'value',
      undefined,
    ],
  ] as const)('a %s stores its value in %s', async (type, values, field, stored) => {
    const variable = await variableNamed(`Typed${type}`, { type, values });
    expect(variable.type).toBe(type);
    if (stored !== undefined) expect(variable.values[0]![field]).toBe(stored);
    for (const other of ['value', 'numberValue', 'booleanValue'] as const) {
      if (other !== field) expect(variable.values[0]![other]).toBeNull();
    }
  });

  it('String is the default type', async () => {
    expect((await variableNamed('Untyped', { values: [{ value: 'x' }] })).type).toBe('String');
  });

  it.each([
    ['Number', { value: '5' }, 'body.values[0].value'],
    ['String', { value: 'two\nlines' }, 'body.values[0].value'],
    ['Json', { value: '{broken' }, 'body.values[0].value'],
    ['Certificate', { value: 'not a certificate' }, 'body.values[0].value'],
    ['Boolean', { value: 'true' }, 'body.values[0].value'],
  ])('a %s value %j is 400 naming %s, and nothing is stored', async (type, value, field) => {
    const name = `Refused${type}`;
    const response = await library.post<Problem>('/variables', {
      token: tokenA,
      body: { name, variableSetId: setId, type, values: [value] },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.map((error) => error.field)).toEqual([field]);
    const listed = await expectStatus(
      library.get<{ items: VariableView[] }>(`/variables?variableSetId=${setId}`, { token: tokenA }),
      200,
    );
    expect(listed.items.map((v) => v.name)).not.toContain(name);
  });
});

describe('spec 2 Variable rule 2 / spec 3 "Variable type": Boolean is fixed at creation; every other type switches to any other but Boolean', () => {
  it('a Boolean keeps its type (400) and nothing becomes a Boolean (400)', async () => {
    const flag = await variableNamed('FixedFlag', { type: 'Boolean', values: [{ booleanValue: false }] });
    const fromBoolean = await library.put<Problem>(`/variables/${flag.id}`, {
      token: tokenA,
      body: { type: 'String' },
    });
    expect(fromBoolean.status).toBe(400);
    const text = await variableNamed('NotAFlag', { values: [{ value: 'true' }] });
    const toBoolean = await library.put<Problem>(`/variables/${text.id}`, {
      token: tokenA,
      body: { type: 'Boolean' },
    });
    expect(toBoolean.status).toBe(400);
    expect(toBoolean.body.errors?.[0]?.field).toBe('body.type');
  });

  it('Number to String converts the stored values (plain decimal), and back', async () => {
    const number = await variableNamed('Switching', {
      type: 'Number',
      values: [{ numberValue: 1e21 }, { numberValue: 2.5, tags: ['Environment/Dev'] }],
    });
    const asText = await expectStatus(
      library.put<VariableView>(`/variables/${number.id}`, { token: tokenA, body: { type: 'String' } }),
      200,
    );
    expect(asText.values.map((value) => [value.value, value.numberValue])).toEqual([
      ['1000000000000000000000', null],
      ['2.5', null],
    ]);
    const back = await expectStatus(
      library.put<VariableView>(`/variables/${number.id}`, { token: tokenA, body: { type: 'Number' } }),
      200,
    );
    expect(back.values.map((value) => value.numberValue)).toEqual([1e21, 2.5]);
  });

  it('a value that cannot be converted is 400 naming it, and nothing changes', async () => {
    const text = await variableNamed('Unconvertible', {
      values: [{ value: '12' }, { value: 'twelve', tags: ['Environment/Dev'] }],
    });
    const response = await library.put<Problem>(`/variables/${text.id}`, {
      token: tokenA,
      body: { type: 'Number' },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'values[1].value', message: 'is not a number' }]);
    expect((await library.get<VariableView>(`/variables/${text.id}`, { token: tokenA })).body).toMatchObject({
      type: 'String',
      version: 1,
    });
  });
});

describe('spec 2 Variable rule 3: names unique in their set without regard to case (409 on create and on rename)', () => {
  it('409 on create and on rename; the same name in another set is no conflict', async () => {
    await variableNamed('ApiUrl');
    expect(
      (await library.post('/variables', { token: tokenA, body: { name: 'APIURL', variableSetId: setId } }))
        .status,
    ).toBe(409);
    const other = await variableNamed('OtherUrl');
    expect(
      (await library.put(`/variables/${other.id}`, { token: tokenA, body: { name: 'apiurl' } })).status,
    ).toBe(409);
    const elsewhere = await createSet(system, tokenA, { name: 'Elsewhere' });
    expect(
      (
        await library.post('/variables', {
          token: tokenA,
          body: { name: 'ApiUrl', variableSetId: elsewhere.id },
        })
      ).status,
    ).toBe(200);
  });

  it('decisions "Variable names": a name holding brackets is 400 (it could never be referred to as @[Name])', async () => {
    const response = await library.post<Problem>('/variables', {
      token: tokenA,
      body: { name: 'a[0]', variableSetId: setId },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.field).toBe('body.name');
  });
});

describe('spec 2 Variable rule 4: two values with the same tag combination are 409, two untagged values too', () => {
  it.each([
    [
      'the same tags in another order',
      [
        { value: 'a', tags: ['Environment/Prod', 'Region/EU'] },
        { value: 'b', tags: ['Region/EU', 'Environment/Prod'] },
      ],
    ],
    [
      'a name and an id of the same tag',
      [
        { value: 'a', tags: ['Region/US'] },
        { value: 'b', tags: [-1] },
      ],
    ],
    ['two untagged values', [{ value: 'a' }, { value: 'b', tags: [] }]],
    [
      'a tag that names nothing beside no tags',
      [{ value: 'a' }, { value: 'b', tags: ['Environment/Nowhere'] }],
    ],
  ])('%s: 409 naming both, nothing stored', async (_name, values) => {
    const withIds = values.map((value) => ({
      ...value,
      tags: (value.tags ?? []).map((tag) => (tag === -1 ? tagId(region, 'US') : tag)),
    }));
    const response = await library.post<Problem>('/variables', {
      token: tokenA,
      body: { name: 'Twice', variableSetId: setId, values: withIds },
    });
    expect(response.status).toBe(409);
    expect(response.body.detail).toContain('body.values[1] repeats body.values[0]');
  });
});

describe('spec 2 "Variable value": tags as Group/Tag or ids, mixed; group without regard to case, tag with it; one naming nothing skipped', () => {
  it('resolves names and ids to the tags, skips what names nothing, and answers tag objects', async () => {
    const variable = await variableNamed('Tagged', {
      values: [
        { value: 'prod-eu', tags: ['environment/Prod', tagId(region, 'EU'), 'Region/Mars', 999_999] },
        { value: 'lower-prod', tags: ['ENVIRONMENT/prod'] },
        { value: 'default', tags: ['Environment/PROD'] },
      ],
    });
    expect(
      variable.values.map((value) => [
        value.value,
        value.tags.map((tag) => [tag.id, tag.name, tag.tagGroupId]),
      ]),
    ).toEqual([
      [
        'prod-eu',
        [
          [tagId(env, 'Prod'), 'Prod', env.id],
          [tagId(region, 'EU'), 'EU', region.id],
        ],
      ],
      ['lower-prod', [[tagId(env, 'prod'), 'prod', env.id]]],
      ['default', []],
    ]);
  });

  it('spec 2 "Variable": values are returned ordered by value id, and a PUT keeps the ids of values it keeps', async () => {
    const variable = await variableNamed('Ordered', {
      values: [{ value: 'z', tags: ['Region/US'] }, { value: 'a', tags: ['Region/EU'] }, { value: 'm' }],
    });
    const ids = variable.values.map((value) => value.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const changed = await expectStatus(
      library.put<VariableView>(`/variables/${variable.id}`, {
        token: tokenA,
        body: {
          values: [
            { value: 'm2' },
            { value: 'a2', tags: ['Region/EU'] },
            { id: ids[0], value: 'z2', tags: ['Region/US'] },
          ],
        },
      }),
      200,
    );
    expect(changed.values.map((value) => [value.id, value.value])).toEqual([
      [ids[0], 'z2'],
      [ids[1], 'a2'],
      [ids[2], 'm2'],
    ]);
  });

  it("a value id that is not one of the variable's is 400 naming it", async () => {
    const variable = await variableNamed('Foreign value id', { values: [{ value: 'x' }] });
    const other = await variableNamed('Other values', { values: [{ value: 'y' }] });
    const response = await library.put<Problem>(`/variables/${variable.id}`, {
      token: tokenA,
      body: { values: [{ id: other.values[0]!.id, value: 'z' }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.field).toBe('body.values[0].id');
  });
});

describe('spec 2 "Sensitive values": hint and hash, and who is shown what', () => {
  const readerToken = () => tokenWith(['VariableRead', 'VariableList']);
  const hashOf = (text: string) => createHmac('sha256', orgA).update(text).digest('hex');

  it('without VariableReadSecrets the value is empty beside sensitive, hint and hash; with it, the value itself', async () => {
    const variable = await variableNamed('DbPassword', {
      sensitive: true,
      values: [{ value: SECRET }, { value: 'short', tags: ['Environment/Dev'] }],
    });
    expect(variable.values.map((value) => value.value)).toEqual([SECRET, 'short']);
    const withheld = await expectStatus(
      library.get<VariableView>(`/variables/${variable.id}`, { token: await readerToken() }),
      200,
    );
    expect(withheld.values).toEqual([
      expect.objectContaining({ value: '', sensitive: true, hint: 'corr', hash: hashOf(SECRET) }),
      expect.objectContaining({ value: '', sensitive: true, hint: '*****', hash: hashOf('short') }),
    ]);
    expect(withheld.values[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    const shown = await expectStatus(
      library.get<VariableView>(`/variables/${variable.id}`, { token: tokenA }),
      200,
    );
    expect(shown.values.map((value) => value.value)).toEqual([SECRET, 'short']);
  });

  it('the rule holds on GET /variables, GET /variablesets/{id}, and the answers to PUT /variables/{id} and PUT /variablesets/{id}', async () => {
    const set = await createSet(system, tokenA, { name: 'Secret set' });
    const variable = await createVariable(system, tokenA, {
      name: 'Token',
      variableSetId: set.id,
      sensitive: true,
      values: [{ value: SECRET }],
    });
    const writer = await tokenWith(['VariableList', 'VariableRead', 'VariableUpdate']);
    const texts: string[] = [];
    const list = await expectStatus(
      library.get<{ items: VariableView[] }>(`/variables?variableSetId=${set.id}`, { token: writer }),
      200,
    );
    texts.push(JSON.stringify(list));
    texts.push(
      JSON.stringify(
        await expectStatus(
          library.get<VariableSetDetailView>(`/variablesets/${set.id}`, { token: writer }),
          200,
        ),
      ),
    );
    texts.push(
      JSON.stringify(
        await expectStatus(
          library.put(`/variables/${variable.id}`, { token: writer, body: { name: 'Token2' } }),
          200,
        ),
      ),
    );
    texts.push(
      JSON.stringify(
        await expectStatus(
          library.put(`/variablesets/${set.id}`, { token: writer, body: { description: 'x' } }),
          200,
        ),
      ),
    );
    for (const text of texts) {
      expect(text).not.toContain(SECRET);
      expect(text).toContain('"hint":"corr"');
    }
  });

  it("a non-sensitive variable's values keep neither hint nor hash", async () => {
    const variable = await variableNamed('Plain', { values: [{ value: 'visible' }] });
    expect(variable.values[0]).toMatchObject({ sensitive: false, hint: null, hash: null, value: 'visible' });
  });

  it('spec 3: sensitivity only increases: true to false is 409, false to true derives hint and hash', async () => {
    const variable = await variableNamed('Hardening', { values: [{ value: SECRET }] });
    const hardened = await expectStatus(
      library.put<VariableView>(`/variables/${variable.id}`, { token: tokenA, body: { sensitive: true } }),
      200,
    );
    expect(hardened.values[0]).toMatchObject({
      sensitive: true,
      hint: 'corr',
      hash: hashOf(SECRET),
      value: SECRET,
    });
    const softened = await library.put<Problem>(`/variables/${variable.id}`, {
      token: tokenA,
      body: { sensitive: false },
    });
    expect(softened.status).toBe(409);
  });

  it('decisions "Per-value sensitive": a value written sensitive makes the variable sensitive', async () => {
    const variable = await variableNamed('ValueSaysSecret', { values: [{ value: SECRET, sensitive: true }] });
    expect(variable.sensitive).toBe(true);
  });

  it('CONTRACT 6: a Boolean is never sensitive: creating one so, or making one so, is 400', async () => {
    const created = await library.post<Problem>('/variables', {
      token: tokenA,
      body: {
        name: 'SecretFlag',
        variableSetId: setId,
        type: 'Boolean',
        sensitive: true,
        values: [{ booleanValue: true }],
      },
    });
    expect(created.status).toBe(400);
    const flag = await variableNamed('OpenFlag', { type: 'Boolean', values: [{ booleanValue: true }] });
    expect(
      (await library.put(`/variables/${flag.id}`, { token: tokenA, body: { sensitive: true } })).status,
    ).toBe(400);
  });

  it("CONTRACT 6: a sensitive Number's hint and hash come from the number in plain decimal; a type change derives them again", async () => {
    const variable = await variableNamed('SecretNumber', {
      type: 'Number',
      sensitive: true,
      values: [{ numberValue: 1e21 }],
    });
    expect(variable.values[0]).toMatchObject({ hint: '1000', hash: hashOf('1000000000000000000000') });
    const asJson = await expectStatus(
      library.put<VariableView>(`/variables/${variable.id}`, { token: tokenA, body: { type: 'Json' } }),
      200,
    );
    expect(asJson.values[0]).toMatchObject({
      value: '1000000000000000000000',
      hint: '1000',
      hash: hashOf('1000000000000000000000'),
    });
  });

  it('writing a sensitive value needs only VariableCreate or VariableUpdate, and the writer without VariableReadSecrets is not shown it', async () => {
    const writer = await tokenWith(['VariableCreate', 'VariableUpdate']);
    const created = await expectStatus(
      library.post<VariableView>('/variables', {
        token: writer,
        body: { name: 'WrittenBlind', variableSetId: setId, sensitive: true, values: [{ value: SECRET }] },
      }),
      200,
    );
    expect(created.values[0]).toMatchObject({ value: '', hint: 'corr' });
  });

  it("a secret's text is in no audit state and in no error message", async () => {
    const variable = await variableNamed('AuditedSecret', { sensitive: true, values: [{ value: SECRET }] });
    const refused = await library.put<Problem>(`/variables/${variable.id}`, {
      token: tokenA,
      body: { type: 'Json' },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).not.toContain(SECRET);
    await expectStatus(
      library.put(`/variables/${variable.id}`, {
        token: tokenA,
        body: { values: [{ value: `${SECRET}!` }] },
      }),
      200,
    );
    await expectStatus(library.delete(`/variables/${variable.id}`, { token: tokenA }), 200);
    await eventually(async () => {
      const entries = await auditEntries(system, orgA, conditionsAbout('Variable', variable.id));
      expect(entries.map((e) => e.action)).toEqual(['Create', 'Update', 'Delete']);
      for (const entry of entries) {
        expect(`${entry.beforeState}${entry.afterState}`).not.toContain(SECRET);
      }
      expect(JSON.parse(entries[0]!.afterState!)).toMatchObject({
        values: [{ value: '', hint: 'corr', hash: hashOf(SECRET) }],
      });
    });
  });
});

describe('spec 4.1 / CONTRACT 6: set-restricted Variable* permissions on variables', () => {
  it('a restricted VariableList lists only the variables of its sets; reading, writing or deleting outside them is 403', async () => {
    const inside = await createSet(system, tokenA, { name: 'Scoped inside' });
    const outside = await createSet(system, tokenA, { name: 'Scoped outside' });
    const mine = await createVariable(system, tokenA, {
      name: 'Mine',
      variableSetId: inside.id,
      sensitive: true,
      values: [{ value: SECRET }],
    });
    const notMine = await createVariable(system, tokenA, { name: 'NotMine', variableSetId: outside.id });
    const token = await tokenWith(
      [
        'VariableList',
        'VariableRead',
        'VariableReadSecrets',
        'VariableCreate',
        'VariableUpdate',
        'VariableDelete',
      ],
      {
        VariableList: [inside.id],
        VariableRead: [inside.id],
        VariableReadSecrets: [],
        VariableCreate: [inside.id],
        VariableUpdate: [inside.id],
        VariableDelete: [inside.id],
      },
    );
    const page = await expectStatus(library.get<{ items: VariableView[] }>('/variables', { token }), 200);
    expect(page.items.map((v) => v.id)).toEqual([mine.id]);
    expect(page.items[0]!.values[0]!.value).toBe('');
    expect((await library.get(`/variables/${notMine.id}`, { token })).status).toBe(403);
    expect((await library.put(`/variables/${notMine.id}`, { token, body: { name: 'Taken' } })).status).toBe(
      403,
    );
    expect((await library.delete(`/variables/${notMine.id}`, { token })).status).toBe(403);
    expect(
      (await library.post('/variables', { token, body: { name: 'Sneaky', variableSetId: outside.id } }))
        .status,
    ).toBe(403);
    expect(
      (await library.put(`/variables/${mine.id}`, { token, body: { variableSetId: outside.id } })).status,
    ).toBe(403);
    expect((await library.get<VariableView>(`/variables/${notMine.id}`, { token: tokenA })).body.name).toBe(
      'NotMine',
    );
  });
});

describe('spec 1 tenancy: a variable of another organization is 404 on every by-id path; a set of another is 400 in a body', () => {
  it.each(['GET', 'PUT', 'DELETE'])('%s /variables/{id} of another organization', async (method) => {
    const theirSet = await createSet(system, tokenB, { name: `Their ${method}` });
    const theirs = await createVariable(system, tokenB, {
      name: 'Theirs',
      variableSetId: theirSet.id,
      values: [{ value: 'x' }],
    });
    const body = method === 'PUT' ? { values: [] } : undefined;
    expect((await library.request(method, `/variables/${theirs.id}`, { token: tokenA, body })).status).toBe(
      404,
    );
    expect(
      (await library.get<VariableView>(`/variables/${theirs.id}`, { token: tokenB })).body.values,
    ).toHaveLength(1);
    const into = await library.post<Problem>('/variables', {
      token: tokenA,
      body: { name: 'Into theirs', variableSetId: theirSet.id },
    });
    expect(into.status).toBe(400);
  });
});

describe('spec 9.1 / CONTRACT 6 and spec 6 for variables', () => {
  it('a version that is not the stored one is 409 and nothing changes; every write has one entry', async () => {
    const variable = await variableNamed('Tracked', { values: [{ value: 'v1' }] });
    await expectStatus(
      library.put(`/variables/${variable.id}`, {
        token: tokenA,
        body: { values: [{ value: 'v2' }], version: 1 },
      }),
      200,
    );
    const stale = await library.put<Problem>(`/variables/${variable.id}`, {
      token: tokenA,
      body: { values: [{ value: 'v3' }], version: 1 },
    });
    expect(stale.status).toBe(409);
    const read = await expectStatus(
      library.get<VariableView>(`/variables/${variable.id}`, { token: tokenA }),
      200,
    );
    expect([read.version, read.values.map((value) => value.value)]).toEqual([2, ['v2']]);
    await eventually(async () => {
      const entries = await auditEntries(system, orgA, conditionsAbout('Variable', variable.id));
      expect(entries.map((e) => e.action)).toEqual(['Create', 'Update']);
      expect(JSON.parse(entries[1]!.beforeState!)).toMatchObject({ values: [{ value: 'v1' }] });
      expect(JSON.parse(entries[1]!.afterState!)).toMatchObject({ values: [{ value: 'v2' }] });
    });
  });
});
