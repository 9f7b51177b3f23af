import type {
  VariableSetDetailView,
  VariableSetView,
} from '../../subgraphs/library/sets/variable-set.schemas.js';
import { auditEntries, conditionsAbout } from '../support/audit-log.js';
import { eventually } from '../support/eventually.js';
import { createOrganization, expectStatus } from '../support/factories.js';
import type { HttpClient } from '../support/http-client.js';
import { createSet, createVariable, expectNeedsOnly, librarianToken } from '../support/library-factories.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;
let library: HttpClient;
let orgA: string;
let orgB: string;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit', 'library'] });
  library = system.client('library');
  orgA = (await createOrganization(system, 'Sets A')).id;
  orgB = (await createOrganization(system, 'Sets B')).id;
  tokenA = await librarianToken(system, orgA);
  tokenB = await librarianToken(system, orgB);
});

afterAll(() => system.stop());

const tokenWith = (
  permissions: Parameters<TestSystem['token']>[0]['permissions'],
  variableSets?: Parameters<TestSystem['token']>[0]['variableSets'],
) => system.token({ organizationId: orgA, permissions, variableSets });

describe('spec 4.1 "Library sets and variables": each set path needs exactly its permission', () => {
  it.each([
    ['GET', '/variablesets', 'VariableList'],
    ['GET', '/variablesets/{id}', 'VariableRead'],
    ['POST', '/variablesets', 'VariableCreate'],
    ['PUT', '/variablesets/{id}', 'VariableUpdate'],
    ['DELETE', '/variablesets/{id}', 'VariableDelete'],
  ] as const)(
    '%s %s needs %s: 403 with every other library permission, 401 without a session',
    async (method, template, permission) => {
      const set = await createSet(system, tokenA, { name: `Perm ${permission}` });
      const path = template.replace('{id}', String(set.id));
      const body = method === 'POST' || method === 'PUT' ? { name: `Perm ${permission} 2` } : undefined;
      await expectNeedsOnly(system, orgA, permission, { method, path, body });
    },
  );
});

describe('spec 2 "Library set": its fields, its variables on a read alone, unique names', () => {
  it('creates and reads a set with its variables and values; lists sets without them', async () => {
    const set = await createSet(system, tokenA, { name: 'Web', description: 'The web tier' });
    expect(set).toMatchObject({
      name: 'Web',
      description: 'The web tier',
      parentVariableSetId: null,
      version: 1,
      variables: [],
    });
    await createVariable(system, tokenA, {
      name: 'Port',
      variableSetId: set.id,
      type: 'Number',
      values: [{ numberValue: 8080 }],
    });
    const read = await expectStatus(
      library.get<VariableSetDetailView>(`/variablesets/${set.id}`, { token: tokenA }),
      200,
    );
    expect(read.variables.map((v) => [v.name, v.values.map((value) => value.numberValue)])).toEqual([
      ['Port', [8080]],
    ]);
    const page = await expectStatus(
      library.get<{ total: number; items: VariableSetView[] }>('/variablesets', { token: tokenA }),
      200,
    );
    const listed = page.items.find((item) => item.id === set.id)!;
    expect(listed).toMatchObject({ name: 'Web' });
    expect(listed).not.toHaveProperty('variables');
  });

  it('decisions "Library set names": two sets of one organization with names equal without regard to case are 409', async () => {
    await createSet(system, tokenA, { name: 'Payments' });
    expect((await library.post('/variablesets', { token: tokenA, body: { name: 'PAYMENTS' } })).status).toBe(
      409,
    );
    const other = await createSet(system, tokenA, { name: 'Billing' });
    expect(
      (await library.put(`/variablesets/${other.id}`, { token: tokenA, body: { name: 'payments' } })).status,
    ).toBe(409);
  });

  it('decisions "Set slugs": a set takes the slug asked for, else its name\'s numbered when taken; another set\'s slug is 409; a rename keeps it', async () => {
    const named = await createSet(system, tokenA, { name: 'Slug Source' });
    expect(named.slug).toBe('slug-source');
    const numbered = await createSet(system, tokenA, { name: 'Slug-Source' });
    expect(numbered.slug).toBe('slug-source-2');
    const chosen = await createSet(system, tokenA, { name: 'Chosen', slug: 'My.Slug' });
    expect(chosen.slug).toBe('My.Slug');
    const taken = await library.post<Problem>('/variablesets', {
      token: tokenA,
      body: { name: 'Other', slug: 'my.slug' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toContain('slug "my.slug"');
    const bad = await library.post<Problem>('/variablesets', {
      token: tokenA,
      body: { name: 'Spaced', slug: 'has space' },
    });
    expect(bad.status).toBe(400);
    const renamed = await expectStatus(
      library.put<VariableSetDetailView>(`/variablesets/${named.id}`, {
        token: tokenA,
        body: { name: 'Renamed' },
      }),
      200,
    );
    expect(renamed.slug).toBe('slug-source');
  });

  it('spec 9.1 / CONTRACT 6: a version that is not the stored one is 409 and nothing changes', async () => {
    const set = await createSet(system, tokenA, { name: 'Versioned set' });
    await expectStatus(
      library.put(`/variablesets/${set.id}`, { token: tokenA, body: { description: 'v2', version: 1 } }),
      200,
    );
    expect(
      (
        await library.put(`/variablesets/${set.id}`, {
          token: tokenA,
          body: { description: 'v3', version: 1 },
        })
      ).status,
    ).toBe(409);
    expect(
      (await library.get<VariableSetDetailView>(`/variablesets/${set.id}`, { token: tokenA })).body,
    ).toMatchObject({ description: 'v2', version: 2 });
  });
});

describe('spec 2 "Library set" rule 1: a set may not be its own ancestor, directly or through generations (400)', () => {
  it('refuses the set as its own parent', async () => {
    const set = await createSet(system, tokenA, { name: 'Selfish' });
    const response = await library.put<Problem>(`/variablesets/${set.id}`, {
      token: tokenA,
      body: { parentVariableSetId: set.id },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.field).toBe('body.parentVariableSetId');
  });

  it('refuses a descendant as parent through any number of generations, naming the cycle, and changes nothing', async () => {
    const root = await createSet(system, tokenA, { name: 'Root' });
    const child = await createSet(system, tokenA, { name: 'Child', parentVariableSetId: root.id });
    const grandchild = await createSet(system, tokenA, { name: 'Grandchild', parentVariableSetId: child.id });
    const response = await library.put<Problem>(`/variablesets/${root.id}`, {
      token: tokenA,
      body: { parentVariableSetId: grandchild.id },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.message).toContain(
      `${root.id} → ${grandchild.id} → ${child.id} → ${root.id}`,
    );
    expect(
      (await library.get<VariableSetDetailView>(`/variablesets/${root.id}`, { token: tokenA })).body
        .parentVariableSetId,
    ).toBeNull();
  });

  it('two parent changes at once cannot close a cycle together', async () => {
    const first = await createSet(system, tokenA, { name: 'Race one' });
    const second = await createSet(system, tokenA, { name: 'Race two' });
    const answers = await Promise.all([
      library.put(`/variablesets/${first.id}`, { token: tokenA, body: { parentVariableSetId: second.id } }),
      library.put(`/variablesets/${second.id}`, { token: tokenA, body: { parentVariableSetId: first.id } }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
  });

  it('a parent the organization does not have is 400 naming body.parentVariableSetId', async () => {
    const theirs = await createSet(system, tokenB, { name: 'Their parent' });
    const response = await library.post<Problem>('/variablesets', {
      token: tokenA,
      body: { name: 'Orphan', parentVariableSetId: theirs.id },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.field).toBe('body.parentVariableSetId');
  });
});

describe('spec 2 "Library set" rules 2 and 3: a parent cannot be deleted (409); deleting a set cascades to its variables and values', () => {
  it('409 while it has children; once they are gone, its variables go with it, each with its Delete entry', async () => {
    const parent = await createSet(system, tokenA, { name: 'Parent' });
    const child = await createSet(system, tokenA, { name: 'Only child', parentVariableSetId: parent.id });
    const variable = await createVariable(system, tokenA, {
      name: 'Inherited',
      variableSetId: parent.id,
      values: [{ value: 'x' }],
    });
    const refused = await library.delete<Problem>(`/variablesets/${parent.id}`, { token: tokenA });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(String(child.id));
    await expectStatus(library.delete(`/variablesets/${child.id}`, { token: tokenA }), 200);
    const removed = await expectStatus(
      library.delete<VariableSetDetailView>(`/variablesets/${parent.id}`, { token: tokenA }),
      200,
    );
    expect(removed.variables.map((v) => v.name)).toEqual(['Inherited']);
    expect((await library.get(`/variables/${variable.id}`, { token: tokenA })).status).toBe(404);
    await eventually(async () => {
      expect(
        (await auditEntries(system, orgA, conditionsAbout('Variable', variable.id, 'Delete'))).length,
      ).toBe(1);
      expect(
        (await auditEntries(system, orgA, conditionsAbout('VariableSet', parent.id, 'Delete'))).length,
      ).toBe(1);
    });
  });
});

describe('spec 4.1 / CONTRACT 6: set-restricted permissions', () => {
  it('a restricted VariableList lists only its sets; a set outside the scope is 403, one of another organization 404', async () => {
    const inside = await createSet(system, tokenA, { name: 'Inside' });
    const outside = await createSet(system, tokenA, { name: 'Outside' });
    const theirs = await createSet(system, tokenB, { name: 'Elsewhere' });
    const token = await tokenWith(['VariableList', 'VariableRead', 'VariableUpdate', 'VariableDelete'], {
      VariableList: [inside.id],
      VariableRead: [inside.id],
      VariableUpdate: [inside.id],
      VariableDelete: [inside.id],
    });
    const page = await expectStatus(
      library.get<{ total: number; items: VariableSetView[] }>('/variablesets', { token }),
      200,
    );
    expect(page.items.map((item) => item.id)).toEqual([inside.id]);
    expect(page.total).toBe(1);
    expect((await library.get(`/variablesets/${inside.id}`, { token })).status).toBe(200);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const body = method === 'PUT' ? { description: 'no' } : undefined;
      expect((await library.request(method, `/variablesets/${outside.id}`, { token, body })).status).toBe(
        403,
      );
      expect((await library.request(method, `/variablesets/${theirs.id}`, { token, body })).status).toBe(404);
    }
  });

  it('decisions "Set-restricted permissions": a restricted VariableCreate makes variables in its sets, not new sets (403)', async () => {
    const token = await tokenWith(['VariableCreate'], { VariableCreate: [1] });
    expect((await library.post('/variablesets', { token, body: { name: 'Not mine to make' } })).status).toBe(
      403,
    );
  });
});

describe('spec 1 tenancy: a set of another organization is 404 on every by-id path, and does not change', () => {
  it.each(['GET', 'PUT', 'DELETE'])('%s /variablesets/{id}', async (method) => {
    const theirs = await createSet(system, tokenB, { name: `Foreign set ${method}` });
    const body = method === 'PUT' ? { name: 'Taken' } : undefined;
    expect(
      (await library.request(method, `/variablesets/${theirs.id}`, { token: tokenA, body })).status,
    ).toBe(404);
    expect(
      (await library.get<VariableSetDetailView>(`/variablesets/${theirs.id}`, { token: tokenB })).body.name,
    ).toBe(`Foreign set ${method}`);
  });
});

describe('spec 6: every create, update and delete of VariableSet writes one entry', () => {
  it('records Create, Update (both states) and Delete', async () => {
    const set = await createSet(system, tokenA, { name: 'Audited set' });
    await expectStatus(
      library.put(`/variablesets/${set.id}`, { token: tokenA, body: { description: 'new' } }),
      200,
    );
    await expectStatus(library.delete(`/variablesets/${set.id}`, { token: tokenA }), 200);
    await eventually(async () => {
      const entries = await auditEntries(system, orgA, conditionsAbout('VariableSet', set.id));
      // Spec 9.2: the entries of one entity share an id and each is a version of it.
      expect(entries.map((e) => [e.action, e.version])).toEqual([
        ['Create', 1],
        ['Update', 2],
        ['Delete', 3],
      ]);
      expect(JSON.parse(entries[1]!.beforeState!)).toMatchObject({ description: '' });
      expect(JSON.parse(entries[1]!.afterState!)).toMatchObject({ description: 'new' });
    });
  });
});
