import { randomUUID } from 'node:crypto';
import type { HttpClient } from '../support/http-client.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { writeEntry } from '../support/audit-log.js';

let system: TestSystem;
let audit: HttpClient;
let token: string;
const organizationId = randomUUID();

beforeAll(async () => {
  system = await startTestSystem({ processes: ['audit'] });
  audit = system.client('audit');
  token = await system.token({ organizationId, permissions: ['AuditList', 'AuditRead'] });
  for (let n = 1; n <= 11; n++) {
    await writeEntry(audit, token, {
      entryType: 'Tag',
      action: 'Create',
      entityName: 'Tag',
      entityId: `${n}`,
    });
  }
});

afterAll(() => system.stop());

describe('CONTRACT 7 / issue 2 request validation: integers in the query and path are decimal digits only (docs/decisions.md)', () => {
  it.each(['0x10', '1e2', '%201', '1.0', '+5', 'true'])(
    'GET /?take=%s is 400 naming query.take',
    async (take) => {
      const response = await audit.get<Problem>(`/?take=${take}`, { token });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ field: 'query.take', message: 'must be an integer' }]);
    },
  );

  it('GET /?take=5 reads 5', async () => {
    const response = await audit.get<{ total: number; items: unknown[] }>('/?take=5', { token });
    expect(response.status).toBe(200);
    expect(response.body.items).toHaveLength(5);
  });

  it('GET /?take= (empty) is the same as no take: the default of 10 applies, not 0', async () => {
    const response = await audit.get<{ total: number; items: unknown[] }>('/?take=&skip=', { token });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(11);
    expect(response.body.items).toHaveLength(10);
  });

  it('GET /1.0 is 400 naming path.id, not entry 1', async () => {
    const response = await audit.get<Problem>('/1.0', { token });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'path.id', message: 'must be an integer' }]);
  });

  it('GET /0x1 is 400; GET /1 reads entry 1', async () => {
    expect((await audit.get('/0x1', { token })).status).toBe(400);
    const one = await audit.get<{ id: number }>('/1', { token });
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(1);
  });

  it('GET /1?version=1e0 is 400 naming query.version', async () => {
    const response = await audit.get<Problem>('/1?version=1e0', { token });
    expect(response.status).toBe(400);
    expect(response.body.errors![0]!.field).toBe('query.version');
  });
});

describe('CONTRACT 7 / issue 2 request validation: a body that is not JSON is 415, naming the type expected', () => {
  it('POST /filter with text/plain is a 415 problem, not treated as no body', async () => {
    const response = await audit.post<Problem>('/filter', {
      token,
      body: '[{"field":"EntityId","operatorType":"eq","value":"3"}]',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 415, title: 'Unsupported media type' });
    expect(response.body.detail).toContain('application/json');
    expect(response.body.detail).toContain('text/plain');
  });

  it('POST /filter with application/json; charset=utf-8 is read', async () => {
    const response = await audit.post<{ total: number }>('/filter', {
      token,
      body: [{ field: 'EntityId', operatorType: 'eq', value: '3' }],
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(1);
  });

  it('POST /filter with no body at all is still no conditions (decision "Filtering and sorting")', async () => {
    const response = await audit.post<{ total: number }>('/filter', { token });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(11);
  });

  it.each(['application/json', 'text/plain'])(
    'POST /filter with an empty body sent as %s is no body, so no conditions (decision "Errors": an empty body is no body)',
    async (contentType) => {
      const response = await audit.post<{ total: number }>('/filter', {
        token,
        body: '',
        headers: { 'content-type': contentType },
      });
      expect(response.status).toBe(200);
      expect(response.body.total).toBe(11);
    },
  );
});

describe('CONTRACT 7 / issue 2 request validation: valid JSON of the wrong shape is a 400 naming the body, not "not valid JSON"', () => {
  it.each(['null', '"abc"', '42'])('POST /filter with %s', async (json) => {
    const response = await audit.post<Problem>('/filter', { token, body: json });
    expect(response.status).toBe(400);
    expect(response.body.detail).not.toContain('not valid JSON');
    expect(response.body.errors!.map((e) => e.field)).toEqual(['body']);
  });

  it('POST / with null', async () => {
    const response = await audit.post<Problem>('/', { token, body: 'null' });
    expect(response.status).toBe(400);
    expect(response.body.errors!.map((e) => e.field)).toEqual(['body']);
  });

  it('broken JSON is still "not valid JSON"', async () => {
    const response = await audit.post<Problem>('/filter', { token, body: '[{' });
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe('The request body is not valid JSON.');
  });
});
