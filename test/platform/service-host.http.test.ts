import { queryDatabase } from '../support/test-database.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['audit', 'gateway'] });
});

afterAll(() => system.stop());

describe('spec 1.6: each service exposes /openapi/v1.json and /healthz/startup', () => {
  it('/healthz/startup is 200 when the database and the queue are ready', async () => {
    const response = await system
      .client('audit')
      .get<{ status: string; checks: Record<string, boolean> }>('/healthz/startup');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready', checks: { database: true, queue: true } });
  });

  it('the gateway answers its own /healthz/startup', async () => {
    expect((await system.client('gateway').get('/healthz/startup')).status).toBe(200);
  });

  it('/openapi/v1.json is an OpenAPI 3 document of every audit path, generated from the request schemas', async () => {
    const response = await system.client('audit').get<{
      openapi: string;
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown }>
      >;
      components: { schemas: Record<string, unknown> };
    }>('/openapi/v1.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\./);
    expect(Object.keys(response.body.paths).sort()).toEqual(['/', '/filter', '/{id}']);
    expect(Object.keys(response.body.paths['/']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(response.body.paths['/{id}']!).sort()).toEqual(['delete', 'get']);
    const listParameters = response.body.paths['/']!.get!.parameters!.map((p) => p.name);
    expect(listParameters).toEqual(['take', 'skip', 'sortField', 'sortDescending']);
    expect(response.body.paths['/filter']!.post!.requestBody).toBeDefined();
    expect(response.body.components.schemas).toHaveProperty('AuditEntry');
    expect(response.body.components.schemas).toHaveProperty('ProblemDetails');
    expect(JSON.stringify(response.body)).not.toContain('#/$defs/');
  });

  it('/docs serves Swagger UI from local assets only', async () => {
    const audit = system.client('audit');
    const page = await audit.get('/docs/');
    expect(page.status).toBe(200);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      expect((await audit.get(`/docs/${asset}`)).status).toBe(200);
    }
  });
});

describe('CONTRACT 7: every error is problem details; a 500 carries no stack trace or SQL text', () => {
  it('an unknown path is a 404 problem', async () => {
    const response = await system
      .client('audit')
      .get<{ status: number; title: string; detail: string }>('/nowhere/at/all');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 404, title: 'Not found' });
  });

  it('a database fault is a bare 500', async () => {
    await queryDatabase(system.databaseUrl, 'alter table audit.audit_entry rename to audit_entry_gone');
    try {
      const token = await system.token({ permissions: ['AuditList'] });
      const response = await system.client('audit').get<{ status: number; detail: string }>('/', { token });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(response.body).toMatchObject({ status: 500, title: 'Internal server error' });
      expect(response.text).not.toMatch(/audit_entry|select|relation|at .*\.(js|ts):\d+/i);
    } finally {
      await queryDatabase(system.databaseUrl, 'alter table audit.audit_entry_gone rename to audit_entry');
    }
  });
});
