import { createHash } from 'node:crypto';
import pg from 'pg';
import type { ProcessName } from '../../platform/config/settings.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['audit', 'gateway'] });
});

afterAll(() => system.stop());

interface GraphQLAnswer {
  data?: unknown;
  errors?: { message: string; extensions: { code: string; status?: number } }[];
}

// The audit subgraph directly, and the same request through the gateway.
const entryPoints: ProcessName[] = ['audit', 'gateway'];

describe.each(entryPoints)(
  "issue 2 errors: GraphQL bad input is a 400 with Apollo's own code, not a fault (%s)",
  (entry) => {
    const ask = async (body: unknown) => {
      const token = await system.token({ permissions: ['AuditList'] });
      return system.client(entry).post<GraphQLAnswer>('/graphql', { token, body });
    };

    it('a wrong literal, auditEntries(take: "x"), is a 400 GRAPHQL_VALIDATION_FAILED naming the problem', async () => {
      const response = await ask({ query: '{ auditEntries(take: "x") { total } }' });
      expect(response.status).toBe(400);
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors![0]!.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(response.body.errors![0]!.message).toContain('Int cannot represent non-integer value: "x"');
    });

    it('a variable $t: Int given "abc" is a 400 BAD_USER_INPUT naming the variable', async () => {
      const response = await ask({
        query: 'query ($t: Int) { auditEntries(take: $t) { total } }',
        variables: { t: 'abc' },
      });
      expect(response.status).toBe(400);
      expect(response.body.errors![0]!.extensions.code).toBe('BAD_USER_INPUT');
      expect(response.body.errors![0]!.message).toContain('$t');
    });

    it('a query that does not parse is a 400 GRAPHQL_PARSE_FAILED', async () => {
      const response = await ask({ query: '{ auditEntries(take: ' });
      expect(response.status).toBe(400);
      expect(response.body.errors![0]!.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    });
  },
);

describe.each(entryPoints)(
  'decisions "Errors": a code Apollo gave an error is kept, not collapsed (%s)',
  (entry) => {
    it('an automatic persisted query the server has not seen is PERSISTED_QUERY_NOT_FOUND, so the client sends it in full', async () => {
      const query = '{ auditEntries { total } }';
      const sha256Hash = createHash('sha256').update(query).digest('hex');
      const token = await system.token({ permissions: ['AuditList'] });
      const persisted = { persistedQuery: { version: 1, sha256Hash } };
      const unknown = await system
        .client(entry)
        .post<GraphQLAnswer>('/graphql', { token, body: { extensions: persisted } });
      expect(unknown.body.errors).toHaveLength(1);
      expect(unknown.body.errors![0]!.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');

      const registered = await system
        .client(entry)
        .post<GraphQLAnswer>('/graphql', { token, body: { query, extensions: persisted } });
      expect(registered.body.errors).toBeUndefined();
      const byHash = await system
        .client(entry)
        .post<GraphQLAnswer>('/graphql', { token, body: { extensions: persisted } });
      expect(byHash.body).toEqual(registered.body);
    });
  },
);

describe.each(entryPoints)(
  'CONTRACT 7: a resolver fault is INTERNAL_SERVER_ERROR with no stack trace or SQL (%s)',
  (entry) => {
    it('answers the generic message when the audit table is gone', async () => {
      const client = new pg.Client({ connectionString: system.databaseUrl });
      await client.connect();
      try {
        await client.query('alter table audit.audit_entry rename to audit_entry_gone');
        const token = await system.token({ permissions: ['AuditList'] });
        const response = await system.client(entry).post<GraphQLAnswer>('/graphql', {
          token,
          body: { query: '{ auditEntries { total } }' },
        });
        expect(response.body.errors![0]!.extensions.code).toBe('INTERNAL_SERVER_ERROR');
        expect(response.body.errors![0]!.message).toBe('The service failed to complete the request.');
        expect(response.text).not.toMatch(/audit_entry|select|relation|stacktrace|at .*\.(js|ts):\d+/i);
      } finally {
        await client.query('alter table audit.audit_entry_gone rename to audit_entry');
        await client.end();
      }
    });
  },
);
