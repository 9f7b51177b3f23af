import { createHash } from 'node:crypto';
import type { ProcessName } from '../../platform/config/settings.js';
import { graphql, type GraphQLAnswer } from '../support/graphql.js';
import { queryDatabase } from '../support/test-database.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

let system: TestSystem;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['audit', 'gateway'] });
});

afterAll(() => system.stop());

// The audit subgraph directly, and the same request through the gateway.
const entryPoints: ProcessName[] = ['audit', 'gateway'];

describe.each(entryPoints)(
  'decisions "Errors": GraphQL bad input is a 400 with Apollo\'s own code, not a fault (%s)',
  (entry) => {
    const ask = async (query: string, variables?: Record<string, unknown>) =>
      graphql(system.client(entry), await system.token({ permissions: ['AuditList'] }), query, variables);

    it('a wrong literal, auditEntries(take: "x"), is a 400 GRAPHQL_VALIDATION_FAILED naming the problem', async () => {
      const response = await ask('{ auditEntries(take: "x") { total } }');
      expect(response.status).toBe(400);
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors![0]!.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(response.body.errors![0]!.message).toContain('Int cannot represent non-integer value: "x"');
    });

    it('a variable $t: Int given "abc" is a 400 BAD_USER_INPUT naming the variable', async () => {
      const response = await ask('query ($t: Int) { auditEntries(take: $t) { total } }', { t: 'abc' });
      expect(response.status).toBe(400);
      expect(response.body.errors![0]!.extensions.code).toBe('BAD_USER_INPUT');
      expect(response.body.errors![0]!.message).toContain('$t');
    });

    it('a query that does not parse is a 400 GRAPHQL_PARSE_FAILED', async () => {
      const response = await ask('{ auditEntries(take: ');
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
        .post<GraphQLAnswer<unknown>>('/graphql', { token, body: { extensions: persisted } });
      expect(unknown.body.errors).toHaveLength(1);
      expect(unknown.body.errors![0]!.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');

      const registered = await system
        .client(entry)
        .post<GraphQLAnswer<unknown>>('/graphql', { token, body: { query, extensions: persisted } });
      expect(registered.body.errors).toBeUndefined();
      const byHash = await system
        .client(entry)
        .post<GraphQLAnswer<unknown>>('/graphql', { token, body: { extensions: persisted } });
      expect(byHash.body).toEqual(registered.body);
    });
  },
);

describe.each(entryPoints)(
  'CONTRACT 7: a resolver fault is INTERNAL_SERVER_ERROR with no stack trace or SQL (%s)',
  (entry) => {
    it('answers the generic message when the audit table is gone', async () => {
      await queryDatabase(system.databaseUrl, 'alter table audit.audit_entry rename to audit_entry_gone');
      try {
        const token = await system.token({ permissions: ['AuditList'] });
        const response = await graphql(system.client(entry), token, '{ auditEntries { total } }');
        expect(response.body.errors![0]!.extensions.code).toBe('INTERNAL_SERVER_ERROR');
        expect(response.body.errors![0]!.message).toBe('The service failed to complete the request.');
        expect(response.text).not.toMatch(/audit_entry|select|relation|stacktrace|at .*\.(js|ts):\d+/i);
      } finally {
        await queryDatabase(system.databaseUrl, 'alter table audit.audit_entry_gone rename to audit_entry');
      }
    });
  },
);
