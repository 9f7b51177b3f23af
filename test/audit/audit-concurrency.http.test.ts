import { randomUUID } from 'node:crypto';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { writeEntry, type AuditPage } from '../support/audit-log.js';

let system: TestSystem;
let audit: HttpClient;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['audit'] });
  audit = system.client('audit');
});

afterAll(() => system.stop());

describe('spec 2 Audit entry: concurrent writers of one organization never share an id or a version', () => {
  it('30 writes at once without an id get 30 distinct, consecutive ids', async () => {
    const writer = await system.token({ organizationId: randomUUID(), permissions: [] });
    const stored = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        writeEntry(audit, writer, { entryType: 'Tag', action: 'Create', entityId: String(n) }),
      ),
    );
    expect(stored.map((e) => e.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, n) => n + 1),
    );
    expect(stored.every((e) => e.version === 1)).toBe(true);
  });

  it('spec 9.2: 10 writes at once of one existing id get 10 distinct versions after the first', async () => {
    const writer = await system.token({ organizationId: randomUUID(), permissions: [] });
    const created = await writeEntry(audit, writer, { entryType: 'Tag', action: 'Create' });
    const stored = await Promise.all(
      Array.from({ length: 10 }, () =>
        writeEntry(audit, writer, { id: created.id, entryType: 'Tag', action: 'Update' }),
      ),
    );
    expect(stored.every((e) => e.id === created.id)).toBe(true);
    expect(stored.map((e) => e.version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, n) => n + 2),
    );
  });
});

describe('spec 4.4: the total of a list counts exactly the entries its pages hold, even while entries are written', () => {
  it('a page of everything has as many items as its total, with writes racing the reads', async () => {
    const organizationId = randomUUID();
    const writer = await system.token({ organizationId, permissions: [] });
    const reader = await system.token({ organizationId, permissions: ['AuditList'] });
    const pages: AuditPage[] = [];
    for (let round = 0; round < 15; round++) {
      const writes = Array.from({ length: 6 }, () =>
        writeEntry(audit, writer, { entryType: 'Tag', action: 'Create' }),
      );
      const reads = Array.from({ length: 6 }, async () => {
        const response = await audit.get<AuditPage>('/?take=1000', { token: reader });
        pages.push(response.body);
      });
      await Promise.all([...writes, ...reads]);
    }
    expect(pages.filter((page) => page.items.length !== page.total)).toEqual([]);
  });
});
