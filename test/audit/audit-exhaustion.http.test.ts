import { MAX_POSTGRES_INTEGER } from '../../platform/db/postgres-integer.js';
import { eventually } from '../support/eventually.js';
import { graphqlData } from '../support/graphql.js';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  administratorToken,
  createGroup,
  createOrganization,
  createUser,
  expectStatus,
} from '../support/factories.js';
import { auditEntries, conditionsAbout, writeEntry } from '../support/audit-log.js';

/**
 * issue 8.2 / decisions "Ids and versions": a member with no permission at all writes whatever
 * POST / lets anyone write, aiming at the organization's id counter and at an entity's versions;
 * the organization's own operation entries are stored after it all, and read through REST and
 * the gateway.
 */

let system: TestSystem;
let account: HttpClient;
let audit: HttpClient;
let organizationId: string;
let member: string;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit', 'gateway'] });
  account = system.client('account');
  audit = system.client('audit');
  organizationId = (await createOrganization(system, 'Exhaustion Org')).id;
  member = await system.token({ organizationId, permissions: [] });
});

afterAll(() => system.stop());

describe('issue 8.2: the audit log keeps recording after any sequence of audit writes a member can make', () => {
  it("stores the organization's user and group changes after writes aimed at its ids and an entity's versions", async () => {
    const group = await createGroup(system, organizationId, { name: 'Targets' });
    const [created] = await eventually(async () => {
      const found = await auditEntries(system, organizationId, conditionsAbout('Group', group.id, 'Create'));
      expect(found).toHaveLength(1);
      return found;
    });

    // The id counter: the largest id at all is refused; the largest a writer may name freely is taken.
    expect(
      (
        await audit.post('/', {
          token: member,
          body: { id: Number.MAX_SAFE_INTEGER, entryType: 'X', action: 'Create' },
        })
      ).status,
    ).toBe(400);
    await writeEntry(audit, member, { id: MAX_POSTGRES_INTEGER, entryType: 'X', action: 'Create' });
    // The group's versions: its id at the highest version a writer may name, and a look-alike entry.
    await writeEntry(audit, member, {
      id: created!.id,
      version: MAX_POSTGRES_INTEGER,
      entryType: 'Group',
      action: 'Update',
    });
    await writeEntry(audit, member, {
      entryType: 'Group',
      action: 'Update',
      entityName: 'Group',
      entityId: String(group.id),
      version: MAX_POSTGRES_INTEGER,
    });
    // A state of a megabyte.
    expect(
      (
        await audit.post('/', {
          token: member,
          body: { entryType: 'X', action: 'Create', afterState: 'x'.repeat(1_000_000) },
        })
      ).status,
    ).toBe(400);

    const admin = await administratorToken(system, organizationId);
    await expectStatus(
      account.put(`/groups/${group.id}`, { token: admin, body: { name: 'Still audited' } }),
      200,
    );
    const user = await createUser(system, organizationId, { name: 'Newcomer' });

    const groupUpdate = await eventually(async () => {
      const found = await auditEntries(system, organizationId, conditionsAbout('Group', group.id, 'Update'));
      const fromService = found.filter((entry) => entry.afterState?.includes('Still audited'));
      expect(fromService).toHaveLength(1);
      return fromService[0]!;
    });
    expect(groupUpdate).toMatchObject({ id: created!.id, version: MAX_POSTGRES_INTEGER + 1 });
    const userCreate = await eventually(async () => {
      const found = await auditEntries(system, organizationId, conditionsAbout('User', user.id, 'Create'));
      expect(found).toHaveLength(1);
      return found[0]!;
    });
    expect(userCreate.id).toBeGreaterThan(MAX_POSTGRES_INTEGER);

    const reader = await system.token({ organizationId, permissions: ['AuditList', 'AuditRead'] });
    const read = await graphqlData<{ auditEntry: { id: number; version: number; entityId: string } }>(
      system.client('gateway'),
      reader,
      'query ($id: SafeInt!) { auditEntry(id: $id) { id version entityId } }',
      { id: created!.id },
    );
    expect(read.auditEntry).toEqual({
      id: created!.id,
      version: MAX_POSTGRES_INTEGER + 1,
      entityId: String(group.id),
    });
  });
});
