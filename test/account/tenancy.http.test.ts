import { randomUUID } from 'node:crypto';
import type { ApiKeyCreatedView, ApiKeyView } from '../../subgraphs/account/api-keys/api-key.schemas.js';
import type { GroupView } from '../../subgraphs/account/groups/group.schemas.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { HttpClient, TestResponse } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import type { Problem } from '../support/problem.js';
import { permissionsOf, sha256Hex } from './account-test-helpers.js';
import {
  ORGANIZATION_PERMISSIONS,
  administratorToken,
  createGroup,
  createOrganization,
  createUser,
  expectStatus,
  setMembers,
  uniqueEmail,
} from '../support/factories.js';

let system: TestSystem;
let account: HttpClient;
let orgA: string;
let orgB: string;
/** The caller: a real account of A holding every non-global permission of A. */
let callerA: UserView;

/** The ids a by-ID route is called with. */
interface Ids {
  userId: string;
  serviceAccountId: string;
  groupId: number;
  /** A key of the service account. */
  apiKeyId: number;
  /** A key of the account's own (for the `me` route). */
  ownKeyId: number;
}

/** Organization B's records, and the keys themselves so their resolving can be checked. */
let idsB: Ids;
let keysB: string[];

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit'] });
  account = system.client('account');
  orgA = (await createOrganization(system, 'Tenancy Org A')).id;
  orgB = (await createOrganization(system, 'Tenancy Org B')).id;
  callerA = await createUser(system, orgA, { name: 'Caller A' });

  const personB = await createUser(system, orgB, { name: 'Person B' });
  const robotB = await createUser(system, orgB, { name: 'Robot B', serviceAccount: true });
  const groupB = await createGroup(system, orgB, {
    name: 'Group B',
    permissions: ['TagList', 'VariableRead'],
  });
  await setMembers(system, orgB, groupB.id, [personB.id, robotB.id]);
  const robotKey = await expectStatus(
    account.post<ApiKeyCreatedView>(`/users/${robotB.id}/apikeys`, {
      token: await administratorToken(system, orgB),
      body: { description: 'robot B key', expiry: 'OneDay' },
    }),
    201,
  );
  const ownKey = await expectStatus(
    account.post<ApiKeyCreatedView>('/users/me/apikeys', {
      token: await administratorToken(system, orgB, personB.id),
      body: { description: 'person B key', expiry: 'OneDay' },
    }),
    201,
  );
  idsB = {
    userId: personB.id,
    serviceAccountId: robotB.id,
    groupId: groupB.id,
    apiKeyId: robotKey.id,
    ownKeyId: ownKey.id,
  };
  keysB = [robotKey.apiKey, ownKey.apiKey];
});

afterAll(() => system.stop());

const callerToken = () =>
  system.token({ organizationId: orgA, accountId: callerA.id, permissions: ORGANIZATION_PERMISSIONS });

/** Everything of organization B a by-ID route could touch, as B's administrator sees it. */
async function snapshotB() {
  const token = await administratorToken(system, orgB);
  const get = async <T>(path: string) => expectStatus(account.get<T>(path, { token }), 200);
  return {
    users: await get<{ items: UserView[] }>('/users'),
    groups: await get<{ items: GroupView[] }>('/groups'),
    serviceAccountKeys: await get<{ total: number; items: ApiKeyView[] }>(
      `/users/${idsB.serviceAccountId}/apikeys`,
    ),
    ownKeys: await get<{ total: number; items: ApiKeyView[] }>(`/users/${idsB.userId}/apikeys`),
    permissions: await permissionsOf(account, orgB, idsB.userId),
    lookups: await Promise.all(
      keysB.map(
        async (key) => (await account.post('/apikeys/lookup', { body: { sha: sha256Hex(key) } })).status,
      ),
    ),
  };
}

/** Fresh records of organization A, for the control call: the same route reaches the caller's own ids. */
async function freshIdsA(): Promise<Ids> {
  const user = await createUser(system, orgA, { name: 'Own User' });
  const robot = await createUser(system, orgA, { name: 'Own Robot', serviceAccount: true });
  const group = await createGroup(system, orgA, {
    name: `Own Group ${randomUUID()}`,
    permissions: ['TagList'],
  });
  const token = await callerToken();
  const robotKey = await expectStatus(
    account.post<ApiKeyCreatedView>(`/users/${robot.id}/apikeys`, { token, body: {} }),
    201,
  );
  const ownKey = await expectStatus(
    account.post<ApiKeyCreatedView>('/users/me/apikeys', { token, body: {} }),
    201,
  );
  return {
    userId: user.id,
    serviceAccountId: robot.id,
    groupId: group.id,
    apiKeyId: robotKey.id,
    ownKeyId: ownKey.id,
  };
}

/** Ids that exist nowhere. */
const unknownIds = (): Ids => ({
  userId: randomUUID(),
  serviceAccountId: randomUUID(),
  groupId: 999_999,
  apiKeyId: 999_998,
  ownKeyId: 999_997,
});

/** A problem's detail with the ids it was asked about taken out, so two answers can be compared. */
function withoutIds(detail: string, ids: Ids): string {
  let text = detail;
  for (const id of [ids.userId, ids.serviceAccountId]) text = text.split(id).join('<id>');
  for (const id of [ids.groupId, ids.apiKeyId, ids.ownKeyId])
    text = text.replace(new RegExp(`\\b${id}\\b`, 'g'), '<id>');
  return text;
}

type Call = (ids: Ids, token: string) => Promise<TestResponse<Problem>>;

const byIdRoutes: [string, Call][] = [
  ['GET /users/{id}', (ids, token) => account.get(`/users/${ids.userId}`, { token })],
  [
    'PUT /users/{id}',
    (ids, token) =>
      account.put(`/users/${ids.userId}`, {
        token,
        body: { name: 'Renamed by A', email: uniqueEmail('renamed') },
      }),
  ],
  ['DELETE /users/{id}', (ids, token) => account.delete(`/users/${ids.userId}`, { token })],
  [
    'PUT /users/{id}/groups',
    (ids, token) => account.put(`/users/${ids.userId}/groups`, { token, body: { groupIds: [] } }),
  ],
  [
    'GET /users/{id}/apikeys',
    (ids, token) => account.get(`/users/${ids.serviceAccountId}/apikeys`, { token }),
  ],
  [
    'POST /users/{id}/apikeys',
    (ids, token) =>
      account.post(`/users/${ids.serviceAccountId}/apikeys`, { token, body: { description: 'minted by A' } }),
  ],
  [
    'DELETE /users/{id}/apikeys/{apiKeyId}',
    (ids, token) => account.delete(`/users/${ids.serviceAccountId}/apikeys/${ids.apiKeyId}`, { token }),
  ],
  ['GET /groups/{id}', (ids, token) => account.get(`/groups/${ids.groupId}`, { token })],
  [
    'PUT /groups/{id}',
    (ids, token) =>
      account.put(`/groups/${ids.groupId}`, {
        token,
        body: { name: `Renamed by A ${randomUUID()}`, permissions: [] },
      }),
  ],
  ['DELETE /groups/{id}', (ids, token) => account.delete(`/groups/${ids.groupId}`, { token })],
  [
    'PUT /groups/{id}/members',
    (ids, token) => account.put(`/groups/${ids.groupId}/members`, { token, body: { userIds: [] } }),
  ],
  [
    'DELETE /users/me/apikeys/{id}',
    (ids, token) => account.delete(`/users/me/apikeys/${ids.ownKeyId}`, { token }),
  ],
];

describe('spec 1 tenancy rule 2: an id of another organization answers 404, never 403, on every by-ID route of the account service', () => {
  it.each(byIdRoutes)(
    '%s with ids of B, for a caller holding every permission of A: 404 as for an unknown id, and nothing in B changes',
    async (_route, call) => {
      const before = await snapshotB();
      const token = await callerToken();

      const other = await call(idsB, token);
      expect(other.status).toBe(404);

      const nowhere = unknownIds();
      const unknown = await call(nowhere, token);
      expect(unknown.status).toBe(404);
      expect(withoutIds(other.body.detail, idsB)).toBe(withoutIds(unknown.body.detail, nowhere));

      expect(await snapshotB()).toEqual(before);

      // Control: the same caller and route reach the caller's own organization's ids.
      const own = await call(await freshIdsA(), token);
      expect(own.status).toBeGreaterThanOrEqual(200);
      expect(own.status).toBeLessThan(300);
    },
  );

  it('GET /users/{id}/permissions (anonymous) with organizationId of A and an account of B is 404', async () => {
    const response = await account.get(`/users/${idsB.userId}/permissions?organizationId=${orgA}`);
    expect(response.status).toBe(404);
    expect(response.text).not.toContain('TagList');
  });
});

describe('spec 1 tenancy rule 2: ids of another organization given inside bodies are refused and change nothing', () => {
  it("PUT /users/{id}/groups with a group of B is refused as an unknown group, and neither side's membership changes", async () => {
    const user = await createUser(system, orgA, { name: 'Joiner A' });
    const ownGroup = await createGroup(system, orgA, {
      name: `Joiner group ${randomUUID()}`,
      permissions: ['TagRead'],
    });
    await setMembers(system, orgA, ownGroup.id, [user.id]);
    const before = await snapshotB();
    const token = await callerToken();

    for (const groupIds of [[idsB.groupId], [ownGroup.id, idsB.groupId]]) {
      const response = await account.put<Problem>(`/users/${user.id}/groups`, { token, body: { groupIds } });
      expect(response.status).toBe(400);
    }
    const unknown = await account.put<Problem>(`/users/${user.id}/groups`, {
      token,
      body: { groupIds: [999_999] },
    });
    expect(unknown.status).toBe(400);

    const read = await expectStatus(account.get<UserView>(`/users/${user.id}`, { token }), 200);
    expect(read.groups).toEqual([{ id: ownGroup.id, name: ownGroup.name }]);
    expect((await permissionsOf(account, orgA, user.id)).permissions).toEqual(['TagRead']);
    expect(await snapshotB()).toEqual(before);
  });

  it("PUT /groups/{id}/members with an account of B is refused as an unknown account, and neither side's membership changes", async () => {
    const member = await createUser(system, orgA, { name: 'Member A' });
    const group = await createGroup(system, orgA, {
      name: `Members A ${randomUUID()}`,
      permissions: ['AuditList'],
    });
    await setMembers(system, orgA, group.id, [member.id]);
    const before = await snapshotB();
    const token = await callerToken();

    for (const userIds of [[idsB.userId], [member.id, idsB.serviceAccountId]]) {
      const response = await account.put<Problem>(`/groups/${group.id}/members`, {
        token,
        body: { userIds },
      });
      expect(response.status).toBe(400);
    }
    const unknown = await account.put<Problem>(`/groups/${group.id}/members`, {
      token,
      body: { userIds: [randomUUID()] },
    });
    expect(unknown.status).toBe(400);

    const read = await expectStatus(account.get<GroupView>(`/groups/${group.id}`, { token }), 200);
    expect(read.members.map((m) => m.id)).toEqual([member.id]);
    expect((await permissionsOf(account, orgB, idsB.userId)).permissions).toEqual([
      'TagList',
      'VariableRead',
    ]);
    expect((await permissionsOf(account, orgB, idsB.serviceAccountId)).permissions).toEqual([
      'TagList',
      'VariableRead',
    ]);
    expect(await snapshotB()).toEqual(before);
  });
});
