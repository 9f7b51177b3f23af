import { decodeJwt } from 'jose';
import type { OrganizationView } from '../../subgraphs/account/organizations/organization.schemas.js';
import type { GroupView } from '../../subgraphs/account/groups/group.schemas.js';
import type { UserView } from '../../subgraphs/account/users/user.schemas.js';
import type { ApiKeyCreatedView } from '../../subgraphs/account/api-keys/api-key.schemas.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

const BOOTSTRAP_KEY = 'bootstrap-key-for-the-journey-test-0123456789';
let system: TestSystem;

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['account', 'identity', 'audit'],
    overrides: { SVC_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY },
  });
});

afterAll(() => system.stop());

describe("CONTRACT 2 to 5 / spec 4.2 and 4.3, end to end: from the bootstrap key to a service account's token, over REST", () => {
  it("bootstrap key → organization → administrator login → group → service account → key → token with the group's permissions", async () => {
    const identity = system.client('identity');
    const account = system.client('account');

    // CONTRACT 2: the bootstrap key is exchanged for a token.
    const exchanged = await identity.post('/apikeyjwt', { headers: { 'x-svc-api': BOOTSTRAP_KEY } });
    expect(exchanged.status).toBe(200);
    const operator = exchanged.headers.get('x-svc-auth')!;
    expect(decodeJwt(operator).permissions).toContain('PermissionsAllGlobal');

    // The operator creates an organization whose administrator may sign in.
    const organization = await account.post<OrganizationView>('/organizations', {
      token: operator,
      body: { name: 'Journey Inc', adminEmails: ['ada@journey.example'] },
    });
    expect(organization.status).toBe(200);

    // CONTRACT 4: the administrator is provisioned through /generatejwt and joins Administrators.
    const login = await identity.post('/generatejwt', {
      body: {
        orgId: organization.body.id,
        email: 'ada@journey.example',
        name: 'Ada',
        provider: 'Entra',
        providerUserId: 'ada-oid',
      },
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toMatch(/text\/plain/);
    const admin = login.text;
    const adminClaims = decodeJwt(admin);
    expect(adminClaims.org).toBe(organization.body.id);
    expect(adminClaims.permissions).toContain('UserCreate');
    expect(adminClaims.permissions).not.toContain('GlobalOrganizationList');

    // The administrator creates a group and a service account in it, and mints its key.
    const group = await account.post<GroupView>('/groups', {
      token: admin,
      body: {
        name: 'Readers',
        permissions: ['VariableList', 'VariableRead', 'TagGroupList'],
        variableSetIds: [3, 4],
      },
    });
    expect(group.status).toBe(200);
    const robot = await account.post<UserView>('/users', {
      token: admin,
      body: { name: 'Deployer', email: 'deployer@journey.example', serviceAccount: true },
    });
    expect(robot.status).toBe(200);
    expect(
      (
        await account.put(`/groups/${group.body.id}/members`, {
          token: admin,
          body: { userIds: [robot.body.id] },
        })
      ).status,
    ).toBe(200);
    const key = await account.post<ApiKeyCreatedView>(`/users/${robot.body.id}/apikeys`, {
      token: admin,
      body: { description: 'CI', expiry: 'OneDay' },
    });
    expect(key.status).toBe(201);

    // The key is exchanged for a token carrying exactly the group's permissions, for the service account.
    const machine = await identity.post('/apikeyjwt', { headers: { 'x-svc-api': key.body.apiKey } });
    expect(machine.status).toBe(200);
    const claims = decodeJwt(machine.headers.get('x-svc-auth')!);
    expect(claims.sub).toBe(robot.body.id);
    expect(claims.org).toBe(organization.body.id);
    expect(claims.permissions).toEqual(['TagGroupList', 'VariableList', 'VariableRead']);
    expect(claims.variableSets).toEqual({ VariableList: [3, 4], VariableRead: [3, 4] });
  });
});
