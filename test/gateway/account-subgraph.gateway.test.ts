import { PERMISSION_CATALOGUE, type PermissionName } from '../../platform/permissions/catalogue.js';
import type { GroupView } from '../../subgraphs/account/groups/group.schemas.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import { sha256Hex } from '../account/account-test-helpers.js';
import { graphql, graphqlData } from '../support/graphql.js';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { createGroup, createOrganization, createUser, expectStatus } from '../support/factories.js';

let system: TestSystem;
let account: HttpClient;
let gateway: HttpClient;
let orgA: string;
let orgB: string;
let person: UserView;
let robot: UserView;
let personB: UserView;
let robotB: UserView;
let groupB: GroupView;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit', 'gateway'] });
  account = system.client('account');
  gateway = system.client('gateway');
  orgA = (await createOrganization(system, 'Subgraph Org A')).id;
  orgB = (await createOrganization(system, 'Subgraph Org B')).id;
  person = await createUser(system, orgA, { name: 'Subgraph Person' });
  robot = await createUser(system, orgA, { name: 'Subgraph Robot', serviceAccount: true });
  personB = await createUser(system, orgB, { name: 'Subgraph Person B' });
  robotB = await createUser(system, orgB, { name: 'Subgraph Robot B', serviceAccount: true });
  groupB = await createGroup(system, orgB, { name: 'Group of B', permissions: ['TagList'] });
});

afterAll(() => system.stop());

/** A session in organization A for this account, holding exactly these permissions. */
const tokenA = (permissions: PermissionName[], accountId = person.id) =>
  system.token({ organizationId: orgA, accountId, permissions });

/** The one error of an answer that must fail. */
async function failure(token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await graphql(gateway, token, query, variables);
  expect(response.status).toBe(200);
  expect(response.body.errors).toHaveLength(1);
  return response.body.errors![0]!;
}

const lookupStatus = async (key: string) =>
  (await account.post('/apikeys/lookup', { body: { sha: sha256Hex(key) } })).status;

const GROUP_FIELDS = 'id name description permissions variableSetIds version';
const CREATE_MY_KEY = `mutation ($input: ApiKeyInput!) {
  createMyApiKey(input: $input) { id apiKey hint description createdAt expiresAt }
}`;
const CREATE_ROBOT_KEY = `mutation ($userId: ID!, $input: ApiKeyInput!) {
  createServiceAccountApiKey(userId: $userId, input: $input) { id apiKey hint description expiresAt }
}`;

interface CreatedKey {
  id: number;
  apiKey: string;
  hint: string;
  description: string;
  createdAt: string;
  expiresAt: string | null;
}

describe('decision "Updates", through GraphQL: updateOrganization and updateUser change only the fields they send', () => {
  it('updateOrganization with only a name keeps the organization disabled and keeps its account patterns', async () => {
    const token = await system.token({
      permissions: ['GlobalOrganizationCreate', 'GlobalOrganizationUpdate', 'GlobalOrganizationRead'],
    });
    const created = await graphqlData<{ createOrganization: { id: string } }>(
      gateway,
      token,
      'mutation ($input: OrganizationInput!) { createOrganization(input: $input) { id } }',
      { input: { name: 'Partial Org', active: false, accountPatterns: ['@partial\\.example$'] } },
    );
    const updated = await graphqlData<{
      updateOrganization: { name: string; active: boolean; accountPatterns: string[]; version: number };
    }>(
      gateway,
      token,
      `mutation ($id: ID!, $input: OrganizationUpdateInput!) {
        updateOrganization(id: $id, input: $input) { name active accountPatterns version }
      }`,
      { id: created.createOrganization.id, input: { name: 'Partial Org renamed' } },
    );
    expect(updated.updateOrganization).toEqual({
      name: 'Partial Org renamed',
      active: false,
      accountPatterns: ['@partial\\.example$'],
      version: 2,
    });
  });

  it("updateUser with only a name keeps the account's address", async () => {
    const user = await createUser(system, orgA, { name: 'Partial Person' });
    const updated = await graphqlData<{ updateUser: { name: string; email: string } }>(
      gateway,
      await tokenA(['UserUpdate', 'UserRead']),
      'mutation ($id: ID!, $input: UserUpdateInput!) { updateUser(id: $id, input: $input) { name email } }',
      { id: user.id, input: { name: 'Partial Person renamed' } },
    );
    expect(updated.updateUser).toEqual({ name: 'Partial Person renamed', email: user.email });
  });
});

describe('spec 4.2 GET /permissions, through the account subgraph: the permissions query answers the catalogue', () => {
  it('to any session, every entry with name, value, globalPermission and dependsOn, as the catalogue has it', async () => {
    const answer = await graphqlData<{ permissions: unknown[] }>(
      gateway,
      await tokenA([]),
      '{ permissions { name value globalPermission dependsOn } }',
    );
    expect(answer.permissions).toEqual(
      PERMISSION_CATALOGUE.map(({ name, value, globalPermission, dependsOn }) => ({
        name,
        value,
        globalPermission,
        dependsOn: [...dependsOn],
      })),
    );
  });

  it('without a session it is UNAUTHENTICATED', async () => {
    const response = await graphql(gateway, undefined, '{ permissions { name } }');
    expect(response.status).toBe(200);
    expect(response.body.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('spec 4.2 "On group save" (1), through GraphQL: updateGroup keeps the permissions the caller cannot grant', () => {
  it('a caller holding TagList and TagRead replaces them and keeps AuditDelete and VariableRead', async () => {
    const group = await createGroup(system, orgA, {
      name: 'Preserved over GraphQL',
      permissions: ['TagList', 'VariableRead', 'AuditDelete'],
    });
    const { updateGroup } = await graphqlData<{ updateGroup: GroupView }>(
      gateway,
      await tokenA(['UserUpdate', 'TagList', 'TagRead']),
      `mutation ($id: Int!, $input: GroupUpdateInput!) { updateGroup(id: $id, input: $input) { ${GROUP_FIELDS} } }`,
      { id: group.id, input: { permissions: ['TagRead'] } },
    );
    expect([...updateGroup.permissions].sort()).toEqual(['AuditDelete', 'TagRead', 'VariableRead']);
  });

  it('adding one the caller may not grant is FORBIDDEN naming it, and nothing changes', async () => {
    const group = await createGroup(system, orgA, { name: 'Refused over GraphQL', permissions: ['TagList'] });
    const error = await failure(
      await tokenA(['UserUpdate', 'TagList']),
      'mutation ($id: Int!) { updateGroup(id: $id, input: { permissions: ["TagList", "UserDelete"] }) { id } }',
      { id: group.id },
    );
    expect(error.extensions).toMatchObject({ code: 'FORBIDDEN', rejectedPermissions: ['UserDelete'] });
    const stored = await expectStatus(
      account.get<GroupView>(`/groups/${group.id}`, { token: await tokenA(['UserRead']) }),
      200,
    );
    expect(stored).toEqual(group);
  });
});

describe('decisions "The account subgraph": a null input field is the field left out, not a BAD_REQUEST', () => {
  it('updateGroup with every field null keeps the group as it is (bar its version)', async () => {
    const group = await createGroup(system, orgA, {
      name: 'Nulls kept',
      description: 'kept',
      permissions: ['TagList'],
      variableSetIds: [6],
    });
    const { updateGroup } = await graphqlData<{ updateGroup: GroupView }>(
      gateway,
      await tokenA(['UserUpdate', 'TagList']),
      `mutation ($id: Int!, $input: GroupUpdateInput!) { updateGroup(id: $id, input: $input) { ${GROUP_FIELDS} } }`,
      {
        id: group.id,
        input: { name: null, description: null, permissions: null, variableSetIds: null, version: null },
      },
    );
    expect(updateGroup).toEqual({
      id: group.id,
      name: 'Nulls kept',
      description: 'kept',
      permissions: ['TagList'],
      variableSetIds: [6],
      version: group.version + 1,
    });
  });

  it('createGroup with null description, permissions and variableSetIds takes the defaults', async () => {
    const { createGroup: created } = await graphqlData<{ createGroup: GroupView }>(
      gateway,
      await tokenA(['UserCreate']),
      `mutation { createGroup(input: { name: "Null defaults", description: null, permissions: null, variableSetIds: null }) { ${GROUP_FIELDS} } }`,
    );
    expect(created).toMatchObject({ description: '', permissions: [], variableSetIds: [] });
  });

  it('createMyApiKey with a null description and expiry mints a OneHour key without a description', async () => {
    const now = system.clock.now();
    const { createMyApiKey } = await graphqlData<{ createMyApiKey: CreatedKey }>(
      gateway,
      await tokenA(['ProfileCreateApiKey']),
      CREATE_MY_KEY,
      { input: { description: null, expiry: null } },
    );
    expect(createMyApiKey).toMatchObject({
      description: '',
      expiresAt: new Date(now.getTime() + 60 * 60_000).toISOString(),
    });
  });
});

describe('spec 4.2 / CONTRACT 6, through GraphQL: deleteGroup answers the removed group', () => {
  it('answers the group as it was, which is then NOT_FOUND', async () => {
    const group = await createGroup(system, orgA, { name: 'Deleted over GraphQL', permissions: ['TagList'] });
    const token = await tokenA(['UserDelete', 'UserRead']);
    const { deleteGroup } = await graphqlData<{ deleteGroup: GroupView }>(
      gateway,
      token,
      `mutation ($id: Int!) { deleteGroup(id: $id) { ${GROUP_FIELDS} } }`,
      { id: group.id },
    );
    expect(deleteGroup).toEqual({
      id: group.id,
      name: group.name,
      description: group.description,
      permissions: group.permissions,
      variableSetIds: group.variableSetIds,
      version: group.version,
    });
    const gone = await failure(token, 'query ($id: Int!) { group(id: $id) { id } }', { id: group.id });
    expect(gone.extensions.code).toBe('NOT_FOUND');
  });

  it('is FORBIDDEN without UserDelete, and the group stays', async () => {
    const group = await createGroup(system, orgA, { name: 'Kept over GraphQL' });
    const refused = await failure(
      await tokenA(['UserUpdate', 'UserRead']),
      'mutation ($id: Int!) { deleteGroup(id: $id) { id } }',
      { id: group.id },
    );
    expect(refused.extensions.code).toBe('FORBIDDEN');
    const { group: still } = await graphqlData<{ group: { id: number } }>(
      gateway,
      await tokenA(['UserRead']),
      'query ($id: Int!) { group(id: $id) { id } }',
      { id: group.id },
    );
    expect(still.id).toBe(group.id);
  });
});

describe('spec 4.2 API keys through GraphQL: revoking, the expiry rules and the lists', () => {
  it('deleteMyApiKey revokes one of the caller’s keys with no permission: true, and the key no longer resolves', async () => {
    const { createMyApiKey } = await graphqlData<{ createMyApiKey: CreatedKey }>(
      gateway,
      await tokenA(['ProfileCreateApiKey']),
      CREATE_MY_KEY,
      { input: { description: 'revoked over GraphQL' } },
    );
    expect(await lookupStatus(createMyApiKey.apiKey)).toBe(200);
    const { deleteMyApiKey } = await graphqlData<{ deleteMyApiKey: boolean }>(
      gateway,
      await tokenA([]),
      'mutation ($id: Int!) { deleteMyApiKey(id: $id) }',
      { id: createMyApiKey.id },
    );
    expect(deleteMyApiKey).toBe(true);
    expect(await lookupStatus(createMyApiKey.apiKey)).toBe(404);
  });

  it("deleteMyApiKey on another account's key is NOT_FOUND, and it still resolves", async () => {
    const { createServiceAccountApiKey } = await graphqlData<{ createServiceAccountApiKey: CreatedKey }>(
      gateway,
      await tokenA(['UserCreateServiceAccountApiKey', 'UserRead']),
      CREATE_ROBOT_KEY,
      { userId: robot.id, input: {} },
    );
    const error = await failure(await tokenA([]), 'mutation ($id: Int!) { deleteMyApiKey(id: $id) }', {
      id: createServiceAccountApiKey.id,
    });
    expect(error.extensions.code).toBe('NOT_FOUND');
    expect(await lookupStatus(createServiceAccountApiKey.apiKey)).toBe(200);
  });

  it('deleteApiKey needs UserDelete: FORBIDDEN without it (the key still resolves), true with it (it no longer does)', async () => {
    const { createServiceAccountApiKey: key } = await graphqlData<{ createServiceAccountApiKey: CreatedKey }>(
      gateway,
      await tokenA(['UserCreateServiceAccountApiKey', 'UserRead']),
      CREATE_ROBOT_KEY,
      { userId: robot.id, input: { description: 'revoked by an administrator' } },
    );
    const mutation = 'mutation ($userId: ID!, $id: Int!) { deleteApiKey(userId: $userId, id: $id) }';
    const refused = await failure(await tokenA(['UserUpdate', 'UserRead']), mutation, {
      userId: robot.id,
      id: key.id,
    });
    expect(refused.extensions.code).toBe('FORBIDDEN');
    expect(await lookupStatus(key.apiKey)).toBe(200);
    const { deleteApiKey } = await graphqlData<{ deleteApiKey: boolean }>(
      gateway,
      await tokenA(['UserDelete']),
      mutation,
      {
        userId: robot.id,
        id: key.id,
      },
    );
    expect(deleteApiKey).toBe(true);
    expect(await lookupStatus(key.apiKey)).toBe(404);
  });

  it.each([
    ['createMyApiKey', ['ProfileCreateApiKey'], CREATE_MY_KEY, () => ({ input: { expiry: 'NoExpiry' } })],
    [
      'createServiceAccountApiKey',
      ['UserCreateServiceAccountApiKey', 'UserRead'],
      CREATE_ROBOT_KEY,
      () => ({ userId: robot.id, input: { expiry: 'NoExpiry' } }),
    ],
  ] as [string, PermissionName[], string, () => Record<string, unknown>][])(
    'spec 4.2 key creation rule 2: NoExpiry without ProfileNeverExpiresApiKey is BAD_REQUEST naming it (%s)',
    async (_mutation, permissions, mutation, variables) => {
      const error = await failure(await tokenA(permissions), mutation, variables());
      expect(error.extensions.code).toBe('BAD_REQUEST');
      expect(error.message).toContain('ProfileNeverExpiresApiKey');
    },
  );

  it('spec 4.2 key creation rule 3: createServiceAccountApiKey for an account that is not a service account is BAD_REQUEST', async () => {
    const error = await failure(
      await tokenA(['UserCreateServiceAccountApiKey', 'UserRead']),
      CREATE_ROBOT_KEY,
      {
        userId: person.id,
        input: {},
      },
    );
    expect(error.extensions.code).toBe('BAD_REQUEST');
  });

  it('CONTRACT 6: myApiKeys and apiKeys are pages: total counted before paging, take and skip', async () => {
    const pager = await createUser(system, orgA, { name: 'Subgraph Pager', serviceAccount: true });
    const mint = await tokenA(['UserCreateServiceAccountApiKey', 'UserRead']);
    for (const description of ['first', 'second', 'third']) {
      await graphqlData(gateway, mint, CREATE_ROBOT_KEY, { userId: pager.id, input: { description } });
      system.clock.advance(1000);
    }
    const page = await graphqlData<{ apiKeys: { total: number; items: { description: string }[] } }>(
      gateway,
      await tokenA(['UserRead']),
      'query ($userId: ID!) { apiKeys(userId: $userId, take: 1, skip: 1) { total items { description } } }',
      { userId: pager.id },
    );
    expect(page.apiKeys).toEqual({ total: 3, items: [{ description: 'second' }] });
    const owner = await createUser(system, orgA, { name: 'Subgraph Key Owner' });
    const ownerToken = await tokenA(['ProfileCreateApiKey'], owner.id);
    for (const description of ['first', 'second', 'third']) {
      await graphqlData(gateway, ownerToken, CREATE_MY_KEY, { input: { description } });
      system.clock.advance(1000);
    }
    const myKeys = (paging: string) =>
      graphqlData<{ myApiKeys: { total: number; items: { description: string }[] } }>(
        gateway,
        ownerToken,
        `{ myApiKeys${paging} { total items { description } } }`,
      );
    const all = await myKeys('');
    expect(all.myApiKeys.items).toHaveLength(all.myApiKeys.total);
    expect(all.myApiKeys.total).toBe(3);
    // Newest first: skipping one and taking one is the second newest, with the same total.
    expect((await myKeys('(take: 1, skip: 1)')).myApiKeys).toEqual({
      total: 3,
      items: [{ description: 'second' }],
    });
  });
});

describe('spec 1 / decisions "Tenancy": through GraphQL, an id of another organization is NOT_FOUND, never FORBIDDEN, and B\'s records do not change', () => {
  const everything = () => tokenA(PERMISSION_CATALOGUE.map((p) => p.name));

  it.each([
    ['group', 'query ($id: Int!) { group(id: $id) { id } }', () => ({ id: groupB.id })],
    ['user', 'query ($id: ID!) { user(id: $id) { id } }', () => ({ id: personB.id })],
    ['apiKeys', 'query ($id: ID!) { apiKeys(userId: $id) { total } }', () => ({ id: robotB.id })],
    [
      'updateGroup',
      'mutation ($id: Int!) { updateGroup(id: $id, input: { name: "Taken over" }) { id } }',
      () => ({ id: groupB.id }),
    ],
    ['deleteGroup', 'mutation ($id: Int!) { deleteGroup(id: $id) { id } }', () => ({ id: groupB.id })],
    [
      'setGroupMembers',
      'mutation ($id: Int!, $userIds: [ID!]!) { setGroupMembers(id: $id, userIds: $userIds) { id } }',
      () => ({ id: groupB.id, userIds: [] }),
    ],
    [
      'createServiceAccountApiKey',
      'mutation ($id: ID!) { createServiceAccountApiKey(userId: $id, input: {}) { id } }',
      () => ({ id: robotB.id }),
    ],
  ])('%s', async (_name, query, variables) => {
    const error = await failure(await everything(), query, variables());
    expect(error.extensions.code).toBe('NOT_FOUND');
    const tokenB = await system.token({ organizationId: orgB, permissions: ['UserRead'] });
    expect(
      await expectStatus(account.get<GroupView>(`/groups/${groupB.id}`, { token: tokenB }), 200),
    ).toEqual(groupB);
  });

  it("deleteApiKey of B's key is NOT_FOUND, and the key still resolves", async () => {
    const keyB = await expectStatus(
      account.post<{ id: number; apiKey: string }>(`/users/${robotB.id}/apikeys`, {
        token: await system.token({
          organizationId: orgB,
          permissions: ['UserCreateServiceAccountApiKey', 'UserRead'],
        }),
        body: {},
      }),
      201,
    );
    const error = await failure(
      await everything(),
      'mutation ($userId: ID!, $id: Int!) { deleteApiKey(userId: $userId, id: $id) }',
      { userId: robotB.id, id: keyB.id },
    );
    expect(error.extensions.code).toBe('NOT_FOUND');
    expect(await lookupStatus(keyB.apiKey)).toBe(200);
  });
});
