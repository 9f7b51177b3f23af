import { buildSchema, getIntrospectionQuery, parse } from 'graphql';
import { MAX_TAKE } from '../http/query-schemas.js';
import { ASSUMED_LIST_LENGTH, OPERATION_LIMITS, operationLimitProblem } from './operation-limits.js';

const schema = buildSchema(`
  type Node { id: ID! name: String! child: Node tags: [String!]! children: [Node!]! }
  type NodePage { total: Int! items: [Node!]! }
  type Query {
    node: Node
    nodes(take: Int, skip: Int): NodePage!
    entries(take: Int = 10): NodePage!
  }
`);

const problemOf = (query: string, variables: Record<string, unknown> = {}) =>
  operationLimitProblem(schema, parse(query), undefined, variables);

/** `node { child { child { ... name } } }` with `levels` fields in all. */
const nested = (levels: number): string =>
  `{ ${'node { '.repeat(1)}${'child { '.repeat(levels - 2)}name${' }'.repeat(levels - 1)} }`;

describe('decisions "Operation limits": depth', () => {
  it(`accepts ${OPERATION_LIMITS.maxDepth} levels and refuses one more, saying how deep`, () => {
    expect(problemOf(nested(OPERATION_LIMITS.maxDepth))).toBeUndefined();
    expect(problemOf(nested(OPERATION_LIMITS.maxDepth + 1))).toBe(
      `The operation nests fields ${OPERATION_LIMITS.maxDepth + 1} deep; at most ${OPERATION_LIMITS.maxDepth} are allowed.`,
    );
  });

  it('counts the levels a fragment adds where it is spread', () => {
    const query = `{ node { child { ...deep } } } fragment deep on Node { ${'child { '.repeat(8)}id${' }'.repeat(8)} }`;
    expect(problemOf(query)).toContain('nests fields 11 deep');
  });
});

describe('decisions "Operation limits": aliases', () => {
  const aliased = (count: number) =>
    `{ ${Array.from({ length: count }, (_, n) => `a${n}: node { id }`).join(' ')} }`;

  it(`accepts ${OPERATION_LIMITS.maxAliases} aliases and refuses one more`, () => {
    expect(problemOf(aliased(OPERATION_LIMITS.maxAliases))).toBeUndefined();
    expect(problemOf(aliased(OPERATION_LIMITS.maxAliases + 1))).toBe(
      `The operation uses ${OPERATION_LIMITS.maxAliases + 1} aliases; at most ${OPERATION_LIMITS.maxAliases} are allowed.`,
    );
  });

  it('counts an aliased field in a fragment once per spread', () => {
    const query = `{ node { ...f } other: node { ...f } } fragment f on Node { ${Array.from({ length: 15 }, (_, n) => `x${n}: id`).join(' ')} }`;
    expect(problemOf(query)).toContain('uses 31 aliases');
  });
});

describe('decisions "Operation limits": estimated cost', () => {
  it('multiplies a page by its take, from a literal, a variable or the default, and counts its items once', () => {
    // 1 for the page, then take x (total + items + id + name).
    const costOf = (query: string, variables = {}) =>
      /estimated cost is (\d+)/.exec(
        operationLimitProblem(schema, parse(query), undefined, variables, {
          ...OPERATION_LIMITS,
          maxCost: 0,
        }) ?? '',
      )?.[1];
    expect(costOf('{ nodes(take: 20) { total items { id name } } }')).toBe(String(1 + 20 * 4));
    expect(costOf('query ($t: Int) { nodes(take: $t) { total items { id } } }', { t: 7 })).toBe(
      String(1 + 7 * 3),
    );
    expect(costOf('{ entries { items { id } } }')).toBe(String(1 + 10 * 2));
    expect(costOf('{ nodes { items { id } } }')).toBe(String(1 + MAX_TAKE * 2));
    expect(costOf('{ node { children { id } tags } }')).toBe(String(1 + (1 + ASSUMED_LIST_LENGTH * 1) + 1));
  });

  it('refuses what the audit log was probed with: 30 pages of 1000 entries, each with several fields', () => {
    const query = `{ ${Array.from({ length: 30 }, (_, n) => `p${n}: nodes(take: 1000) { items { id name child { id } } }`).join(' ')} }`;
    expect(problemOf(query)).toMatch(/^The operation's estimated cost is \d+; at most 100000 is allowed\./);
  });

  it('accepts a full page of a thousand items with a dozen fields', () => {
    const fields = 'id name tags child { id name tags }';
    expect(problemOf(`{ nodes(take: 1000) { total items { ${fields} } } }`)).toBeUndefined();
  });

  it('leaves introspection out: the full introspection query passes', () => {
    expect(problemOf(getIntrospectionQuery())).toBeUndefined();
  });
});
