import { randomUUID } from 'node:crypto';
import { GLOBAL_ORGANIZATION_ID } from '../../subgraphs/audit/domain/audit-visibility.js';
import type { PermissionName } from '../../platform/permissions/catalogue.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { graphql, type GraphQLAnswer } from '../support/graphql.js';
import { writeEntry } from '../support/audit-log.js';

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
  await writeEntry(system.client('audit'), undefined, {
    entryType: 'JWK',
    action: 'Sign',
    entityName: 'SigningKey',
    entityId: 'key-1',
    afterState: '{"kid":"key-1"}',
  });
});

afterAll(() => system.stop());

const query = `query { auditEntries(take: 5) { total items { id entryType afterState stateWithheld } } }`;

interface AuditEntries {
  auditEntries: { total: number; items: { id: number; entryType: string; afterState: string | null }[] };
}

describe('spec 5.1: the gateway forwards the session token (x-svc-auth header, else cookie; never Bearer) to the subgraphs', () => {
  it("answers an audit query with the caller's token from the header", async () => {
    const token = await system.token({ organizationId, permissions: ['AuditList', 'AuditRead'] });
    const response = await graphql<AuditEntries>(system.client('gateway'), token, query);
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.auditEntries).toEqual({
      total: 1,
      items: [{ id: 1, entryType: 'TagGroup', afterState: '{"name":"Region"}', stateWithheld: false }],
    });
  });

  it('reads the token from the x-svc-auth cookie when there is no header', async () => {
    const token = await system.token({ organizationId, permissions: ['AuditList'] });
    const response = await system.client('gateway').post<GraphQLAnswer<AuditEntries>>('/graphql', {
      headers: { cookie: `x-svc-auth=${token}` },
      body: { query },
    });
    expect(response.body.data!.auditEntries.total).toBe(1);
    expect(response.body.data!.auditEntries.items[0]!.afterState).toBeNull();
  });

  it('refuses the query without a token: UNAUTHENTICATED and no data', async () => {
    const response = await graphql<AuditEntries>(system.client('gateway'), undefined, query);
    expect(response.body.data).toBeNull();
    expect(response.body.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('spec 5.1: ignores Authorization: Bearer', async () => {
    const token = await system.token({ organizationId, permissions: ['AuditList'] });
    const response = await system.client('gateway').post<GraphQLAnswer<AuditEntries>>('/graphql', {
      headers: { authorization: `Bearer ${token}` },
      body: { query },
    });
    expect(response.body.errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('passes a permission refusal through as FORBIDDEN, without naming the permission', async () => {
    const token = await system.token({ organizationId, permissions: ['UserList'] });
    const response = await graphql(system.client('gateway'), token, query);
    expect(response.body.errors![0]!.extensions.code).toBe('FORBIDDEN');
    expect(response.text).not.toContain('AuditList');
  });

  it("the subgraph applies the REST facade's validation: a bad sort field is BAD_REQUEST naming it", async () => {
    const token = await system.token({ organizationId, permissions: ['AuditList'] });
    const response = await graphql(
      system.client('gateway'),
      token,
      '{ auditEntries(sortField: "Colour") { total } }',
    );
    expect(response.body.errors![0]!.extensions.code).toBe('BAD_REQUEST');
    expect(response.body.errors![0]!.message).toContain('args.sortField');
  });

  it('answers auditEntry by id through the gateway with the same checks as GET /{id}', async () => {
    const reader = await system.token({ organizationId, permissions: ['AuditList', 'AuditRead'] });
    const found = await graphql<{ auditEntry: { entityId: string } }>(
      system.client('gateway'),
      reader,
      '{ auditEntry(id: 1) { entityId } }',
    );
    expect(found.body.data!.auditEntry.entityId).toBe('1');
    const lister = await system.token({ organizationId, permissions: ['AuditList'] });
    const refused = await graphql(system.client('gateway'), lister, '{ auditEntry(id: 1) { entityId } }');
    expect(refused.body.errors![0]!.extensions.code).toBe('FORBIDDEN');
  });
});

describe("decision Gateway/Playground: the operator's playground works with no internet access", () => {
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

describe('spec 5.11 through the audit subgraph: global entries need AuditGlobalList, their state AuditGlobalRead', () => {
  interface Entry {
    id: number;
    organizationId: string;
    afterState: string | null;
    stateWithheld: boolean;
  }
  /** The answer to a query asked in this organization with exactly these permissions. */
  const ask = async <T>(
    inOrganization: string,
    permissions: PermissionName[],
    query: string,
  ): Promise<GraphQLAnswer<T>> => {
    const token = await system.token({ organizationId: inOrganization, permissions });
    return (await graphql<T>(system.client('gateway'), token, query)).body;
  };
  const list = '{ auditEntries(take: 10) { total items { id organizationId afterState stateWithheld } } }';

  it('AuditList alone lists only the organization; AuditGlobalList widens the list to global entries', async () => {
    const own = await ask<{ auditEntries: { total: number; items: Entry[] } }>(
      organizationId,
      ['AuditList'],
      list,
    );
    expect(own.data!.auditEntries.items.map((e) => e.organizationId)).toEqual([organizationId]);
    const widened = await ask<{ auditEntries: { total: number; items: Entry[] } }>(
      organizationId,
      ['AuditList', 'AuditGlobalList'],
      list,
    );
    expect(widened.data!.auditEntries.total).toBe(2);
    expect(new Set(widened.data!.auditEntries.items.map((e) => e.organizationId))).toEqual(
      new Set([organizationId, GLOBAL_ORGANIZATION_ID]),
    );
  });

  it("withholds a global entry's state without AuditGlobalRead, and shows it with it", async () => {
    const global = (page: { auditEntries: { items: Entry[] } }) =>
      page.auditEntries.items.find((e) => e.organizationId === GLOBAL_ORGANIZATION_ID);
    const withheld = await ask<{ auditEntries: { items: Entry[] } }>(
      organizationId,
      ['AuditList', 'AuditRead', 'AuditGlobalList'],
      list,
    );
    expect(global(withheld.data!)).toMatchObject({ afterState: null, stateWithheld: true });
    const shown = await ask<{ auditEntries: { items: Entry[] } }>(
      organizationId,
      ['AuditList', 'AuditRead', 'AuditGlobalList', 'AuditGlobalRead'],
      list,
    );
    expect(global(shown.data!)).toMatchObject({ afterState: '{"kid":"key-1"}', stateWithheld: false });
  });

  it('auditEntry answers a global id to a holder of AuditGlobalList, and NOT_FOUND without it', async () => {
    const stranger = randomUUID();
    const read = (permissions: PermissionName[]) =>
      ask<{ auditEntry: Entry }>(
        stranger,
        permissions,
        '{ auditEntry(id: 1) { id organizationId afterState stateWithheld } }',
      );
    const found = await read(['AuditList', 'AuditRead', 'AuditGlobalList']);
    expect(found.data!.auditEntry).toMatchObject({
      id: 1,
      organizationId: GLOBAL_ORGANIZATION_ID,
      stateWithheld: true,
    });
    const refused = await read(['AuditList', 'AuditRead']);
    expect(refused.errors![0]!.extensions.code).toBe('NOT_FOUND');
  });
});
