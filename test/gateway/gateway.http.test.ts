import { randomUUID } from 'node:crypto';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { writeEntry } from '../audit/audit-test-helpers.js';

let system: TestSystem;
const organizationId = randomUUID();

beforeAll(async () => {
  system = await startTestSystem({ processes: ['audit', 'gateway'] });
  await writeEntry(system.client('audit'), await system.token({ organizationId, permissions: [] }), {
    entryType: 'TagGroup',
    action: 'Create',
    entityName: 'TagGroup',
    entityId: '1',
    afterState: '{"name":"Region"}',
  });
});

afterAll(() => system.stop());

const query = `query { auditEntries(take: 5) { total items { id entryType afterState stateWithheld } } }`;

interface GraphQLAnswer {
  data: {
    auditEntries: { total: number; items: { id: number; entryType: string; afterState: string | null }[] };
  } | null;
  errors?: { message: string; extensions: { code: string } }[];
}

describe('issue 2 gateway: forwards x-svc-auth to the subgraphs', () => {
  it("answers an audit query with the caller's token from the header", async () => {
    const token = await system.token({ organizationId, permissions: ['AuditList', 'AuditRead'] });
    const response = await system
      .client('gateway')
      .post<GraphQLAnswer>('/graphql', { token, body: { query } });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.auditEntries).toEqual({
      total: 1,
      items: [{ id: 1, entryType: 'TagGroup', afterState: '{"name":"Region"}', stateWithheld: false }],
    });
  });

  it('reads the token from the x-svc-auth cookie when there is no header', async () => {
    const token = await system.token({ organizationId, permissions: ['AuditList'] });
    const response = await system.client('gateway').post<GraphQLAnswer>('/graphql', {
      headers: { cookie: `x-svc-auth=${token}` },
      body: { query },
    });
    expect(response.body.data!.auditEntries.total).toBe(1);
    expect(response.body.data!.auditEntries.items[0]!.afterState).toBeNull();
  });

  it('refuses the query without a token: UNAUTHENTICATED and no data', async () => {
    const response = await system.client('gateway').post<GraphQLAnswer>('/graphql', { body: { query } });
    expect(response.body.data).toBeNull();
    expect(response.body.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('spec 5.1: ignores Authorization: Bearer', async () => {
    const token = await system.token({ organizationId, permissions: ['AuditList'] });
    const response = await system.client('gateway').post<GraphQLAnswer>('/graphql', {
      headers: { authorization: `Bearer ${token}` },
      body: { query },
    });
    expect(response.body.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('passes a permission refusal through as FORBIDDEN, without naming the permission', async () => {
    const token = await system.token({ organizationId, permissions: ['UserList'] });
    const response = await system
      .client('gateway')
      .post<GraphQLAnswer>('/graphql', { token, body: { query } });
    expect(response.body.errors![0]!.extensions.code).toBe('FORBIDDEN');
    expect(response.text).not.toContain('AuditList');
  });

  it("the subgraph applies the REST facade's validation: a bad sort field is BAD_REQUEST naming it", async () => {
    const token = await system.token({ organizationId, permissions: ['AuditList'] });
    const response = await system.client('gateway').post<GraphQLAnswer>('/graphql', {
      token,
      body: { query: '{ auditEntries(sortField: "Colour") { total } }' },
    });
    expect(response.body.errors![0]!.extensions.code).toBe('BAD_REQUEST');
    expect(response.body.errors![0]!.message).toContain('args.sortField');
  });

  it('answers auditEntry by id through the gateway with the same checks as GET /{id}', async () => {
    const reader = await system.token({ organizationId, permissions: ['AuditList', 'AuditRead'] });
    const found = await system
      .client('gateway')
      .post<{ data: { auditEntry: { entityId: string } } }>('/graphql', {
        token: reader,
        body: { query: '{ auditEntry(id: 1) { entityId } }' },
      });
    expect(found.body.data.auditEntry.entityId).toBe('1');
    const lister = await system.token({ organizationId, permissions: ['AuditList'] });
    const refused = await system.client('gateway').post<GraphQLAnswer>('/graphql', {
      token: lister,
      body: { query: '{ auditEntry(id: 1) { entityId } }' },
    });
    expect(refused.body.errors![0]!.extensions.code).toBe('FORBIDDEN');
  });
});

describe("issue 2 gateway: the operator's playground works with no internet access", () => {
  it('serves a page whose every script and stylesheet is served by the gateway itself', async () => {
    const gateway = system.client('gateway');
    const page = await gateway.get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(5);
    for (const asset of assets) {
      expect(asset.startsWith('/')).toBe(true);
      const response = await gateway.get(asset);
      expect(response.status).toBe(200);
      expect(response.text.length).toBeGreaterThan(20);
    }
  });
});
