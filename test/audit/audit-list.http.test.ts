import { randomUUID } from 'node:crypto';
import { AUDIT_FIELDS, type AuditField } from '../../subgraphs/audit/domain/audit-fields.js';
import { GLOBAL_ORGANIZATION_ID } from '../../subgraphs/audit/domain/audit-visibility.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import type { HttpClient } from '../support/http-client.js';
import { writeEntry, type AuditPage } from '../support/audit-log.js';

let system: TestSystem;
let audit: HttpClient;
let writer: string;
let reader: string;
const organizationId = randomUUID();

beforeAll(async () => {
  system = await startTestSystem({ processes: ['audit'] });
  audit = system.client('audit');
  writer = await system.token({ organizationId, permissions: [] });
  reader = await system.token({ organizationId, permissions: ['AuditList', 'AuditRead'] });
  // Twelve entries, a second apart, so LoggedAt orders them as written.
  for (let n = 1; n <= 12; n++) {
    await writeEntry(audit, writer, {
      entryType: n % 2 === 0 ? 'TagGroup' : 'Variable',
      action: 'Create',
      entityName: n <= 6 ? `Region${n}` : `Environment${n}`,
      entityId: String(100 + n),
      version: 1,
      afterState: { n },
    });
    system.clock.advance(1_000);
  }
});

afterAll(() => system.stop());

describe('spec 4.4 / 8 Limits: GET / defaults to take 10, skip 0, sortField LoggedAt, ascending', () => {
  it('answers the first ten of twelve, oldest first, with the total counted before paging', async () => {
    const response = await audit.get<AuditPage>('/', { token: reader });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(12);
    expect(response.body.items).toHaveLength(10);
    expect(response.body.items.map((e) => e.entityId)).toEqual([
      '101',
      '102',
      '103',
      '104',
      '105',
      '106',
      '107',
      '108',
      '109',
      '110',
    ]);
  });
});

describe('spec 4.4: GET / honours take, skip, sortField and sortDescending', () => {
  it('pages from skip and keeps the total of every match', async () => {
    const response = await audit.get<AuditPage>('/?take=3&skip=10', { token: reader });
    expect(response.body.total).toBe(12);
    expect(response.body.items.map((e) => e.entityId)).toEqual(['111', '112']);
  });

  it('sorts descending by LoggedAt', async () => {
    const response = await audit.get<AuditPage>('/?take=2&sortDescending=true', { token: reader });
    expect(response.body.items.map((e) => e.entityId)).toEqual(['112', '111']);
  });

  it('sorts by another field, named without regard to case', async () => {
    const response = await audit.get<AuditPage>('/?take=12&sortField=entityName', { token: reader });
    const names = response.body.items.map((e) => e.entityName);
    expect(names).toEqual([...names].sort());
  });

  it('take=0 answers only the total', async () => {
    const response = await audit.get<AuditPage>('/?take=0', { token: reader });
    expect(response.body).toEqual({ total: 12, items: [] });
  });
});

describe('spec 4.4: sortField orders by the field named, not by LoggedAt or id', () => {
  const sortOrganization = randomUUID();
  let sortReader: string;
  // Written in this order, a second apart: for every field but LoggedAt, the field's order differs from it.
  const entries = [
    { label: 'first', id: 30, version: 3, text: 'SortB', accountId: '30000000-0000-4000-8000-000000000000' },
    { label: 'second', id: 10, version: 1, text: 'SortC', accountId: '10000000-0000-4000-8000-000000000000' },
    { label: 'third', id: 20, version: 2, text: 'SortA', accountId: '20000000-0000-4000-8000-000000000000' },
  ];
  const expected: Record<Exclude<AuditField, 'OrganizationId'>, string[]> = {
    LoggedAt: ['first', 'second', 'third'],
    Id: ['second', 'third', 'first'],
    Version: ['second', 'third', 'first'],
    LoggedBy: ['second', 'third', 'first'],
    EntryType: ['third', 'first', 'second'],
    Action: ['third', 'first', 'second'],
    EntityName: ['third', 'first', 'second'],
    EntityId: ['third', 'first', 'second'],
  };
  const sorted = async (query: string, token = sortReader) => {
    const response = await audit.get<AuditPage>(`/?take=100&${query}`, { token });
    expect(response.status).toBe(200);
    return response.body.items.map((e) =>
      e.organizationId === GLOBAL_ORGANIZATION_ID ? 'global' : e.afterState,
    );
  };

  beforeAll(async () => {
    sortReader = await system.token({
      organizationId: sortOrganization,
      permissions: ['AuditList', 'AuditRead'],
    });
    for (const entry of entries) {
      const entryWriter = await system.token({
        organizationId: sortOrganization,
        accountId: entry.accountId,
        permissions: [],
      });
      await writeEntry(audit, entryWriter, {
        id: entry.id,
        version: entry.version,
        entryType: entry.text,
        action: entry.text,
        entityName: entry.text,
        entityId: entry.text,
        afterState: entry.label,
      });
      system.clock.advance(1_000);
    }
    // A global entry, written last: first by OrganizationId (the nil UUID), last by LoggedAt.
    await writeEntry(audit, undefined, { entryType: 'JWK', action: 'Sign', afterState: 'global' });
  });

  it('knows every field of the list', () => {
    expect([...Object.keys(expected), 'OrganizationId'].sort()).toEqual([...AUDIT_FIELDS].sort());
  });

  it.each(Object.entries(expected))('sortField=%s orders the entries by it', async (field, order) => {
    expect(await sorted(`sortField=${field}`)).toEqual(order);
  });

  it('sortField=OrganizationId puts the global entries (the nil UUID) first', async () => {
    const globalReader = await system.token({
      organizationId: sortOrganization,
      permissions: ['AuditList', 'AuditRead', 'AuditGlobalList', 'AuditGlobalRead'],
    });
    expect(await sorted('sortField=OrganizationId', globalReader)).toEqual([
      'global',
      'second',
      'third',
      'first',
    ]);
    expect(await sorted('sortField=LoggedAt', globalReader)).toEqual(['first', 'second', 'third', 'global']);
  });

  it('sortDescending reverses a field other than LoggedAt', async () => {
    expect(await sorted('sortField=Id&sortDescending=true')).toEqual(['first', 'third', 'second']);
    expect(await sorted('sortField=entryType&sortDescending=true')).toEqual(['second', 'first', 'third']);
  });
});

describe('spec 7 (400 names the field): bad paging parameters are refused', () => {
  it.each([
    ['take=abc', 'query.take'],
    ['take=-1', 'query.take'],
    ['take=1001', 'query.take'],
    ['skip=1.5', 'query.skip'],
    ['sortField=Colour', 'query.sortField'],
    ['sortDescending=maybe', 'query.sortDescending'],
  ])('%s is 400 naming %s', async (query, field) => {
    const response = await audit.get<{ errors: { field: string }[]; status: number }>(`/?${query}`, {
      token: reader,
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(response.body.errors.map((e) => e.field)).toContain(field);
  });
});

describe('spec 4.4: POST /filter AND-s its conditions, eq exact and contains substring, values as text', () => {
  const filter = (conditions: unknown, query = '') =>
    audit.post<AuditPage>(`/filter?take=100${query}`, { token: reader, body: conditions });

  it('eq matches the exact text', async () => {
    const response = await filter([{ field: 'EntryType', operatorType: 'eq', value: 'TagGroup' }]);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(6);
    expect(response.body.items.every((e) => e.entryType === 'TagGroup')).toBe(true);
  });

  it('eq is exact: a part of the text matches nothing', async () => {
    const response = await filter([{ field: 'EntryType', operatorType: 'eq', value: 'Tag' }]);
    expect(response.body.total).toBe(0);
  });

  it('contains matches a substring', async () => {
    const response = await filter([{ field: 'EntityName', operatorType: 'contains', value: 'Region' }]);
    expect(response.body.total).toBe(6);
  });

  it('conditions are AND-ed', async () => {
    const response = await filter([
      { field: 'EntityName', operatorType: 'contains', value: 'Region' },
      { field: 'EntryType', operatorType: 'eq', value: 'Variable' },
    ]);
    expect(response.body.items.map((e) => e.entityName)).toEqual(['Region1', 'Region3', 'Region5']);
  });

  it('numbers are compared as text: Id eq 3 and Id eq "3" find the same entry', async () => {
    const asNumber = await filter([{ field: 'Id', operatorType: 'eq', value: 3 }]);
    const asText = await filter([{ field: 'id', operatorType: 'eq', value: '3' }]);
    expect(asNumber.body.total).toBe(1);
    expect(asText.body.items).toEqual(asNumber.body.items);
  });

  it('a condition with no value narrows nothing', async () => {
    const response = await filter([
      { field: 'EntryType', operatorType: 'eq' },
      { field: 'EntityName', operatorType: 'contains', value: null },
      { field: 'EntityId', operatorType: 'eq', value: '' },
    ]);
    expect(response.body.total).toBe(12);
  });

  it('takes the same paging and sorting parameters as GET /', async () => {
    const response = await audit.post<AuditPage>('/filter?take=2&skip=1&sortDescending=true', {
      token: reader,
      body: [{ field: 'EntryType', operatorType: 'eq', value: 'Variable' }],
    });
    expect(response.body.total).toBe(6);
    expect(response.body.items.map((e) => e.entityId)).toEqual(['109', '107']);
  });

  it('an unrecognised field is 400 naming it', async () => {
    const response = await filter([{ field: 'Colour', operatorType: 'eq', value: 'red' }]);
    expect(response.status).toBe(400);
    expect(response.text).toContain('body[0].field');
    expect(response.text).toContain('Colour');
  });

  it('an unrecognised operator is 400 naming it', async () => {
    const response = await filter([
      { field: 'EntryType', operatorType: 'eq', value: 'Tag' },
      { field: 'EntryType', operatorType: 'startsWith', value: 'Tag' },
    ]);
    expect(response.status).toBe(400);
    expect(response.text).toContain('body[1].operatorType');
  });

  it('the states cannot be filtered on (they may be withheld from the caller)', async () => {
    const response = await filter([{ field: 'AfterState', operatorType: 'contains', value: 'n' }]);
    expect(response.status).toBe(400);
  });

  it('contains ignores case: "rEGION" finds the Region entries', async () => {
    const response = await filter([{ field: 'EntityName', operatorType: 'contains', value: 'rEGION' }]);
    expect(response.body.total).toBe(6);
    expect(response.body.items.every((e) => e.entityName.startsWith('Region'))).toBe(true);
  });

  it('eq keeps case: "tagGroup" finds nothing', async () => {
    const response = await filter([{ field: 'EntryType', operatorType: 'eq', value: 'tagGroup' }]);
    expect(response.body.total).toBe(0);
  });

  it('a missing body is no conditions', async () => {
    const response = await audit.post<AuditPage>('/filter?take=0', { token: reader });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(12);
  });

  it.each([
    [{ text: 'Region' }, 'body[1].value'],
    [['Region'], 'body[1].value'],
  ])('a value that is an object or array (%j) is 400 naming %s', async (value, field) => {
    const response = await filter([
      { field: 'EntryType', operatorType: 'eq', value: 'TagGroup' },
      { field: 'EntityName', operatorType: 'contains', value },
    ]);
    expect(response.status).toBe(400);
    expect(response.text).toContain(field);
  });

  it('is 401 without a token', async () => {
    const response = await audit.post('/filter', { body: [] });
    expect(response.status).toBe(401);
  });

  it('is 403 without AuditList', async () => {
    const response = await audit.post('/filter', {
      token: await system.token({ organizationId, permissions: ['AuditRead', 'AuditGlobalList'] }),
      body: [],
    });
    expect(response.status).toBe(403);
  });

  it('a body that is not an array is 400', async () => {
    const response = await filter({ field: 'EntryType', operatorType: 'eq', value: 'Tag' });
    expect(response.status).toBe(400);
  });
});
