import { randomUUID } from 'node:crypto';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  type GraphQLField,
  type GraphQLInputType,
  type IntrospectionQuery,
} from 'graphql';
import { PERMISSION_CATALOGUE } from '../../platform/permissions/catalogue.js';
import { LONE_SURROGATE_MESSAGE, NUL_MESSAGE } from '../../platform/http/storable-text.js';
import { webhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../account/account-test-helpers.js';
import { graphql, graphqlData } from '../support/graphql.js';
import type { Problem } from '../support/problem.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

/**
 * decisions "Text PostgreSQL cannot store": every string field of every write body that the
 * services document, and every text argument of the gateway's schema, is sent once with a NUL
 * and once with a lone surrogate, and is refused with a 400 (BAD_REQUEST) naming the field.
 * The walk reads the documents the services serve, so a route added later is walked too.
 */

type Json = Record<string, unknown>;
type Step = string | number;

const WEBHOOK_SECRET = 'storable-text-webhook-secret';
const BAD_TEXTS = [
  ['a NUL', 'before\u0000after', NUL_MESSAGE],
  ['a lone surrogate', 'before\ud800after', LONE_SURROGATE_MESSAGE],
] as const;

let system: TestSystem;
let token: string;

beforeAll(async () => {
  system = await startTestSystem({ overrides: { 'Payments:WebhookSecret': WEBHOOK_SECRET } });
  token = await system.token({
    permissions: PERMISSION_CATALOGUE.map((entry) => entry.name),
  });
});

afterAll(() => system.stop());

/** A place in a body that holds text: a string value, or (inKey) a key of the object there. */
interface TextPosition {
  path: Step[];
  inKey: boolean;
}

/** Every place in a JSON schema where text goes, following references once each. */
function textPositions(
  schema: Json,
  components: Json,
  path: Step[] = [],
  seen = new Set<string>(),
): TextPosition[] {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    if (seen.has(name)) return [];
    return textPositions(components[name] as Json, components, path, new Set([...seen, name]));
  }
  const shapeKeys = Object.keys(schema).filter(
    (key) => !['description', 'default', 'id', 'title'].includes(key),
  );
  if (shapeKeys.length === 0) return [{ path, inKey: false }]; // any JSON value: text among them
  const types = [schema.type].flat();
  const positions: TextPosition[] = [];
  if (
    types.includes('string') ||
    (schema.enum as unknown[] | undefined)?.some((v) => typeof v === 'string')
  ) {
    positions.push({ path, inKey: false });
  }
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    positions.push(...textPositions(property, components, [...path, name], seen));
  }
  if (typeof schema.additionalProperties === 'object') {
    positions.push({ path, inKey: true });
    positions.push(...textPositions(schema.additionalProperties as Json, components, [...path, 'key'], seen));
  }
  if (typeof schema.items === 'object')
    positions.push(...textPositions(schema.items as Json, components, [...path, 0], seen));
  for (const variant of [schema.anyOf, schema.oneOf, schema.allOf].flat().filter(Boolean) as Json[]) {
    positions.push(...textPositions(variant, components, path, seen));
  }
  const unique = new Map(positions.map((position) => [JSON.stringify(position), position]));
  return [...unique.values()];
}

/** A value with `text` at the position and nothing else. */
function valueAt(position: TextPosition, text: string): unknown {
  const build = (steps: Step[]): unknown => {
    if (steps.length === 0) return position.inKey ? { [text]: 'value' } : text;
    const [step, ...rest] = steps;
    return typeof step === 'number' ? [build(rest)] : { [step!]: build(rest) };
  };
  return build(position.path);
}

/** How parseInput names a place (`body.providers[0].clientId`). */
function fieldName(location: string, path: Step[]): string {
  return path.reduce<string>(
    (name, step) => (typeof step === 'number' ? `${name}[${step}]` : `${name}.${step}`),
    location,
  );
}

/** A value the path parameter's schema accepts. */
function parameterValue(schema: Json): string {
  if (schema.format === 'uuid') return randomUUID();
  if (schema.type === 'integer') return typeof schema.minimum === 'number' ? String(schema.minimum) : '1';
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  return 'name';
}

interface WriteBody {
  service: 'account' | 'audit' | 'identity' | 'library';
  method: string;
  path: string;
  positions: TextPosition[];
}

async function writeBodies(): Promise<WriteBody[]> {
  const found: WriteBody[] = [];
  for (const service of ['account', 'audit', 'identity', 'library'] as const) {
    const document = (await system.client(service).get<Json>('/openapi/v1.json')).body;
    const components = (document.components as Json).schemas as Json;
    for (const [template, operations] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(operations as Record<string, Json>)) {
        const body = operation.requestBody as Json | undefined;
        if (!body) continue;
        const schema = ((body.content as Json)['application/json'] as Json).schema as Json;
        const parameters = (operation.parameters ?? []) as { name: string; in: string; schema: Json }[];
        const path = parameters
          .filter((parameter) => parameter.in === 'path')
          .reduce(
            (path, parameter) => path.replace(`{${parameter.name}}`, parameterValue(parameter.schema)),
            template,
          );
        found.push({
          service,
          method: method.toUpperCase(),
          path,
          positions: textPositions(schema, components),
        });
      }
    }
  }
  return found;
}

describe('decisions "Text PostgreSQL cannot store" (issue 8.1): every string field of every documented write body', () => {
  it('finds the write bodies of every service (the walk is not empty)', async () => {
    const bodies = await writeBodies();
    expect(new Set(bodies.map((body) => body.service))).toEqual(
      new Set(['account', 'audit', 'identity', 'library']),
    );
    expect(bodies.flatMap((body) => body.positions).length).toBeGreaterThan(50);
  });

  it.each(BAD_TEXTS)(
    'refuses %s in each of them with a 400 naming the field',
    async (_name, text, message) => {
      const refusedWrongly: string[] = [];
      for (const body of await writeBodies()) {
        for (const position of body.positions) {
          const raw = JSON.stringify(valueAt(position, text));
          const response = await system.client(body.service).request<Problem>(body.method, body.path, {
            token,
            body: raw,
            headers: { [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(raw, WEBHOOK_SECRET) },
          });
          const field = fieldName('body', position.path);
          const expected = position.inKey ? `has a key that ${message}` : message;
          const named = response.body.errors?.some(
            (error) => error.field === field && error.message === expected,
          );
          if (response.status !== 400 || !named) {
            refusedWrongly.push(`${body.method} ${body.path} ${field}: ${response.status} ${response.text}`);
          }
        }
      }
      expect(refusedWrongly).toEqual([]);
    },
  );
});

/** A value of the type that GraphQL accepts, as small as it can be. */
function sampleValue(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sampleValue(type.ofType);
  if (isListType(type)) return [];
  if (isInputObjectType(type)) {
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((field) => isNonNullType(field.type))
        .map((field) => [field.name, sampleValue(field.type)]),
    );
  }
  if (type instanceof GraphQLEnumType) return type.getValues()[0]!.value as unknown;
  if (type.name === 'Int' || type.name === 'Float') return 1;
  if (type.name === 'Boolean') return false;
  if (type.name === 'ID') return randomUUID();
  return 'text';
}

/** Every text position inside an argument's type, as a path from the argument. */
function graphqlTextPaths(type: GraphQLInputType, path: Step[], seen = new Set<string>()): Step[][] {
  if (type instanceof GraphQLNonNull) return graphqlTextPaths(type.ofType, path, seen);
  if (type instanceof GraphQLList) return graphqlTextPaths(type.ofType, [...path, 0], seen);
  if (type instanceof GraphQLInputObjectType) {
    if (seen.has(type.name)) return [];
    return Object.values(type.getFields()).flatMap((field) =>
      graphqlTextPaths(field.type, [...path, field.name], new Set([...seen, type.name])),
    );
  }
  return isLeafType(type) && ['String', 'ID'].includes(type.name) ? [path] : [];
}

/** The arguments' values with `text` at the path, every other required one filled in. */
function argumentsWith(field: GraphQLField<unknown, unknown>, path: Step[], text: string): Json {
  const values: Json = Object.fromEntries(
    field.args.filter((arg) => isNonNullType(arg.type)).map((arg) => [arg.name, sampleValue(arg.type)]),
  );
  const place = (container: unknown, type: GraphQLInputType, steps: Step[]): unknown => {
    const named = isNonNullType(type) ? type.ofType : type;
    if (steps.length === 0) return text;
    const [step, ...rest] = steps;
    if (isListType(named)) return [place(undefined, named.ofType, rest)];
    const object = isInputObjectType(named) ? named : undefined;
    const base = { ...(container as Json | undefined), ...(object ? (sampleValue(object) as Json) : {}) };
    const inner = object!.getFields()[step as string]!.type;
    return { ...base, [step!]: place(base[step as string], inner, rest) };
  };
  const [argName, ...rest] = path;
  const arg = field.args.find((candidate) => candidate.name === argName)!;
  values[arg.name] = place(values[arg.name], arg.type, rest);
  return values;
}

describe('decisions "Text PostgreSQL cannot store" (issue 8.1): every text argument of the gateway schema', () => {
  it.each(BAD_TEXTS)(
    'refuses %s in each of them with BAD_REQUEST saying why',
    async (_name, text, message) => {
      const gateway = system.client('gateway');
      const schema = buildClientSchema(
        await graphqlData<IntrospectionQuery>(gateway, token, getIntrospectionQuery()),
      );
      const refusedWrongly: string[] = [];
      let walked = 0;
      for (const [operation, root] of [
        ['query', schema.getQueryType()],
        ['mutation', schema.getMutationType()],
      ] as const) {
        for (const field of Object.values(root?.getFields() ?? {})) {
          if (field.name.startsWith('_')) continue;
          for (const arg of field.args) {
            for (const path of graphqlTextPaths(arg.type, [arg.name])) {
              walked++;
              const variables = argumentsWith(field, path, text);
              const declared = field.args.filter((candidate) => candidate.name in variables);
              const selection = isLeafType(getNamedType(field.type)) ? '' : '{ __typename }';
              const query = `${operation}(${declared.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ')}) {
              ${field.name}(${declared.map((a) => `${a.name}: $${a.name}`).join(', ')}) ${selection} }`;
              const answer = await graphql(gateway, token, query, variables);
              const error = answer.body.errors?.[0];
              if (error?.extensions.code !== 'BAD_REQUEST' || !error.message.includes(message)) {
                refusedWrongly.push(`${field.name} ${JSON.stringify(path)}: ${answer.text}`);
              }
            }
          }
        }
      }
      expect(walked).toBeGreaterThan(20);
      expect(refusedWrongly).toEqual([]);
    },
  );
});
