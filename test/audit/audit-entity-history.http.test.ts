import { randomUUID } from 'node:crypto';
import type { AuditEntryView } from '../../subgraphs/audit/audit.schemas.js';
import { eventually } from '../support/eventually.js';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { administratorToken, createGroup, createOrganization, expectStatus } from '../support/factories.js';
import { writeEntry, type AuditPage } from '../support/audit-log.js';

let system: TestSystem;
let account: HttpClient;
let audit: HttpClient;
let organizationId: string;
let admin: string;
let auditor: string;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit'] });
  account = system.client('account');
  audit = system.client('audit');
  organizationId = (await createOrganization(system, 'History Org')).id;
  admin = await administratorToken(system, organizationId);
  auditor = await system.token({ organizationId, permissions: ['AuditList', 'AuditRead', 'AuditDelete'] });
});

afterAll(() => system.stop());

/** The entries of one group, oldest version first, once `count` of them have arrived from the queue. */
async function groupEntries(groupId: number, count: number): Promise<AuditEntryView[]> {
  return eventually(async () => {
    const response = await audit.post<AuditPage>('/filter?take=100&sortField=Version', {
      token: auditor,
      body: [
        { field: 'EntityName', operatorType: 'eq', value: 'Group' },
        { field: 'EntityId', operatorType: 'eq', value: String(groupId) },
      ],
    });
    expect(response.body.total).toBe(count);
    return response.body.items;
  });
}

describe("spec 9.2: audit entries of one entity share an id and differ by version; DELETE /{id} removes the entity's history", () => {
  let history: AuditEntryView[];
  let otherGroupId: number;

  beforeAll(async () => {
    const groupId = (await createGroup(system, organizationId, { name: 'Deployers' })).id;
    otherGroupId = (await createGroup(system, organizationId, { name: 'Readers' })).id;
    await expectStatus(account.put(`/groups/${groupId}`, { token: admin, body: { name: 'Shippers' } }), 200);
    await expectStatus(account.delete(`/groups/${groupId}`, { token: admin }), 200);
    history = await groupEntries(groupId, 3);
  });

  it("the account service's Create, Update and Delete of a group share one id, with rising versions", () => {
    expect(history.map((e) => e.action)).toEqual(['Create', 'Update', 'Delete']);
    expect(new Set(history.map((e) => e.id)).size).toBe(1);
    expect(history.map((e) => e.version)).toEqual([1, 2, 3]);
  });

  it("another group's entries have an id of their own", async () => {
    const [other] = await groupEntries(otherGroupId, 1);
    expect(other!.id).not.toBe(history[0]!.id);
  });

  it('GET /{id} answers the latest version: the Delete', async () => {
    const latest = await audit.get<AuditEntryView>(`/${history[0]!.id}`, { token: auditor });
    expect(latest.body).toMatchObject({ action: 'Delete', version: 3 });
  });

  it("DELETE /{id} removes all three, and leaves the other group's entries", async () => {
    const response = await audit.delete<AuditPage>(`/${history[0]!.id}`, { token: auditor });
    expect(response.status).toBe(200);
    expect(response.body.items.map((e) => e.action)).toEqual(['Create', 'Update', 'Delete']);
    await groupEntries(Number(history[0]!.entityId), 0);
    await groupEntries(otherGroupId, 1);
  });
});

describe('spec 4.4 write rule: POST / without an id is the next id, even for an entity already written', () => {
  it('two writes of one entity without an id get two ids; naming the id adds a version of it', async () => {
    const writer = await system.token({ organizationId: randomUUID(), permissions: [] });
    const entity = { entryType: 'Tag', entityName: 'Tag', entityId: '12' };
    const first = await writeEntry(audit, writer, { ...entity, action: 'Create' });
    const second = await writeEntry(audit, writer, { ...entity, action: 'Update' });
    const third = await writeEntry(audit, writer, { ...entity, id: first.id, action: 'Delete' });
    expect([first.id, second.id, third.id]).toEqual([1, 2, 1]);
    expect(third.version).toBe(2);
  });
});
