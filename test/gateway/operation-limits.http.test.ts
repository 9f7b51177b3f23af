import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { graphql, graphqlData } from '../support/graphql.js';
import type { HttpClient } from '../support/http-client.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

/**
 * issue 8.4 / decisions "Operation limits": the gateway, and each subgraph on its own port,
 * refuse an operation beyond the limits with a clear error before it runs.
 */

let system: TestSystem;
let reader: string;

beforeAll(async () => {
  system = await startTestSystem({ processes: ['account', 'audit', 'gateway'] });
  reader = await system.token({ permissions: ['AuditList', 'AuditRead', 'UserList'] });
});

afterAll(() => system.stop());

/** The probe that ran 25 s and answered 214 MB: 100 aliases of a 1000-entry page with states. */
const probe = `{ ${Array.from({ length: 100 }, (_, n) => `a${n}: auditEntries(take: 1000) { items { afterState } }`).join(' ')} }`;

/** 20 aliases, within the alias limit, each a full page of entries with a dozen fields. */
const costly = `{ ${Array.from(
  { length: 20 },
  (_, n) =>
    `a${n}: auditEntries(take: 1000) { items { id version entryType action entityName entityId beforeState afterState loggedAt } }`,
).join(' ')} }`;

const endpoints: [string, () => HttpClient][] = [
  ['the gateway', () => system.client('gateway')],
  ['the audit subgraph', () => system.client('audit')],
];

describe.each(endpoints)('issue 8.4: %s refuses an operation beyond the limits', (_name, client) => {
  it('refuses the 100-alias probe with a 400 BAD_REQUEST naming the alias limit, and no data', async () => {
    const answer = await graphql(client(), reader, probe);
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        message: 'The operation uses 100 aliases; at most 30 are allowed.',
        extensions: expect.objectContaining({ code: 'BAD_REQUEST' }) as unknown,
      }),
    ]);
  });

  it('refuses 20 full pages of entries by their estimated cost', async () => {
    const answer = await graphql(client(), reader, costly);
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.message).toMatch(
      /^The operation's estimated cost is \d+; at most 100000 is allowed\./,
    );
  });

  it('counts a take given in a variable', async () => {
    const query = `query ($take: Int) { ${Array.from({ length: 20 }, (_, n) => `a${n}: auditEntries(take: $take) { items { id version entityId afterState beforeState } }`).join(' ')} }`;
    expect((await graphql(client(), reader, query, { take: 10 })).status).toBe(200);
    expect((await graphql(client(), reader, query, { take: 1000 })).body.errors?.[0]?.message).toContain(
      'estimated cost',
    );
  });

  it('answers a full page of entries with every field', async () => {
    const page = await graphqlData<{ auditEntries: { total: number } }>(
      client(),
      reader,
      '{ auditEntries(take: 1000) { total items { id version organizationId loggedAt entryType action entityName entityId beforeState afterState stateWithheld } } }',
    );
    expect(page.auditEntries.total).toBeGreaterThanOrEqual(0);
  });
});

describe('issue 8.4: take is bounded on every list, and the schema says so', () => {
  it('every take argument of the gateway schema states its bound, and 1001 is BAD_REQUEST naming args.take', async () => {
    const gateway = system.client('gateway');
    const schema = buildClientSchema(
      await graphqlData<IntrospectionQuery>(gateway, reader, getIntrospectionQuery()),
    );
    const takes = Object.values(schema.getQueryType()!.getFields()).flatMap((field) =>
      field.args.filter((arg) => arg.name === 'take').map((arg) => [field.name, arg.description] as const),
    );
    expect(takes.map(([field]) => field)).toEqual(
      expect.arrayContaining(['apiKeys', 'auditEntries', 'groups', 'myApiKeys', 'organizations', 'users']),
    );
    for (const [, description] of takes) expect(description).toContain('at most 1000');
    const refused = await graphql(gateway, reader, '{ users(take: 1001) { total } }');
    expect(refused.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
    expect(refused.body.errors?.[0]?.message).toContain('args.take: must be at most 1000');
  });
});
