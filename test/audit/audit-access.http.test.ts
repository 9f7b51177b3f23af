import { randomUUID } from 'node:crypto';
import type { AuditEntryView } from '../../subgraphs/audit/audit.schemas.js';
import { GLOBAL_ORGANIZATION_ID } from '../../subgraphs/audit/domain/audit-visibility.js';
import { MAX_POSTGRES_INTEGER } from '../../platform/db/postgres-integer.js';
import { AUDIT_STATE_MAX } from '../../subgraphs/audit/audit.schemas.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import type { HttpClient } from '../support/http-client.js';
import { writeEntry, type AuditPage } from '../support/audit-log.js';

let system: TestSystem;
let audit: HttpClient;
const ours = randomUUID();
const theirs = randomUUID();
const token = (permissions: Parameters<TestSystem['token']>[0]['permissions'], organizationId = ours) =>
  system.token({ organizationId, permissions });

let ownEntry: AuditEntryView;
let globalEntry: AuditEntryView;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['audit'] });
  audit = system.client('audit');
  ownEntry = await writeEntry(audit, await token([]), {
    entryType: 'TagGroup',
    action: 'Update',
    entityName: 'TagGroup',
    entityId: '7',
    version: 2,
    beforeState: '{"name":"Env"}',
    afterState: '{"name":"Environment"}',
  });
  await writeEntry(audit, await token([], theirs), {
    entryType: 'TagGroup',
    action: 'Create',
    entityName: 'TagGroup',
    entityId: '9',
    afterState: '{"name":"Secret plans"}',
  });
  globalEntry = await writeEntry(audit, undefined, {
    entryType: 'FailedLogin',
    action: 'Denied',
    entityName: 'User',
    entityId: 'someone@example.com',
    afterState: '{"reason":"unknown"}',
  });
});

afterAll(() => system.stop());

describe('spec 4.4: GET /{id} needs AuditRead, which depends on AuditList', () => {
  it('answers the entry with its state to a holder of AuditList and AuditRead', async () => {
    const response = await audit.get<AuditEntryView>(`/${ownEntry.id}`, {
      token: await token(['AuditList', 'AuditRead']),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: ownEntry.id,
      organizationId: ours,
      beforeState: '{"name":"Env"}',
      afterState: '{"name":"Environment"}',
      stateWithheld: false,
    });
  });

  it('is 403 with AuditList alone', async () => {
    const response = await audit.get(`/${ownEntry.id}`, { token: await token(['AuditList']) });
    expect(response.status).toBe(403);
  });

  it('is 403 with AuditRead but without AuditList (a permission counts only with its dependencies)', async () => {
    const response = await audit.get(`/${ownEntry.id}`, { token: await token(['AuditRead']) });
    expect(response.status).toBe(403);
  });

  it('is 401 without a token', async () => {
    expect((await audit.get(`/${ownEntry.id}`)).status).toBe(401);
  });

  it('spec 1 tenancy 2: an id that exists only in another organization is 404, never 403', async () => {
    const owner = randomUUID();
    const stranger = randomUUID();
    for (let n = 0; n < 3; n++)
      await writeEntry(audit, await token([], owner), { entryType: 'Tag', action: 'Create' });
    await writeEntry(audit, await token([], stranger), { entryType: 'Tag', action: 'Create' });
    const response = await audit.get(`/3`, { token: await token(['AuditList', 'AuditRead'], stranger) });
    expect(response.status).toBe(404);
    const own = await audit.get(`/3`, { token: await token(['AuditList', 'AuditRead'], owner) });
    expect(own.status).toBe(200);
  });

  it('spec 5.11: the state of a global entry is withheld, not refused, without AuditGlobalRead', async () => {
    const response = await audit.get<AuditEntryView>(`/${globalEntry.id}`, {
      token: await token(['AuditList', 'AuditRead', 'AuditGlobalList'], randomUUID()),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: globalEntry.id,
      organizationId: GLOBAL_ORGANIZATION_ID,
      afterState: null,
      stateWithheld: true,
    });
  });

  it('spec 5.11: the state of a global entry is shown with AuditGlobalRead', async () => {
    const response = await audit.get<AuditEntryView>(`/${globalEntry.id}`, {
      token: await token(['AuditList', 'AuditRead', 'AuditGlobalList', 'AuditGlobalRead'], randomUUID()),
    });
    expect(response.body).toMatchObject({ afterState: '{"reason":"unknown"}', stateWithheld: false });
  });

  it('a global entry is 404 to a caller without AuditGlobalList', async () => {
    const organization = randomUUID();
    const response = await audit.get(`/${globalEntry.id}`, {
      token: await token(['AuditList', 'AuditRead'], organization),
    });
    expect(response.status).toBe(404);
  });

  it('a path id that is not a positive integer is 400 naming it', async () => {
    const response = await audit.get('/abc', { token: await token(['AuditList', 'AuditRead']) });
    expect(response.status).toBe(400);
    expect(response.text).toContain('path.id');
  });
});

describe('spec 5.11: visibility of organizational and global entries in lists', () => {
  const listAll = async (permissions: Parameters<typeof token>[0], organizationId = ours) =>
    (await audit.get<AuditPage>('/?take=1000', { token: await token(permissions, organizationId) })).body
      .items;

  it("AuditList shows the organization's entries only: never another organization's, never global ones", async () => {
    const items = await listAll(['AuditList']);
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((e) => e.organizationId === ours)).toBe(true);
  });

  it("AuditGlobalList widens the list to global entries, still never another organization's", async () => {
    const items = await listAll(['AuditList', 'AuditGlobalList']);
    const organizations = new Set(items.map((e) => e.organizationId));
    expect(organizations).toEqual(new Set([ours, GLOBAL_ORGANIZATION_ID]));
  });

  it('AuditGlobalList without AuditList lists nothing (403): it widens AuditList, it does not replace it', async () => {
    const response = await audit.get('/', { token: await token(['AuditGlobalList']) });
    expect(response.status).toBe(403);
  });

  it('a page lists an entry and withholds its state without AuditRead', async () => {
    const item = (await listAll(['AuditList'])).find(
      (e) => e.id === ownEntry.id && e.version === ownEntry.version,
    )!;
    expect(item).toMatchObject({
      beforeState: null,
      afterState: null,
      stateWithheld: true,
      entryType: 'TagGroup',
    });
  });

  it('with AuditRead, own states show; global states stay withheld without AuditGlobalRead', async () => {
    const items = await listAll(['AuditList', 'AuditRead', 'AuditGlobalList']);
    const own = items.find((e) => e.organizationId === ours && e.id === ownEntry.id)!;
    const global = items.find((e) => e.organizationId === GLOBAL_ORGANIZATION_ID && e.id === globalEntry.id)!;
    expect(own.afterState).toBe('{"name":"Environment"}');
    expect(global).toMatchObject({ afterState: null, stateWithheld: true });
  });

  it('spec 7: the 403 does not name the missing permission', async () => {
    const response = await audit.get<{ detail: string; title: string }>('/', {
      token: await token(['UserList']),
    });
    expect(response.status).toBe(403);
    expect(response.text).not.toMatch(/Audit(List|Read)/);
  });
});

describe('spec 4.4 write rule: POST / with and without a session token', () => {
  it('with a token, organizationId and loggedBy come from the token, not the body', async () => {
    const accountId = randomUUID();
    const writer = await system.token({ organizationId: ours, accountId, permissions: [] });
    const stored = await writeEntry(audit, writer, {
      entryType: 'Variable',
      action: 'Create',
      entityName: 'Variable',
      entityId: '1',
      organizationId: theirs,
      loggedBy: randomUUID(),
    });
    expect(stored).toMatchObject({ organizationId: ours, loggedBy: accountId });
  });

  it('with a token, any entry type is accepted', async () => {
    const response = await audit.post('/', {
      token: await token([]),
      body: { entryType: 'Whatever', action: 'Create' },
    });
    expect(response.status).toBe(200);
  });

  it.each(['FailedLogin', 'Authentication', 'JWT', 'JWK'])(
    'without a token, the default allow-listed type %s is accepted as a global entry',
    async (entryType) => {
      const stored = await writeEntry(audit, undefined, { entryType, action: 'Create' });
      expect(stored.organizationId).toBe(GLOBAL_ORGANIZATION_ID);
      expect(stored.loggedBy).toBe(GLOBAL_ORGANIZATION_ID);
    },
  );

  it('spec 5.11: an anonymous allow-listed write is a global entry, listed to holders of AuditGlobalList', async () => {
    const stored = await writeEntry(audit, undefined, {
      entryType: 'Authentication',
      action: 'Denied',
      entityName: 'User',
      entityId: `anonymous-${randomUUID()}@example.com`,
    });
    const listed = await audit.post<AuditPage>('/filter', {
      token: await token(['AuditList', 'AuditGlobalList'], randomUUID()),
      body: [{ field: 'EntityId', operatorType: 'eq', value: stored.entityId }],
    });
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: stored.id, organizationId: GLOBAL_ORGANIZATION_ID, action: 'Denied' }),
    ]);
    const withoutGlobal = await audit.post<AuditPage>('/filter', {
      token: await token(['AuditList'], randomUUID()),
      body: [{ field: 'EntityId', operatorType: 'eq', value: stored.entityId }],
    });
    expect(withoutGlobal.body.total).toBe(0);
  });

  it('without a token, another type is 401 and nothing is stored', async () => {
    const before = (
      await audit.get<AuditPage>('/?take=0', { token: await token(['AuditList', 'AuditGlobalList']) })
    ).body.total;
    const response = await audit.post('/', { body: { entryType: 'TagGroup', action: 'Delete' } });
    expect(response.status).toBe(401);
    const after = (
      await audit.get<AuditPage>('/?take=0', { token: await token(['AuditList', 'AuditGlobalList']) })
    ).body.total;
    expect(after).toBe(before);
  });

  it('a token that fails verification is treated as none: only allow-listed types are accepted', async () => {
    const response = await audit.post('/', {
      token: 'not-a-token',
      body: { entryType: 'TagGroup', action: 'Delete' },
    });
    expect(response.status).toBe(401);
    expect(
      (await audit.post('/', { token: 'not-a-token', body: { entryType: 'JWT', action: 'Create' } })).status,
    ).toBe(200);
  });

  it('the id is the next id of the organization when omitted, counted per organization', async () => {
    const organization = randomUUID();
    const writer = await token([], organization);
    const first = await writeEntry(audit, writer, { entryType: 'Tag', action: 'Create' });
    const second = await writeEntry(audit, writer, { entryType: 'Tag', action: 'Create' });
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(first.version).toBe(1);
  });

  it('spec 9.2: writing an existing id stores another version of it, never overwriting one', async () => {
    const organization = randomUUID();
    const writer = await token([], organization);
    const created = await writeEntry(audit, writer, {
      entryType: 'Tag',
      action: 'Create',
      entityId: '5',
      version: 1,
    });
    const updated = await writeEntry(audit, writer, {
      id: created.id,
      entryType: 'Tag',
      action: 'Update',
      entityId: '5',
      version: 2,
    });
    const again = await writeEntry(audit, writer, {
      id: created.id,
      entryType: 'Tag',
      action: 'Update',
      entityId: '5',
      version: 2,
    });
    expect([created.version, updated.version, again.version]).toEqual([1, 2, 3]);
    const versions = await audit.post<AuditPage>('/filter', {
      token: await token(['AuditList'], organization),
      body: [{ field: 'Id', operatorType: 'eq', value: created.id }],
    });
    expect(versions.body.total).toBe(3);
    const latest = await audit.get<AuditEntryView>(`/${created.id}`, {
      token: await token(['AuditList', 'AuditRead'], organization),
    });
    expect(latest.body.version).toBe(3);
    const second = await audit.get<AuditEntryView>(`/${created.id}?version=2`, {
      token: await token(['AuditList', 'AuditRead'], organization),
    });
    expect(second.body.action).toBe('Update');
  });

  it('an omitted id after an explicit higher one continues after it', async () => {
    const organization = randomUUID();
    const writer = await token([], organization);
    await writeEntry(audit, writer, { id: 40, entryType: 'Tag', action: 'Create' });
    const next = await writeEntry(audit, writer, { entryType: 'Tag', action: 'Create' });
    expect(next.id).toBe(41);
  });

  it('spec 2 Audit entry: an entity id or name of 320 characters (an e-mail address) is stored', async () => {
    const address = `${'a'.repeat(64)}@${'b'.repeat(251)}.com`;
    const stored = await writeEntry(audit, await token([]), {
      entryType: 'User',
      action: 'ProvisionDenied',
      entityName: address,
      entityId: address,
    });
    expect([stored.entityName.length, stored.entityId]).toEqual([320, address]);
  });

  it('decisions "Ids and versions": after id 2147483647 ids go on one at a time (bigints), and no write can skip ahead', async () => {
    const organization = randomUUID();
    const writer = await token([], organization);
    await writeEntry(audit, writer, { id: MAX_POSTGRES_INTEGER, entryType: 'Tag', action: 'Create' });
    const next = await writeEntry(audit, writer, { entryType: 'Tag', action: 'Create' });
    expect(next.id).toBe(MAX_POSTGRES_INTEGER + 1);
    const named = await writeEntry(audit, writer, { id: next.id + 1, entryType: 'Tag', action: 'Create' });
    expect(named.id).toBe(MAX_POSTGRES_INTEGER + 2);
    const skipping = await audit.post<Problem>('/', {
      token: writer,
      body: { id: Number.MAX_SAFE_INTEGER, entryType: 'Tag', action: 'Create' },
    });
    expect(skipping.status).toBe(400);
    expect(skipping.body.errors).toEqual([
      {
        field: 'body.id',
        message: `must be at most ${MAX_POSTGRES_INTEGER + 3}: an id up to ${MAX_POSTGRES_INTEGER}, one this organization has taken, or its next one`,
      },
    ]);
    const again = await writeEntry(audit, writer, {
      id: MAX_POSTGRES_INTEGER,
      entryType: 'Tag',
      action: 'Update',
    });
    expect(again.version).toBe(2);
    const read = await audit.get<AuditEntryView>(`/${named.id}`, {
      token: await token(['AuditList', 'AuditRead'], organization),
    });
    expect(read.body.id).toBe(MAX_POSTGRES_INTEGER + 2);
  });

  it('decisions "Ids and versions": another version of an id at version 2147483647 is version 2147483648', async () => {
    const writer = await token([], randomUUID());
    await writeEntry(audit, writer, {
      id: 5,
      version: MAX_POSTGRES_INTEGER,
      entryType: 'Tag',
      action: 'Create',
    });
    const next = await writeEntry(audit, writer, { id: 5, entryType: 'Tag', action: 'Update' });
    expect([next.id, next.version]).toEqual([5, MAX_POSTGRES_INTEGER + 1]);
  });

  it.each(['beforeState', 'afterState'])(
    'decisions "Writes and deletes": a %s longer than 100000 characters as text is 400 naming it; 100000 is stored',
    async (field) => {
      const writer = await token([]);
      const refused = await audit.post<Problem>('/', {
        token: writer,
        body: { entryType: 'Tag', action: 'Update', [field]: 'x'.repeat(AUDIT_STATE_MAX + 1) },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.map((error) => error.field)).toEqual([`body.${field}`]);
      const asValue = await audit.post<Problem>('/', {
        token: writer,
        body: { entryType: 'Tag', action: 'Update', [field]: { text: 'x'.repeat(AUDIT_STATE_MAX) } },
      });
      expect(asValue.status).toBe(400);
      const stored = await writeEntry(audit, writer, {
        entryType: 'Tag',
        action: 'Update',
        [field]: 'x'.repeat(AUDIT_STATE_MAX),
      });
      expect(stored.id).toBeGreaterThan(0);
    },
  );

  it('a state given as JSON is stored as its text', async () => {
    const stored = await writeEntry(audit, await token(['AuditList', 'AuditRead']), {
      entryType: 'Tag',
      action: 'Create',
      afterState: { name: 'Prod' },
    });
    expect(stored.afterState).toBe('{"name":"Prod"}');
  });

  it.each([
    [{ action: 'Create' }, 'body.entryType'],
    [{ entryType: 'Tag' }, 'body.action'],
    [{ entryType: 'x'.repeat(101), action: 'Create' }, 'body.entryType'],
    [{ entryType: 'Tag', action: 'Create', id: 0 }, 'body.id'],
    [{ entryType: 'Tag', action: 'Create', version: -1 }, 'body.version'],
    [{ entryType: 'Tag', action: 'Create', id: MAX_POSTGRES_INTEGER + 1 }, 'body.id'],
    [{ entryType: 'Tag', action: 'Create', version: MAX_POSTGRES_INTEGER + 1 }, 'body.version'],
    [{ entryType: 'Tag', action: 'Create', entityId: 'x'.repeat(501) }, 'body.entityId'],
    [{ entryType: 'Tag', action: 'Create', entityName: 'x'.repeat(501) }, 'body.entityName'],
  ])('a bad body %j is 400 naming %s', async (body, field) => {
    const response = await audit.post('/', { token: await token([]), body });
    expect(response.status).toBe(400);
    expect(response.text).toContain(field);
  });

  it('a body that is not JSON is 400 with problem details', async () => {
    const response = await audit.post<{ status: number; title: string; detail: string; type: string }>('/', {
      token: await token([]),
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400, title: 'Bad request' });
    expect(response.body.type).toBeTruthy();
  });
});

describe('spec 4.4 / 9.2: DELETE /{id} removes every version and answers what it removed', () => {
  it('needs AuditDelete', async () => {
    const entry = await writeEntry(audit, await token([]), { entryType: 'Tag', action: 'Create' });
    const response = await audit.delete(`/${entry.id}`, { token: await token(['AuditList', 'AuditRead']) });
    expect(response.status).toBe(403);
  });

  it("removes all versions of the id in the caller's organization", async () => {
    const organization = randomUUID();
    const writer = await token([], organization);
    const created = await writeEntry(audit, writer, { entryType: 'Tag', action: 'Create', afterState: '{}' });
    await writeEntry(audit, writer, {
      id: created.id,
      entryType: 'Tag',
      action: 'Update',
      beforeState: '{}',
      afterState: '{}',
    });
    const other = await writeEntry(audit, writer, { entryType: 'Tag', action: 'Create' });
    const response = await audit.delete<AuditPage>(`/${created.id}`, {
      token: await token(['AuditDelete', 'AuditList', 'AuditRead'], organization),
    });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(2);
    expect(response.body.items.map((e) => [e.id, e.version])).toEqual([
      [created.id, 1],
      [created.id, 2],
    ]);
    const left = await audit.get<AuditPage>('/?take=100', {
      token: await token(['AuditList'], organization),
    });
    expect(left.body.items.map((e) => e.id)).toEqual([other.id]);
  });

  it("never touches another organization's entry of the same id: 404", async () => {
    const first = randomUUID();
    const second = randomUUID();
    const theirsEntry = await writeEntry(audit, await token([], second), {
      entryType: 'Tag',
      action: 'Create',
    });
    const response = await audit.delete(`/${theirsEntry.id}`, { token: await token(['AuditDelete'], first) });
    expect(response.status).toBe(404);
    const still = await audit.get(`/${theirsEntry.id}`, {
      token: await token(['AuditList', 'AuditRead'], second),
    });
    expect(still.status).toBe(200);
  });

  it('is 401 without a token', async () => {
    const entry = await writeEntry(audit, await token([]), { entryType: 'Tag', action: 'Create' });
    expect((await audit.delete(`/${entry.id}`)).status).toBe(401);
  });

  it("spec 1 tenancy: when both organizations have the id, only the caller's entry of it is removed", async () => {
    const first = randomUUID();
    const second = randomUUID();
    const mine = await writeEntry(audit, await token([], first), { entryType: 'Tag', action: 'Create' });
    const theirsEntry = await writeEntry(audit, await token([], second), {
      entryType: 'Tag',
      action: 'Create',
    });
    expect(theirsEntry.id).toBe(mine.id);
    const response = await audit.delete<AuditPage>(`/${mine.id}`, {
      token: await token(['AuditDelete'], first),
    });
    expect(response.status).toBe(200);
    expect(response.body.items.map((e) => e.organizationId)).toEqual([first]);
    const reader = (organizationId: typeof first) => token(['AuditList', 'AuditRead'], organizationId);
    expect((await audit.get(`/${mine.id}`, { token: await reader(first) })).status).toBe(404);
    const survivor = await audit.get<AuditEntryView>(`/${mine.id}`, { token: await reader(second) });
    expect(survivor.body).toMatchObject({ organizationId: second, id: theirsEntry.id });
  });

  it('AuditDelete is not global: global entries cannot be deleted', async () => {
    const organization = randomUUID();
    const global = await writeEntry(audit, undefined, { entryType: 'JWK', action: 'Sign' });
    const everything = await token(
      ['AuditDelete', 'AuditList', 'AuditRead', 'AuditGlobalList', 'AuditGlobalRead', 'PermissionsAllGlobal'],
      organization,
    );
    const response = await audit.delete(`/${global.id}`, { token: everything });
    expect(response.status).toBe(404);
    const still = await audit.get<AuditEntryView>(`/${global.id}`, { token: everything });
    expect(still.body.organizationId).toBe(GLOBAL_ORGANIZATION_ID);
  });
});
