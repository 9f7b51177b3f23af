import { decodeJwt } from 'jose';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { eventually } from '../support/eventually.js';

const BOOTSTRAP_KEY = 'bootstrap-key-for-the-gateway-journey-0123456789';
let system: TestSystem;

beforeAll(async () => {
  system = await startTestSystem({
    processes: ['account', 'identity', 'audit', 'gateway'],
    overrides: { SVC_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY },
  });
});

afterAll(() => system.stop());

interface GraphQLAnswer<T> {
  data: T | null;
  errors?: {
    message: string;
    path?: string[];
    extensions: { code: string; rejectedPermissions?: string[] };
  }[];
}

async function graphql<T>(
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await system
    .client('gateway')
    .post<GraphQLAnswer<T>>('/graphql', { token, body: { query, variables } });
  if (response.body.errors) throw new Error(JSON.stringify(response.body.errors));
  return response.body.data!;
}

describe("issue 3 journey through the gateway: from the bootstrap key to a service account's token", () => {
  it("creates the organization, group, service account and key with GraphQL mutations; the key's token carries the group's permissions", async () => {
    const identity = system.client('identity');
    const operator = (
      await identity.post('/apikeyjwt', { headers: { 'x-svc-api': BOOTSTRAP_KEY } })
    ).headers.get('x-svc-auth')!;

    const { createOrganization } = await graphql<{ createOrganization: { id: string; name: string } }>(
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
    const admin = login.text;

    const { createGroup } = await graphql<{ createGroup: { id: number; permissions: string[] } }>(
      admin,
      'mutation ($input: GroupInput!) { createGroup(input: $input) { id permissions } }',
      { input: { name: 'Deployers', permissions: ['VariableRead', 'VariableList', 'TagList'] } },
    );
    const { createUser } = await graphql<{ createUser: { id: string } }>(
      admin,
      'mutation ($input: UserInput!) { createUser(input: $input) { id } }',
      { input: { name: 'Pipeline', email: 'pipeline@gateway.example', serviceAccount: true } },
    );
    await graphql(
      admin,
      'mutation ($id: Int!, $userIds: [ID!]!) { setGroupMembers(id: $id, userIds: $userIds) { id } }',
      {
        id: createGroup.id,
        userIds: [createUser.id],
      },
    );
    const { createServiceAccountApiKey } = await graphql<{
      createServiceAccountApiKey: { apiKey: string; hint: string };
    }>(
      admin,
      'mutation ($userId: ID!, $input: ApiKeyInput!) { createServiceAccountApiKey(userId: $userId, input: $input) { apiKey hint } }',
      { userId: createUser.id, input: { description: 'deploys', expiry: 'OneMonth' } },
    );
    expect(createServiceAccountApiKey.apiKey.endsWith(createServiceAccountApiKey.hint)).toBe(true);

    const machine = await identity.post('/apikeyjwt', {
      headers: { 'x-svc-api': createServiceAccountApiKey.apiKey },
    });
    const claims = decodeJwt(machine.headers.get('x-svc-auth')!);
    expect(claims).toMatchObject({ sub: createUser.id, org: createOrganization.id });
    expect(claims.permissions).toEqual(['TagList', 'VariableList', 'VariableRead']);
    expect(claims.variableSets).toBeUndefined();

    // "Who changed this" in one query: the audit entries of the group, with their author's name from the account subgraph.
    await eventually(async () => {
      const { auditEntries } = await graphql<{
        auditEntries: {
          items: { action: string; entityName: string; loggedBy: { id: string; name: string } | null }[];
        };
      }>(
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

describe('issue 3 account subgraph: the same checks as the REST facade', () => {
  it('a query without a token is UNAUTHENTICATED, one without the permission FORBIDDEN', async () => {
    const anonymous = await system
      .client('gateway')
      .post<GraphQLAnswer<unknown>>('/graphql', { body: { query: '{ users { total } }' } });
    expect(anonymous.body.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    const weak = await system.token({ permissions: ['TagList'] });
    const refused = await system
      .client('gateway')
      .post<GraphQLAnswer<unknown>>('/graphql', { token: weak, body: { query: '{ users { total } }' } });
    expect(refused.body.errors![0]!.extensions.code).toBe('FORBIDDEN');
  });

  it('a refused grant is FORBIDDEN naming the rejected permissions', async () => {
    const limited = await system.token({ permissions: ['UserCreate', 'VariableRead'] });
    const response = await system.client('gateway').post<GraphQLAnswer<unknown>>('/graphql', {
      token: limited,
      body: {
        query:
          'mutation { createGroup(input: { name: "Too much", permissions: ["VariableRead", "VariableDelete"] }) { id } }',
      },
    });
    expect(response.body.errors![0]!.extensions).toMatchObject({
      code: 'FORBIDDEN',
      rejectedPermissions: ['VariableDelete'],
    });
  });

  it("an audit reader sees who wrote an entry by name, not the account's details", async () => {
    const operator = (
      await system.client('identity').post('/apikeyjwt', { headers: { 'x-svc-api': BOOTSTRAP_KEY } })
    ).headers.get('x-svc-auth')!;
    const auditor = await system.token({
      organizationId: decodeJwt(operator).org as string,
      permissions: ['AuditList'],
    });
    const response = await system
      .client('gateway')
      .post<
        GraphQLAnswer<{ auditEntries: { items: { loggedBy: { name: string; groups: unknown } | null }[] } }>
      >('/graphql', {
        token: auditor,
        body: {
          query:
            '{ auditEntries(take: 1, sortDescending: true) { items { loggedBy { name groups { name } } } } }',
        },
      });
    expect(response.body.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect(response.body.errors?.[0]?.path).toEqual(['auditEntries', 'items', 0, 'loggedBy', 'groups']);
  });
});
