import { graphql } from '../support/graphql.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { createOrganization } from '../support/factories.js';
import { writeEntry } from '../support/audit-log.js';

let system: TestSystem;
let organization: { id: string; name: string };

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit', 'gateway'] });
  const name = 'Referenced Org';
  organization = { id: (await createOrganization(system, name)).id, name };
  const audit = system.client('audit');
  await writeEntry(audit, await system.token({ organizationId: organization.id, permissions: [] }), {
    entryType: 'Tag',
    action: 'Create',
    entityName: 'Tag',
    entityId: 'referenced',
  });
  await writeEntry(audit, undefined, {
    entryType: 'JWK',
    action: 'Sign',
    entityName: 'SigningKey',
    entityId: 'k',
  });
});

afterAll(() => system.stop());

interface Answer {
  auditEntries: {
    items: {
      entityId: string;
      organizationId: string;
      organization: { id: string; name: string } | null;
    }[];
  };
}

const query = `
  query ($conditions: [AuditCondition!]) {
    auditEntries(take: 10, conditions: $conditions) {
      items { entityId organizationId organization { id name } }
    }
  }
`;

describe("spec 2 Audit entry / 5.11 through the gateway: an entry's organization resolves from the account subgraph in the same query", () => {
  it("answers the caller's own organization, id and name, for its entry", async () => {
    const token = await system.token({ organizationId: organization.id, permissions: ['AuditList'] });
    const response = await graphql<Answer>(system.client('gateway'), token, query, {
      conditions: [{ field: 'EntityId', operatorType: 'eq', value: 'referenced' }],
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.auditEntries.items).toEqual([
      { entityId: 'referenced', organizationId: organization.id, organization },
    ]);
  });

  it('answers null for a global entry, which belongs to no organization', async () => {
    const token = await system.token({
      organizationId: organization.id,
      permissions: ['AuditList', 'AuditGlobalList'],
    });
    const response = await graphql<Answer>(system.client('gateway'), token, query, {
      conditions: [{ field: 'EntryType', operatorType: 'eq', value: 'JWK' }],
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data!.auditEntries.items).toEqual([
      { entityId: 'k', organizationId: '00000000-0000-0000-0000-000000000000', organization: null },
    ]);
  });
});
