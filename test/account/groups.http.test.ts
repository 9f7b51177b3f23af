import { PERMISSION_CATALOGUE, type PermissionName } from '../../platform/permissions/catalogue.js';
import type { GroupView } from '../../subgraphs/account/groups/group.schemas.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { HttpClient } from '../support/http-client.js';
import { eventually } from '../support/eventually.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import type { Problem } from '../support/problem.js';
import { permissionsOf } from './account-test-helpers.js';
import {
  ORGANIZATION_PERMISSIONS,
  createGroup,
  createOrganization,
  createUser,
  expectStatus,
} from '../support/factories.js';
import { auditEntries, conditionsAbout } from '../support/audit-log.js';

let system: TestSystem;
let account: HttpClient;
let orgA: string;
let orgB: string;
/** A real account of organization A, the caller of most tests. */
let adminA: UserView;
let groupB: GroupView;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit'] });
  account = system.client('account');
  orgA = (await createOrganization(system, 'Groups Org A')).id;
  orgB = (await createOrganization(system, 'Groups Org B')).id;
  adminA = await createUser(system, orgA, { name: 'Admin A' });
  groupB = await createGroup(system, orgB, { name: 'Group of B', permissions: ['TagList'] });
});

afterAll(() => system.stop());

let counter = 0;
/** A group name no other test uses. */
const uniqueName = (label: string) => `${label} ${++counter}`;

/** A session in organization A holding exactly these permissions. */
const tokenA = (permissions: PermissionName[], variableSets?: Partial<Record<PermissionName, number[]>>) =>
  system.token({ organizationId: orgA, accountId: adminA.id, permissions, variableSets });

/** Every non-global permission but one: proves a 403 comes from that one permission. */
const allBut = (missing: PermissionName) => tokenA(ORGANIZATION_PERMISSIONS.filter((p) => p !== missing));

const readGroup = async (id: number) =>
  expectStatus(account.get<GroupView>(`/groups/${id}`, { token: await tokenA(['UserRead']) }), 200);

const groupNames = async () => {
  const page = await expectStatus(
    account.get<{ items: GroupView[] }>('/groups', { token: await tokenA(['UserList']) }),
    200,
  );
  return page.items.map((g) => g.name);
};

const sorted = (values: readonly string[] | undefined) => [...(values ?? [])].sort();

describe('spec 4.2: GET /groups needs UserList, GET /groups/{id} needs UserRead', () => {
  it("lists the organization's groups, Administrators included, and none of another organization", async () => {
    const group = await createGroup(system, orgA, { name: uniqueName('Listed'), permissions: ['TagList'] });
    const response = await account.get<{ total: number; items: GroupView[] }>('/groups', {
      token: await tokenA(['UserList']),
    });
    expect(response.status).toBe(200);
    const names = response.body.items.map((g) => g.name);
    expect(names).toEqual(expect.arrayContaining(['Administrators', group.name]));
    expect(names).not.toContain(groupB.name);
    expect(response.body.total).toBe(response.body.items.length);
  });

  it('reads one group with UserRead alone', async () => {
    const group = await createGroup(system, orgA, {
      name: uniqueName('Read'),
      description: 'read me',
      permissions: ['TagList', 'VariableRead'],
      variableSetIds: [5],
    });
    const response = await account.get<GroupView>(`/groups/${group.id}`, {
      token: await tokenA(['UserRead']),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(group);
  });

  it('listing is 403 without UserList, reading 403 without UserRead, an unknown id 404', async () => {
    const group = await createGroup(system, orgA, { name: uniqueName('Guarded') });
    expect((await account.get('/groups', { token: await allBut('UserList') })).status).toBe(403);
    expect((await account.get(`/groups/${group.id}`, { token: await allBut('UserRead') })).status).toBe(403);
    expect((await account.get('/groups/999999', { token: await tokenA(['UserRead']) })).status).toBe(404);
  });

  it('an id that is not plain decimal digits is 400 naming path.id, never read as another number', async () => {
    const group = await createGroup(system, orgA, { name: uniqueName('Decimal') });
    for (const written of [
      `${group.id}.0`,
      `0x${group.id.toString(16)}`,
      `${group.id}e0`,
      '0',
      '2147483648',
    ]) {
      const response = await account.get(`/groups/${written}`, { token: await tokenA(['UserRead']) });
      expect([written, response.status]).toEqual([written, 400]);
      expect(response.text).toContain('path.id');
    }
  });
});

describe('spec 4.2 / CONTRACT 5: POST /groups needs UserCreate plus the grant check; body name, description, permissions, variableSetIds', () => {
  it('creates the group and answers it with its id', async () => {
    const name = uniqueName('Created');
    const response = await account.post<GroupView>('/groups', {
      token: await tokenA(['UserCreate', 'TagList', 'VariableRead']),
      body: {
        name,
        description: 'A new group',
        permissions: ['VariableRead', 'TagList'],
        variableSetIds: [7, 3],
      },
    });
    expect(response.status).toBe(200);
    expect(typeof response.body.id).toBe('number');
    expect(response.body).toMatchObject({ name, description: 'A new group', members: [] });
    expect(sorted(response.body.permissions)).toEqual(['TagList', 'VariableRead']);
    expect([...response.body.variableSetIds].sort((a, b) => a - b)).toEqual([3, 7]);
    expect(await readGroup(response.body.id)).toEqual(response.body);
  });

  it('spec 7: is 403 without UserCreate, not naming it, and nothing is saved', async () => {
    const name = uniqueName('No create');
    const response = await account.post<Problem>('/groups', {
      token: await allBut('UserCreate'),
      body: { name, permissions: ['TagList'] },
    });
    expect(response.status).toBe(403);
    expect(response.body.rejectedPermissions).toBeUndefined();
    expect(response.text).not.toContain('UserCreate');
    expect(await groupNames()).not.toContain(name);
  });

  it('a name already used in the organization, without regard to case, is 409', async () => {
    const name = uniqueName('Dup name');
    await createGroup(system, orgA, { name });
    const response = await account.post('/groups', {
      token: await tokenA(['UserCreate']),
      body: { name: name.toUpperCase() },
    });
    expect(response.status).toBe(409);
    expect((await groupNames()).filter((n) => n.toLowerCase() === name.toLowerCase())).toHaveLength(1);
  });

  it('an unknown permission name is 400 naming it, and nothing is saved', async () => {
    const name = uniqueName('Unknown permission');
    const response = await account.post<Problem>('/groups', {
      token: await tokenA(ORGANIZATION_PERMISSIONS),
      body: { name, permissions: ['TagList', 'TagFly'] },
    });
    expect(response.status).toBe(400);
    expect(response.text).toContain('body.permissions[1]');
    expect(response.text).toContain('TagFly');
    expect(await groupNames()).not.toContain(name);
  });
});

describe('spec 4.2 "On group save" (1) / spec 5.10 / CONTRACT 5: adding a permission the caller may not grant is 403 naming exactly the refused ones, and nothing is saved', () => {
  it('POST names exactly the permissions the caller does not hold', async () => {
    const name = uniqueName('Too much');
    const response = await account.post<Problem>('/groups', {
      token: await tokenA(['UserCreate', 'TagList', 'TagRead']),
      body: { name, permissions: ['TagList', 'TagRead', 'VariableRead', 'AuditDelete'] },
    });
    expect(response.status).toBe(403);
    expect(sorted(response.body.rejectedPermissions)).toEqual(['AuditDelete', 'VariableRead']);
    expect(await groupNames()).not.toContain(name);
  });

  it('PUT names exactly the added permissions the caller does not hold, and the group does not change', async () => {
    const group = await createGroup(system, orgA, {
      name: uniqueName('Put too much'),
      permissions: ['TagList'],
    });
    const response = await account.put<Problem>(`/groups/${group.id}`, {
      token: await tokenA(['UserUpdate', 'TagList', 'TagRead']),
      body: {
        name: `${group.name} renamed`,
        permissions: ['TagList', 'TagRead', 'AuditDelete', 'UserDelete'],
      },
    });
    expect(response.status).toBe(403);
    expect(sorted(response.body.rejectedPermissions)).toEqual(['AuditDelete', 'UserDelete']);
    expect(await readGroup(group.id)).toEqual(group);
  });

  it('PUT adding only permissions the caller holds succeeds', async () => {
    const group = await createGroup(system, orgA, { name: uniqueName('Put fine'), permissions: ['TagList'] });
    const response = await account.put<GroupView>(`/groups/${group.id}`, {
      token: await tokenA(['UserUpdate', 'TagList', 'TagRead']),
      body: { name: group.name, permissions: ['TagList', 'TagRead'] },
    });
    expect(response.status).toBe(200);
    expect(sorted(response.body.permissions)).toEqual(['TagList', 'TagRead']);
    expect(response.body.version).toBe(group.version + 1);
  });
});

describe('spec 5.9: granting a global permission needs PermissionsAllGlobal, even when the caller holds it', () => {
  it('is 403 naming only the global permission for a caller holding it without PermissionsAllGlobal', async () => {
    const name = uniqueName('Global refused');
    const response = await account.post<Problem>('/groups', {
      token: await tokenA(['UserCreate', 'AuditList', 'AuditGlobalList']),
      body: { name, permissions: ['AuditList', 'AuditGlobalList'] },
    });
    expect(response.status).toBe(403);
    expect(response.body.rejectedPermissions).toEqual(['AuditGlobalList']);
    expect(await groupNames()).not.toContain(name);
  });

  it('succeeds for a caller holding the permission and PermissionsAllGlobal', async () => {
    const response = await account.post<GroupView>('/groups', {
      token: await tokenA(['UserCreate', 'AuditList', 'AuditGlobalList', 'PermissionsAllGlobal']),
      body: { name: uniqueName('Global granted'), permissions: ['AuditList', 'AuditGlobalList'] },
    });
    expect(response.status).toBe(200);
    expect(sorted(response.body.permissions)).toEqual(['AuditGlobalList', 'AuditList']);
  });
});

describe('spec 5.9: a permission held without its dependencies cannot be granted', () => {
  it.each([
    ['VariableReadSecrets', 'VariableRead'],
    ['UserCreateServiceAccountApiKey', 'UserRead'],
    ['ProfileNeverExpiresApiKey', 'ProfileCreateApiKey'],
  ] as [PermissionName, PermissionName][])(
    '%s held without %s is refused (403 naming it)',
    async (permission, dependency) => {
      const refused = await account.post<Problem>('/groups', {
        token: await tokenA(['UserCreate', permission]),
        body: { name: uniqueName(`Without ${dependency}`), permissions: [permission] },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.rejectedPermissions).toEqual([permission]);

      const granted = await account.post<GroupView>('/groups', {
        token: await tokenA(['UserCreate', permission, dependency]),
        body: { name: uniqueName(`With ${dependency}`), permissions: [permission, dependency] },
      });
      expect(granted.status).toBe(200);
    },
  );
});

describe('spec 4.2 "On group save" (1): permissions already on the group that the caller cannot grant are preserved', () => {
  it('a PUT leaving them out keeps them, while what the caller can grant is removed as asked', async () => {
    const group = await createGroup(system, orgA, {
      name: uniqueName('Preserved'),
      permissions: ['TagList', 'VariableRead', 'AuditDelete'],
    });
    const response = await account.put<GroupView>(`/groups/${group.id}`, {
      token: await tokenA(['UserUpdate', 'TagList', 'TagRead']),
      body: { name: group.name, permissions: ['TagRead'] },
    });
    expect(response.status).toBe(200);
    expect(sorted(response.body.permissions)).toEqual(['AuditDelete', 'TagRead', 'VariableRead']);
    expect(sorted((await readGroup(group.id)).permissions)).toEqual([
      'AuditDelete',
      'TagRead',
      'VariableRead',
    ]);
  });
});

describe('spec 4.2 "On group save" (2): a group with AuditRead and without AuditList is refused (400)', () => {
  it('POST with AuditRead alone is 400 and saves nothing; with AuditList too it is saved', async () => {
    const name = uniqueName('Audit reader');
    const refused = await account.post<Problem>('/groups', {
      token: await tokenA(ORGANIZATION_PERMISSIONS),
      body: { name, permissions: ['AuditRead'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('AuditList');
    expect(await groupNames()).not.toContain(name);

    const saved = await account.post<GroupView>('/groups', {
      token: await tokenA(ORGANIZATION_PERMISSIONS),
      body: { name, permissions: ['AuditRead', 'AuditList'] },
    });
    expect(saved.status).toBe(200);
  });

  it('PUT removing AuditList from a group with AuditRead is 400, and the group does not change', async () => {
    const group = await createGroup(system, orgA, {
      name: uniqueName('Audit pair'),
      permissions: ['AuditList', 'AuditRead'],
    });
    const response = await account.put(`/groups/${group.id}`, {
      token: await tokenA(ORGANIZATION_PERMISSIONS),
      body: { name: group.name, permissions: ['AuditRead'] },
    });
    expect(response.status).toBe(400);
    expect(await readGroup(group.id)).toEqual(group);
  });
});

describe("CONTRACT 5: variableSetIds restricts the group's Variable* permissions", () => {
  it('a member gets variableSets for Variable* permissions only, unioned across groups, unrestricted when any group gives it unrestricted', async () => {
    const member = await createUser(system, orgA, { name: 'Scoped Member' });
    const g1 = await createGroup(system, orgA, {
      name: uniqueName('Sets 1 2'),
      permissions: ['VariableList', 'VariableRead', 'TagList'],
      variableSetIds: [1, 2],
    });
    const g2 = await createGroup(system, orgA, {
      name: uniqueName('Sets 3'),
      permissions: ['VariableRead', 'VariableUpdate', 'TagRead'],
      variableSetIds: [3],
    });
    await expectStatus(
      account.put(`/users/${member.id}/groups`, {
        token: await tokenA(['UserUpdate']),
        body: { groupIds: [g1.id, g2.id] },
      }),
      200,
    );
    const restricted = await permissionsOf(account, orgA, member.id);
    expect(sorted(restricted.permissions)).toEqual(
      sorted(['TagList', 'TagRead', 'VariableList', 'VariableRead', 'VariableUpdate']),
    );
    expect(restricted.variableSets).toEqual({
      VariableList: [1, 2],
      VariableRead: [1, 2, 3],
      VariableUpdate: [3],
    });

    const unrestricted = await createGroup(system, orgA, {
      name: uniqueName('All sets'),
      permissions: ['VariableRead'],
    });
    await expectStatus(
      account.put(`/groups/${unrestricted.id}/members`, {
        token: await tokenA(['UserUpdate']),
        body: { userIds: [member.id] },
      }),
      200,
    );
    const widened = await permissionsOf(account, orgA, member.id);
    expect(widened.variableSets).toEqual({ VariableList: [1, 2], VariableUpdate: [3] });
    expect(widened.permissions).toContain('VariableRead');
  });
});

describe('spec 5.10 / CONTRACT 5: a caller whose Variable* permission is restricted to library sets cannot grant it beyond them', () => {
  const restrictedCaller = () =>
    tokenA(['UserCreate', 'UserUpdate', 'UserRead', 'VariableRead'], { VariableRead: [1] });

  it('cannot grant it for sets [1, 2] nor unrestricted (403), can for [1]', async () => {
    const wider = await account.post<Problem>('/groups', {
      token: await restrictedCaller(),
      body: { name: uniqueName('Sets 1 and 2'), permissions: ['VariableRead'], variableSetIds: [1, 2] },
    });
    expect(wider.status).toBe(403);
    expect(wider.body.rejectedPermissions).toEqual(['VariableRead']);

    const everything = await account.post<Problem>('/groups', {
      token: await restrictedCaller(),
      body: { name: uniqueName('All sets refused'), permissions: ['VariableRead'] },
    });
    expect(everything.status).toBe(403);
    expect(everything.body.rejectedPermissions).toEqual(['VariableRead']);

    const same = await account.post<GroupView>('/groups', {
      token: await restrictedCaller(),
      body: { name: uniqueName('Set 1'), permissions: ['VariableRead'], variableSetIds: [1] },
    });
    expect(same.status).toBe(200);
    expect(same.body.variableSetIds).toEqual([1]);
  });

  it("changing a group's variableSetIds re-checks its Variable* permissions", async () => {
    const group = await expectStatus(
      account.post<GroupView>('/groups', {
        token: await restrictedCaller(),
        body: { name: uniqueName('Re-scoped'), permissions: ['VariableRead'], variableSetIds: [1] },
      }),
      200,
    );
    const widened = await account.put<Problem>(`/groups/${group.id}`, {
      token: await restrictedCaller(),
      body: { name: group.name, permissions: ['VariableRead'], variableSetIds: [1, 2] },
    });
    expect(widened.status).toBe(403);
    expect(widened.body.rejectedPermissions).toEqual(['VariableRead']);
    expect(await readGroup(group.id)).toEqual(group);

    const byUnrestricted = await account.put<GroupView>(`/groups/${group.id}`, {
      token: await tokenA(['UserUpdate', 'VariableRead']),
      body: { name: group.name, permissions: ['VariableRead'], variableSetIds: [1, 2] },
    });
    expect(byUnrestricted.status).toBe(200);
    expect(byUnrestricted.body.variableSetIds).toEqual([1, 2]);
  });

  it('changing variableSetIds re-checks also the Variable* permissions the caller leaves out and cannot grant, which stay on the group', async () => {
    // VariableDelete is on the group for set 1 only; the caller does not hold it at all. Were the
    // group's sets cleared, the preserved VariableDelete would reach every set: a grant the caller
    // may not make.
    const member = await createUser(system, orgA, { name: 'Re-scope Member' });
    const group = await createGroup(system, orgA, {
      name: uniqueName('Preserved scope'),
      permissions: ['TagList', 'VariableDelete'],
      variableSetIds: [1],
    });
    await expectStatus(
      account.put(`/groups/${group.id}/members`, {
        token: await tokenA(['UserUpdate']),
        body: { userIds: [member.id] },
      }),
      200,
    );
    const before = await readGroup(group.id);
    const response = await account.put<Problem>(`/groups/${group.id}`, {
      token: await tokenA(['UserUpdate', 'TagList']),
      body: { name: group.name, permissions: ['TagList'], variableSetIds: [] },
    });
    expect(response.status).toBe(403);
    expect(response.body.rejectedPermissions).toEqual(['VariableDelete']);
    expect(await readGroup(group.id)).toEqual(before);
    expect((await permissionsOf(account, orgA, member.id)).variableSets).toEqual({ VariableDelete: [1] });
  });
});

describe('CONTRACT 5: PUT /groups/{id}/members needs UserUpdate; body {userIds} is the whole membership; no grant check', () => {
  it('a caller holding only UserUpdate sets the members of a group whose permissions it does not hold', async () => {
    const [u1, u2, u3] = [
      await createUser(system, orgA, { name: 'Member One' }),
      await createUser(system, orgA, { name: 'Member Two' }),
      await createUser(system, orgA, { name: 'Member Three' }),
    ];
    const group = await createGroup(system, orgA, {
      name: uniqueName('Powerful'),
      permissions: ['AuditDelete', 'UserDelete'],
    });
    const first = await account.put<GroupView>(`/groups/${group.id}/members`, {
      token: await tokenA(['UserUpdate']),
      body: { userIds: [u1.id, u2.id] },
    });
    expect(first.status).toBe(200);
    expect(sorted(first.body.members.map((m) => m.id))).toEqual(sorted([u1.id, u2.id]));
    expect(first.body.permissions).toEqual(group.permissions);
    expect((await permissionsOf(account, orgA, u1.id)).permissions).toEqual(['UserDelete', 'AuditDelete']);

    // The whole membership: u1 leaves, u2 stays, u3 joins.
    const second = await account.put<GroupView>(`/groups/${group.id}/members`, {
      token: await tokenA(['UserUpdate']),
      body: { userIds: [u2.id, u3.id] },
    });
    expect(second.status).toBe(200);
    expect(sorted((await readGroup(group.id)).members.map((m) => m.id))).toEqual(sorted([u2.id, u3.id]));
    expect(sorted(second.body.members.map((m) => m.id))).toEqual(sorted([u2.id, u3.id]));
    expect((await permissionsOf(account, orgA, u1.id)).permissions).toEqual([]);
    expect((await permissionsOf(account, orgA, u2.id)).permissions).toEqual(['UserDelete', 'AuditDelete']);
  });

  it('is 403 without UserUpdate, and the membership does not change', async () => {
    const user = await createUser(system, orgA, { name: 'Not Joined' });
    const group = await createGroup(system, orgA, { name: uniqueName('Closed'), permissions: ['TagList'] });
    const response = await account.put(`/groups/${group.id}/members`, {
      token: await allBut('UserUpdate'),
      body: { userIds: [user.id] },
    });
    expect(response.status).toBe(403);
    expect((await readGroup(group.id)).members).toEqual([]);
  });

  it('an unknown user id is 400, and the membership does not change', async () => {
    const user = await createUser(system, orgA, { name: 'Joined Once' });
    const group = await createGroup(system, orgA, {
      name: uniqueName('Kept members'),
      permissions: ['TagList'],
    });
    await expectStatus(
      account.put(`/groups/${group.id}/members`, {
        token: await tokenA(['UserUpdate']),
        body: { userIds: [user.id] },
      }),
      200,
    );
    const response = await account.put(`/groups/${group.id}/members`, {
      token: await tokenA(['UserUpdate']),
      body: { userIds: ['00000000-0000-4000-8000-000000000001'] },
    });
    expect(response.status).toBe(400);
    expect((await readGroup(group.id)).members.map((m) => m.id)).toEqual([user.id]);
  });
});

describe('spec 4.2 / CONTRACT 6: PUT /groups/{id} with a version that is not the stored one is 409, nothing changed', () => {
  it('is 409 and the group keeps its name and permissions', async () => {
    const group = await createGroup(system, orgA, {
      name: uniqueName('Versioned'),
      permissions: ['TagList'],
    });
    const first = await account.put<GroupView>(`/groups/${group.id}`, {
      token: await tokenA(ORGANIZATION_PERMISSIONS),
      body: { name: `${group.name} v2`, permissions: ['TagList'], version: group.version },
    });
    expect(first.status).toBe(200);
    const stale = await account.put(`/groups/${group.id}`, {
      token: await tokenA(ORGANIZATION_PERMISSIONS),
      body: { name: `${group.name} v3`, permissions: ['TagRead'], version: group.version },
    });
    expect(stale.status).toBe(409);
    expect(await readGroup(group.id)).toEqual(first.body);
  });

  it('renaming to a name used by another group, without regard to case, is 409', async () => {
    const taken = await createGroup(system, orgA, { name: uniqueName('Taken') });
    const group = await createGroup(system, orgA, { name: uniqueName('Renamer') });
    const response = await account.put(`/groups/${group.id}`, {
      token: await tokenA(ORGANIZATION_PERMISSIONS),
      body: { name: taken.name.toLowerCase() },
    });
    expect(response.status).toBe(409);
    expect((await readGroup(group.id)).name).toBe(group.name);
  });
});

describe('decisions "PUT semantics": a field left out of PUT /groups/{id} keeps its stored value, a field sent replaces it', () => {
  it('leaving out variableSetIds keeps a restricted group restricted (never widened to every set)', async () => {
    const member = await createUser(system, orgA, { name: 'Kept Scope Member' });
    const group = await createGroup(system, orgA, {
      name: uniqueName('Kept scope'),
      description: 'restricted',
      permissions: ['VariableRead', 'TagList'],
      variableSetIds: [4, 9],
    });
    await expectStatus(
      account.put(`/groups/${group.id}/members`, {
        token: await tokenA(['UserUpdate']),
        body: { userIds: [member.id] },
      }),
      200,
    );
    const response = await account.put<GroupView>(`/groups/${group.id}`, {
      token: await tokenA(['UserUpdate', 'VariableRead', 'TagList']),
      body: { name: `${group.name} renamed` },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: `${group.name} renamed`,
      description: 'restricted',
      variableSetIds: [4, 9],
    });
    expect(sorted(response.body.permissions)).toEqual(['TagList', 'VariableRead']);
    expect(await readGroup(group.id)).toEqual(response.body);
    expect((await permissionsOf(account, orgA, member.id)).variableSets).toEqual({ VariableRead: [4, 9] });
  });

  it('leaving out permissions and description keeps them; leaving out the name keeps it', async () => {
    const group = await createGroup(system, orgA, {
      name: uniqueName('Kept fields'),
      description: 'keep me',
      permissions: ['TagList', 'TagRead'],
    });
    const described = await account.put<GroupView>(`/groups/${group.id}`, {
      token: await tokenA(['UserUpdate']),
      body: { variableSetIds: [] },
    });
    expect(described.status).toBe(200);
    expect(described.body).toMatchObject({
      name: group.name,
      description: 'keep me',
      permissions: ['TagList', 'TagRead'],
      version: group.version + 1,
    });
  });

  it('a field sent replaces it: an empty description, an empty permission list and an empty set list clear them', async () => {
    const group = await createGroup(system, orgA, {
      name: uniqueName('Replaced fields'),
      description: 'old',
      permissions: ['TagList', 'VariableList'],
      variableSetIds: [2],
    });
    const response = await account.put<GroupView>(`/groups/${group.id}`, {
      token: await tokenA(['UserUpdate', 'TagList', 'VariableList']),
      body: { description: '', permissions: [], variableSetIds: [] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ description: '', permissions: [], variableSetIds: [] });
  });
});

describe('spec 4.2 / CONTRACT 6: the version check of PUT /groups/{id} is atomic', () => {
  it('two PUTs sent at once with the same version: one is 200, the other 409, and the stored group is the winner', async () => {
    const group = await createGroup(system, orgA, { name: uniqueName('Raced'), permissions: ['TagList'] });
    const token = await tokenA(ORGANIZATION_PERMISSIONS);
    const responses = await Promise.all(
      ['left', 'right'].map((side) =>
        account.put<GroupView>(`/groups/${group.id}`, {
          token,
          body: { description: side, version: group.version },
        }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = responses.find((r) => r.status === 200)!.body;
    expect(winner.version).toBe(group.version + 1);
    expect(await readGroup(group.id)).toEqual(winner);
  });

  it('a PUT racing a membership change of the same group: each change that succeeds takes a version of its own and is applied, none is lost', async () => {
    const member = await createUser(system, orgA, { name: 'Racing Member' });
    const group = await createGroup(system, orgA, { name: uniqueName('Raced members') });
    const token = await tokenA(ORGANIZATION_PERMISSIONS);
    for (let round = 0; round < 5; round++) {
      const current = await readGroup(group.id);
      const userIds = round % 2 === 0 ? [member.id] : [];
      const [update, members] = await Promise.all([
        account.put(`/groups/${group.id}`, {
          token,
          body: { description: `round ${round}`, version: current.version },
        }),
        account.put(`/groups/${group.id}/members`, { token, body: { userIds } }),
      ]);
      // The members PUT carries no version: it always applies. The other may find it moved.
      expect(members.status).toBe(200);
      expect([200, 409]).toContain(update.status);
      const after = await readGroup(group.id);
      expect(after.version).toBe(current.version + (update.status === 200 ? 2 : 1));
      expect(after.description).toBe(update.status === 200 ? `round ${round}` : current.description);
      expect(after.members.map((m) => m.id)).toEqual(userIds);
    }
  });
});

describe('decisions "Row locks": PUT /groups/{id}/members and PUT /users/{id}/groups lock different rows `for no key update`, and adding one membership from both sides at once is no conflict', () => {
  /**
   * Sends the group's PUT /groups/{id}/members and the account's PUT /users/{id}/groups at once, the
   * group adding the account in even rounds and removing it in odd ones, and the account doing the
   * same or, when the two disagree, the opposite. Both answer 200; afterwards both sides agree, and
   * the membership is the one they set when they agreed.
   */
  const raceMemberships = async (label: string, rounds: number, disagree: boolean) => {
    const user = await createUser(system, orgA, { name: label });
    const group = await createGroup(system, orgA, { name: uniqueName(label) });
    const token = await tokenA(ORGANIZATION_PERMISSIONS);
    for (let round = 0; round < rounds; round++) {
      const groupAdds = round % 2 === 0;
      const userJoins = disagree ? !groupAdds : groupAdds;
      const [fromGroup, fromUser] = await Promise.all([
        account.put<GroupView>(`/groups/${group.id}/members`, {
          token,
          body: { userIds: groupAdds ? [user.id] : [] },
        }),
        account.put<UserView>(`/users/${user.id}/groups`, {
          token,
          body: { groupIds: userJoins ? [group.id] : [] },
        }),
      ]);
      expect([round, fromGroup.status, fromUser.status]).toEqual([round, 200, 200]);
      const members = (await readGroup(group.id)).members.map((m) => m.id);
      const stored = await expectStatus(
        account.get<UserView>(`/users/${user.id}`, { token: await tokenA(['UserRead']) }),
        200,
      );
      // Both sides read the one membership alike; when they agreed, it is the one they set.
      const isMember = members.includes(user.id);
      expect([round, stored.groups.map((g) => g.id)]).toEqual([round, isMember ? [group.id] : []]);
      if (!disagree) expect([round, members]).toEqual([round, groupAdds ? [user.id] : []]);
    }
  };

  it.each([
    [
      '30 pairs sent at once, adding then removing the same membership from both sides: every answer is 200, and the membership ends as they set it, seen alike from both sides',
      'Both Sides',
      30,
      false,
    ],
    [
      "pairs that disagree (the group adds the account, the account leaves the group): both answer 200, and the group's members and the account's groups agree afterwards",
      'Disagreeing',
      10,
      true,
    ],
  ])('%s', (_title, label, rounds, disagree) => raceMemberships(label, rounds, disagree));
});

describe('spec 7: a 403 for lacking UserUpdate does not name the missing permission', () => {
  it('PUT /groups/{id} without UserUpdate is 403 without rejectedPermissions, and the group does not change', async () => {
    const group = await createGroup(system, orgA, {
      name: uniqueName('No update'),
      permissions: ['TagList'],
    });
    const response = await account.put<Problem>(`/groups/${group.id}`, {
      token: await allBut('UserUpdate'),
      body: { name: `${group.name} x`, permissions: ['TagList', 'TagRead'] },
    });
    expect(response.status).toBe(403);
    expect(response.body.rejectedPermissions).toBeUndefined();
    expect(response.text).not.toContain('UserUpdate');
    expect(await readGroup(group.id)).toEqual(group);
  });
});

describe('spec 4.2 / CONTRACT 6: DELETE /groups/{id} needs UserDelete and answers 200 with the removed group', () => {
  it('removes the group, answers it, and its members lose its permissions', async () => {
    const member = await createUser(system, orgA, { name: 'Orphan' });
    const group = await createGroup(system, orgA, { name: uniqueName('Doomed'), permissions: ['TagList'] });
    await expectStatus(
      account.put(`/groups/${group.id}/members`, {
        token: await tokenA(['UserUpdate']),
        body: { userIds: [member.id] },
      }),
      200,
    );
    const before = await readGroup(group.id);
    const response = await account.delete<GroupView>(`/groups/${group.id}`, {
      token: await tokenA(['UserDelete']),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(before);
    expect((await account.get(`/groups/${group.id}`, { token: await tokenA(['UserRead']) })).status).toBe(
      404,
    );
    expect((await permissionsOf(account, orgA, member.id)).permissions).toEqual([]);
  });

  it('is 403 without UserDelete, and the group stays', async () => {
    const group = await createGroup(system, orgA, { name: uniqueName('Survivor') });
    expect((await account.delete(`/groups/${group.id}`, { token: await allBut('UserDelete') })).status).toBe(
      403,
    );
    expect(await readGroup(group.id)).toEqual(group);
  });
});

describe('spec 2 Audit entry / spec 6: group create, update and delete write Group entries with the states the spec gives', () => {
  it('create carries afterState only, update both, delete beforeState only', async () => {
    const token = await tokenA(ORGANIZATION_PERMISSIONS);
    const name = uniqueName('Audited group');
    const created = await expectStatus(
      account.post<GroupView>('/groups', { token, body: { name, permissions: ['TagList'] } }),
      200,
    );
    await expectStatus(
      account.put(`/groups/${created.id}`, { token, body: { name, permissions: ['TagList', 'TagRead'] } }),
      200,
    );
    await expectStatus(account.delete(`/groups/${created.id}`, { token }), 200);

    await eventually(async () => {
      const entries = await auditEntries(system, orgA, conditionsAbout('Group', created.id));
      expect(entries).toHaveLength(3);
      const byAction = new Map(entries.map((entry) => [entry.action, entry]));
      for (const entry of entries) expect(entry).toMatchObject({ organizationId: orgA, loggedBy: adminA.id });

      const create = byAction.get('Create')!;
      expect(create.beforeState).toBeNull();
      expect(JSON.parse(create.afterState!)).toMatchObject({
        id: created.id,
        name,
        permissions: ['TagList'],
      });

      const update = byAction.get('Update')!;
      expect(JSON.parse(update.beforeState!)).toMatchObject({ permissions: ['TagList'] });
      expect(JSON.parse(update.afterState!)).toMatchObject({ permissions: ['TagList', 'TagRead'] });

      const remove = byAction.get('Delete')!;
      expect(JSON.parse(remove.beforeState!)).toMatchObject({ id: created.id, name });
      expect(remove.afterState).toBeNull();
    });
  });
});

describe('spec 6 / decisions "Audit entries of the account service": PUT /groups/{id}/members writes a Group Update entry', () => {
  it('with the members before and after, logged by the caller in its organization', async () => {
    const joiner = await createUser(system, orgA, { name: 'Audited Joiner' });
    const group = await createGroup(system, orgA, {
      name: uniqueName('Audited members'),
      permissions: ['TagList'],
    });
    const changed = await expectStatus(
      account.put<GroupView>(`/groups/${group.id}/members`, {
        token: await tokenA(['UserUpdate']),
        body: { userIds: [joiner.id] },
      }),
      200,
    );
    await eventually(async () => {
      const entries = await auditEntries(system, orgA, conditionsAbout('Group', group.id, 'Update'));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ organizationId: orgA, loggedBy: adminA.id });
      expect(JSON.parse(entries[0]!.beforeState!)).toEqual(group);
      expect(JSON.parse(entries[0]!.afterState!)).toEqual(changed);
      expect(changed.members).toEqual([{ id: joiner.id, name: joiner.name, email: joiner.email }]);
    });
  });
});

describe('spec 4.2: GET /permissions answers the catalogue { permissions: [{ name, value, globalPermission, dependsOn }] } to any session', () => {
  it('with a session holding no permission: every catalogue entry, in the catalogue order, and nothing else', async () => {
    const response = await account.get<unknown>('/permissions', { token: await tokenA([]) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      permissions: PERMISSION_CATALOGUE.map(({ name, value, globalPermission, dependsOn }) => ({
        name,
        value,
        globalPermission,
        dependsOn: [...dependsOn],
      })),
    });
  });

  it('is 401 without a session', async () => {
    const response = await account.get<Problem>('/permissions');
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
  });
});
