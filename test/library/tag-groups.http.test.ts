import type { TagGroupView, TagView } from '../../subgraphs/library/tag-groups/tag-group.schemas.js';
import type { VariableView } from '../../subgraphs/library/variables/variable.schemas.js';
import { auditEntries, conditionsAbout } from '../support/audit-log.js';
import { eventually } from '../support/eventually.js';
import { createOrganization, createUser, expectStatus } from '../support/factories.js';
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
let writerId: string;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit', 'library'] });
  library = system.client('library');
  orgA = (await createOrganization(system, 'Tags A')).id;
  orgB = (await createOrganization(system, 'Tags B')).id;
  writerId = (await createUser(system, orgA, { name: 'Tess Writer' })).id;
  tokenA = await librarianToken(system, orgA, writerId);
  tokenB = await librarianToken(system, orgB);
});

afterAll(() => system.stop());

describe('spec 4.1 "Tag groups and tags": each path needs exactly its permission', () => {
  it.each([
    ['get', '/taggroups', 'TagGroupList'],
    ['get', '/taggroups/{group}', 'TagGroupRead'],
    ['post', '/taggroups', 'TagGroupCreate'],
    ['put', '/taggroups/{group}', 'TagGroupUpdate'],
    ['delete', '/taggroups/{group}', 'TagGroupDelete'],
    ['get', '/tags', 'TagList'],
    ['get', '/tags/{tag}', 'TagRead'],
    ['post', '/tags', 'TagCreate'],
    ['put', '/tags/{tag}', 'TagUpdate'],
    ['delete', '/tags/{tag}', 'TagDelete'],
  ] as const)(
    '%s %s needs %s: 403 with every other library permission, 401 without a session',
    async (method, template, permission) => {
      const group = await createTagGroup(system, tokenA, `Perm ${permission}`, ['t1']);
      const path = template.replace('{group}', String(group.id)).replace('{tag}', String(group.tags[0]!.id));
      const body =
        method === 'post' || method === 'put'
          ? path.startsWith('/tags')
            ? { name: `x${permission}`, tagGroupId: group.id }
            : { name: `X ${permission}` }
          : undefined;
      await expectNeedsOnly(system, orgA, permission, { method, path, body });
    },
  );
});

describe('spec 2 "Tag group": names unique and matched without regard to case; a version on each update', () => {
  it('creates, reads and lists a group with its tags; createdBy and updatedBy name the writer', async () => {
    const group = await createTagGroup(system, tokenA, 'Environment', ['Prod', 'Dev']);
    expect(group).toMatchObject({
      name: 'Environment',
      description: '',
      version: 1,
      createdById: writerId,
      createdBy: { id: writerId, name: 'Tess Writer' },
      updatedBy: { id: writerId, name: 'Tess Writer' },
    });
    expect(group.tags.map((tag) => tag.name)).toEqual(['Dev', 'Prod']);
    const page = await expectStatus(
      library.get<{ total: number; items: TagGroupView[] }>('/taggroups', { token: tokenA }),
      200,
    );
    expect(page.items.map((item) => item.name)).toContain('Environment');
    expect(page.total).toBe(page.items.length);
  });

  it('409 on a name another group has in another case, on create and on rename', async () => {
    await createTagGroup(system, tokenA, 'Region');
    const twin = await library.post<Problem>('/taggroups', { token: tokenA, body: { name: 'REGION' } });
    expect(twin.status).toBe(409);
    const other = await createTagGroup(system, tokenA, 'Zone');
    const rename = await library.put<Problem>(`/taggroups/${other.id}`, {
      token: tokenA,
      body: { name: 'region' },
    });
    expect(rename.status).toBe(409);
  });

  it('the same name in another organization is no conflict', async () => {
    await createTagGroup(system, tokenA, 'Shared name');
    expect((await library.post('/taggroups', { token: tokenB, body: { name: 'Shared name' } })).status).toBe(
      200,
    );
  });

  it('decisions "Tag names": a group name holding "/" is 400 (tags are written Group/Tag)', async () => {
    const response = await library.post<Problem>('/taggroups', { token: tokenA, body: { name: 'A/B' } });
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.field).toBe('body.name');
  });

  it('spec 9.1 / CONTRACT 6: PUT with the version read raises it; another version is 409 and nothing changes', async () => {
    const group = await createTagGroup(system, tokenA, 'Versioned');
    const changed = await expectStatus(
      library.put<TagGroupView>(`/taggroups/${group.id}`, {
        token: tokenA,
        body: { description: 'v2', version: 1 },
      }),
      200,
    );
    expect(changed).toMatchObject({ version: 2, description: 'v2', name: 'Versioned' });
    const stale = await library.put<Problem>(`/taggroups/${group.id}`, {
      token: tokenA,
      body: { name: 'Stale', version: 1 },
    });
    expect(stale.status).toBe(409);
    expect((await library.get<TagGroupView>(`/taggroups/${group.id}`, { token: tokenA })).body).toMatchObject(
      { name: 'Versioned', version: 2 },
    );
  });
});

describe('spec 2 "Tag": names unique and matched with regard to case within their group; no version', () => {
  it('Prod and prod are two tags; a second Prod is 409', async () => {
    const group = await createTagGroup(system, tokenA, 'Stage', ['Prod', 'prod']);
    expect(group.tags.map((tag) => tag.name).sort()).toEqual(['Prod', 'prod']);
    const twin = await library.post<Problem>('/tags', {
      token: tokenA,
      body: { name: 'Prod', tagGroupId: group.id },
    });
    expect(twin.status).toBe(409);
  });

  it('the same tag name in another group is no conflict; a tag moves to another group by PUT', async () => {
    const first = await createTagGroup(system, tokenA, 'First', ['Shared']);
    const second = await createTagGroup(system, tokenA, 'Second', ['Shared']);
    expect(second.tags).toHaveLength(1);
    const moved = await library.put<Problem>(`/tags/${first.tags[0]!.id}`, {
      token: tokenA,
      body: { tagGroupId: second.id },
    });
    expect(moved.status).toBe(409);
    const renamed = await expectStatus(
      library.put<TagView>(`/tags/${first.tags[0]!.id}`, {
        token: tokenA,
        body: { name: 'Other', tagGroupId: second.id },
      }),
      200,
    );
    expect(renamed).toEqual({ id: first.tags[0]!.id, name: 'Other', tagGroupId: second.id });
  });

  it('a tag for a group the organization does not have is 400 naming body.tagGroupId', async () => {
    const theirs = await createTagGroup(system, tokenB, 'Theirs');
    const response = await library.post<Problem>('/tags', {
      token: tokenA,
      body: { name: 'x', tagGroupId: theirs.id },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.field).toBe('body.tagGroupId');
  });
});

describe('spec 2 Variable rule 5: deleting a tag group cascades to its tags and to the links between values and tags', () => {
  it('the tags are gone, values keep their other tags, a value left with none is the default, and the variable has a new version', async () => {
    const env = await createTagGroup(system, tokenA, 'Doomed', ['Prod']);
    const region = await createTagGroup(system, tokenA, 'Kept', ['EU']);
    const set = await createSet(system, tokenA, { name: 'Cascade set' });
    const variable = await createVariable(system, tokenA, {
      name: 'Url',
      variableSetId: set.id,
      values: [
        { value: 'prod-eu', tags: ['Doomed/Prod', 'Kept/EU'] },
        { value: 'prod', tags: ['Doomed/Prod'] },
      ],
    });
    const removed = await expectStatus(
      library.delete<TagGroupView>(`/taggroups/${env.id}`, { token: tokenA }),
      200,
    );
    expect(removed.tags.map((tag) => tag.name)).toEqual(['Prod']);
    expect((await library.get(`/tags/${env.tags[0]!.id}`, { token: tokenA })).status).toBe(404);
    const after = await expectStatus(
      library.get<VariableView>(`/variables/${variable.id}`, { token: tokenA }),
      200,
    );
    expect(after.version).toBe(variable.version + 1);
    expect(after.values.map((value) => [value.value, value.tags.map((tag) => tag.id)])).toEqual([
      ['prod-eu', [region.tags[0]!.id]],
      ['prod', []],
    ]);
    await eventually(async () => {
      const entries = await auditEntries(system, orgA, conditionsAbout('Variable', variable.id, 'Update'));
      expect(entries).toHaveLength(1);
    });
  });

  it('deleting one tag takes it off the values too (the link goes from the tag side)', async () => {
    const group = await createTagGroup(system, tokenA, 'Single', ['Gone', 'Stays']);
    const set = await createSet(system, tokenA, { name: 'Single set' });
    const variable = await createVariable(system, tokenA, {
      name: 'Flag',
      variableSetId: set.id,
      values: [{ value: 'x', tags: ['Single/Gone', 'Single/Stays'] }],
    });
    const gone = group.tags.find((tag) => tag.name === 'Gone')!;
    await expectStatus(library.delete(`/tags/${gone.id}`, { token: tokenA }), 200);
    const after = await expectStatus(
      library.get<VariableView>(`/variables/${variable.id}`, { token: tokenA }),
      200,
    );
    expect(after.values[0]!.tags.map((tag) => tag.name)).toEqual(['Stays']);
  });

  it('decisions "Tags removed from values": two values left with no tags both stay, and a PUT keeping both is 409', async () => {
    const group = await createTagGroup(system, tokenA, 'Twins', ['A', 'B']);
    const set = await createSet(system, tokenA, { name: 'Twin set' });
    const variable = await createVariable(system, tokenA, {
      name: 'Twin',
      variableSetId: set.id,
      values: [
        { value: 'a', tags: ['Twins/A'] },
        { value: 'b', tags: ['Twins/B'] },
      ],
    });
    await expectStatus(library.delete(`/taggroups/${group.id}`, { token: tokenA }), 200);
    const after = await expectStatus(
      library.get<VariableView>(`/variables/${variable.id}`, { token: tokenA }),
      200,
    );
    expect(after.values.map((value) => [value.value, value.tags])).toEqual([
      ['a', []],
      ['b', []],
    ]);
    const keepBoth = await library.put<Problem>(`/variables/${variable.id}`, {
      token: tokenA,
      body: { values: after.values.map((value) => ({ id: value.id, value: value.value, tags: [] })) },
    });
    expect(keepBoth.status).toBe(409);
  });
});

describe('spec 1 tenancy: an id of another organization is 404 on every by-id path', () => {
  it.each(['get', 'put', 'delete'] as const)(
    '%s /taggroups/{id} and /tags/{id} of another organization: 404, nothing changed',
    async (method) => {
      const theirs = await createTagGroup(system, tokenB, `Foreign ${method}`, ['t']);
      const body = method === 'put' ? { name: 'Taken over' } : undefined;
      expect(
        (await library.request(method.toUpperCase(), `/taggroups/${theirs.id}`, { token: tokenA, body }))
          .status,
      ).toBe(404);
      expect(
        (await library.request(method.toUpperCase(), `/tags/${theirs.tags[0]!.id}`, { token: tokenA, body }))
          .status,
      ).toBe(404);
      expect(
        (await library.get<TagGroupView>(`/taggroups/${theirs.id}`, { token: tokenB })).body,
      ).toMatchObject({ name: `Foreign ${method}`, tags: [{ name: 't' }] });
    },
  );
});

describe('spec 6: every create, update and delete of TagGroup and Tag writes one entry', () => {
  it('records Create with the after state, Update with both, Delete with the before state', async () => {
    const group = await createTagGroup(system, tokenA, 'Audited', ['One']);
    await expectStatus(
      library.put(`/taggroups/${group.id}`, { token: tokenA, body: { description: 'changed' } }),
      200,
    );
    await expectStatus(
      library.put(`/tags/${group.tags[0]!.id}`, { token: tokenA, body: { name: 'Uno' } }),
      200,
    );
    await expectStatus(library.delete(`/taggroups/${group.id}`, { token: tokenA }), 200);
    await eventually(async () => {
      const groupEntries = await auditEntries(system, orgA, conditionsAbout('TagGroup', group.id));
      expect(groupEntries.map((e) => [e.action, e.beforeState !== null, e.afterState !== null])).toEqual([
        ['Create', false, true],
        ['Update', true, true],
        ['Delete', true, false],
      ]);
      const tagEntries = await auditEntries(system, orgA, conditionsAbout('Tag', group.tags[0]!.id));
      expect(tagEntries.map((e) => e.action)).toEqual(['Create', 'Update', 'Delete']);
      expect(JSON.parse(tagEntries[1]!.afterState!)).toMatchObject({ name: 'Uno' });
    });
  });
});
