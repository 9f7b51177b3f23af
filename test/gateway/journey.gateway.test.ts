import { decodeJwt } from 'jose';
import { PERMISSION_CATALOGUE } from '../../platform/permissions/catalogue.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { eventually } from '../support/eventually.js';
import { graphql, graphqlData } from '../support/graphql.js';
import type { HttpClient } from '../support/http-client.js';

const BOOTSTRAP_KEY = 'bootstrap-key-for-the-gateway-journey-0123456789';
let system: TestSystem;
let gateway: HttpClient;

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['account', 'identity', 'audit', 'gateway'],
    overrides: { SVC_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY },
  });
  gateway = system.client('gateway');
});

afterAll(() => system.stop());

describe("CONTRACT 2 to 5 / spec 4.2 and 4.3, end to end through the gateway: from the bootstrap key to a service account's token", () => {
  it("creates the organization, group, service account and key with GraphQL mutations; the key's token carries the group's permissions", async () => {
    const identity = system.client('identity');
    // CONTRACT 2: the bootstrap key is exchanged for a token.
    const exchanged = await identity.post('/apikeyjwt', { headers: { 'x-svc-api': BOOTSTRAP_KEY } });
    expect(exchanged.status).toBe(200);
    const operator = exchanged.headers.get('x-svc-auth')!;
    expect(decodeJwt(operator).permissions).toContain('PermissionsAllGlobal');

    const { createOrganization } = await graphqlData<{ createOrganization: { id: string; name: string } }>(
      gateway,
      operator,
      'mutation ($input: OrganizationInput!) { createOrganization(input: $input) { id name } }',
      { input: { name: 'Gateway Journey', adminEmails: ['grace@gateway.example'] } },
    );
    const login = await identity.post('/generatejwt', {
      body: {
        orgId: createOrganization.id,
        email: 'grace@gateway.example',
        name: 'Grace',
        provider: 'Google',
        providerUserId: 'grace-sub',
      },
    });
    // CONTRACT 4: the administrator is provisioned and gets exactly the permissions of the Administrators group.
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toMatch(/^text\/plain/);
    const admin = login.text;
    const adminClaims = decodeJwt(admin);
    expect(adminClaims.org).toBe(createOrganization.id);
    const { groups } = await graphqlData<{ groups: { items: { name: string; permissions: string[] }[] } }>(
      gateway,
      admin,
      '{ groups { items { name permissions } } }',
    );
    expect(groups.items.map((group) => group.name)).toEqual(['Administrators']);
    expect(adminClaims.permissions).toEqual(groups.items[0]!.permissions);
    expect(groups.items[0]!.permissions).toEqual(
      PERMISSION_CATALOGUE.filter((p) => !p.globalPermission).map((p) => p.name),
    );

    const { createGroup } = await graphqlData<{ createGroup: { id: number; permissions: string[] } }>(
      gateway,
      admin,
      'mutation ($input: GroupInput!) { createGroup(input: $input) { id permissions } }',
      { input: { name: 'Deployers', permissions: ['VariableRead', 'VariableList', 'TagList'] } },
    );
    const { createUser } = await graphqlData<{ createUser: { id: string } }>(
      gateway,
      admin,
      'mutation ($input: UserInput!) { createUser(input: $input) { id } }',
      { input: { name: 'Pipeline', email: 'pipeline@gateway.example', serviceAccount: true } },
    );
    await graphqlData(
      gateway,
      admin,
      'mutation ($id: Int!, $userIds: [ID!]!) { setGroupMembers(id: $id, userIds: $userIds) { id } }',
      {
        id: createGroup.id,
        userIds: [createUser.id],
      },
    );
    const { createServiceAccountApiKey } = await graphqlData<{
      createServiceAccountApiKey: { apiKey: string; hint: string };
    }>(
      gateway,
      admin,
      'mutation ($userId: ID!, $input: ApiKeyInput!) { createServiceAccountApiKey(userId: $userId, input: $input) { apiKey hint } }',
      { userId: createUser.id, input: { description: 'deploys', expiry: 'OneMonth' } },
    );
    expect(createServiceAccountApiKey.apiKey.endsWith(createServiceAccountApiKey.hint)).toBe(true);

    const machine = await identity.post('/apikeyjwt', {
      headers: { 'x-svc-api': createServiceAccountApiKey.apiKey },
    });
    expect(machine.status).toBe(200);
    const claims = decodeJwt(machine.headers.get('x-svc-auth')!);
    expect(claims).toMatchObject({ sub: createUser.id, org: createOrganization.id });
    expect(claims.permissions).toEqual(['TagList', 'VariableList', 'VariableRead']);
    expect(claims.variableSets).toBeUndefined();

    // "Who changed this" in one query: the audit entries of the group, with their author's name from the account subgraph.
    await eventually(async () => {
      const { auditEntries } = await graphqlData<{
        auditEntries: {
          items: { action: string; entityName: string; loggedBy: { id: string; name: string } | null }[];
        };
      }>(
        gateway,
        admin,
        `
          query ($conditions: [AuditCondition!]) {
            auditEntries(take: 10, conditions: $conditions) {
              items {
                action
                entityName
                loggedBy {
                  id
                  name
                }
              }
            }
          }
        `,
        {
          conditions: [
            { field: 'EntityName', operatorType: 'eq', value: 'Group' },
            { field: 'EntityId', operatorType: 'eq', value: String(createGroup.id) },
          ],
        },
      );
      expect(auditEntries.items.map((e) => e.action)).toEqual(['Create', 'Update']);
      expect(auditEntries.items[0]!.loggedBy).toEqual({ id: decodeJwt(admin).sub, name: 'Grace' });
    });
  });
});

describe('decisions "The account subgraph": the same services and checks as the REST facade', () => {
  it('a query without a token is UNAUTHENTICATED, one without the permission FORBIDDEN', async () => {
    const anonymous = await graphql(gateway, undefined, '{ users { total } }');
    expect(anonymous.body.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    const weak = await system.token({ permissions: ['TagList'] });
    const refused = await graphql(gateway, weak, '{ users { total } }');
    expect(refused.body.errors![0]!.extensions.code).toBe('FORBIDDEN');
  });

  it('a refused grant is FORBIDDEN naming the rejected permissions', async () => {
    const limited = await system.token({ permissions: ['UserCreate', 'VariableRead'] });
    const response = await graphql(
      gateway,
      limited,
      'mutation { createGroup(input: { name: "Too much", permissions: ["VariableRead", "VariableDelete"] }) { id } }',
    );
    expect(response.body.errors![0]!.extensions).toMatchObject({
      code: 'FORBIDDEN',
      rejectedPermissions: ['VariableDelete'],
    });
  });

  it("an audit reader sees who wrote an entry by name, not the account's details", async () => {
    const operator = (
      await system.client('identity').post('/apikeyjwt', { headers: { 'x-svc-api': BOOTSTRAP_KEY } })
    ).headers.get('x-svc-auth')!;
    const systemId = decodeJwt(operator).org as string;
    // An entry of its own, written by the bootstrap account, rather than whichever entry is newest.
    const { createGroup } = await graphqlData<{ createGroup: { id: number } }>(
      gateway,
      operator,
      'mutation { createGroup(input: { name: "Audited by name" }) { id } }',
    );
    const auditor = await system.token({ organizationId: systemId, permissions: ['AuditList'] });
    const conditions = [
      { field: 'EntityName', operatorType: 'eq', value: 'Group' },
      { field: 'EntityId', operatorType: 'eq', value: String(createGroup.id) },
    ];
    const named = await eventually(async () => {
      const { auditEntries } = await graphqlData<{
        auditEntries: { items: { action: string; loggedBy: { id: string; name: string } | null }[] };
      }>(
        gateway,
        auditor,
        'query ($conditions: [AuditCondition!]) { auditEntries(conditions: $conditions) { items { action loggedBy { id name } } } }',
        { conditions },
      );
      expect(auditEntries.items).toHaveLength(1);
      return auditEntries.items[0]!;
    });
    expect(named).toEqual({ action: 'Create', loggedBy: { id: decodeJwt(operator).sub, name: 'bootstrap' } });

    const response = await graphql(
      gateway,
      auditor,
      'query ($conditions: [AuditCondition!]) { auditEntries(conditions: $conditions) { items { loggedBy { name groups { name } } } } }',
      { conditions },
    );
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors![0]!.extensions.code).toBe('FORBIDDEN');
    expect(response.body.errors![0]!.path).toEqual(['auditEntries', 'items', 0, 'loggedBy', 'groups']);
  });
});
