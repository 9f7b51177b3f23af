import { z } from 'zod';
import { SESSION_HEADER } from '../auth/token-reader.js';
import type { Route } from './route.js';

type JsonSchema = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
}

const problemSchema: JsonSchema = {
  type: 'object',
  description: 'RFC 7807 problem details.',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    errors: {
      type: 'array',
      description: 'On 400: each field that failed validation.',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, message: { type: 'string' } },
        required: ['field', 'message'],
      },
    },
  },
  required: ['type', 'title', 'status', 'detail'],
};

const errorDescriptions: Record<number, string> = {
  304: 'Not modified: the ETag sent in If-None-Match is the current one. No body.',
  400: 'The request is invalid; `errors` names each bad field.',
  401: 'No valid session token.',
  403: 'The caller lacks a permission this needs.',
  404: 'Not found, or in another organization.',
  409: 'Conflicts with the stored state.',
  429: 'Not enough credits.',
  500: 'A fault on the service side.',
  503: 'Busy, or a service it needs is unavailable: try again later (after `Retry-After` seconds when given).',
};

/**
 * Builds the OpenAPI 3.1 document of a service from its routes: the same zod schemas that
 * validate each request describe it, so documentation and validation cannot disagree.
 * Schemas given an id with `.meta({ id })` become named components.
 */
export function buildOpenApiDocument(info: OpenApiInfo, routes: Route[]): JsonSchema {
  const components: Record<string, JsonSchema> = { ProblemDetails: problemSchema };
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
    }) as JsonSchema;
    const { $schema: _schema, $defs, ...rest } = json;
    for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      components[name] = relink(definition);
    }
    return relink(rest);
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters = [
      ...objectFields(route.params).map(([name, schema]) => ({
        name,
        in: 'path',
        required: true,
        schema: convert(schema, 'input'),
      })),
      ...objectFields(route.query).map(([name, schema]) => ({
        name,
        in: 'query',
        required: !schema.safeParse(undefined).success,
        description: schema.description,
        schema: convert(schema, 'input'),
        ...(schema instanceof z.ZodArray || innerType(schema) instanceof z.ZodArray
          ? { style: 'form', explode: true }
          : {}),
      })),
      ...(route.requestHeaders ?? []).map((header) => ({
        name: header.name,
        in: 'header',
        required: header.required ?? false,
        description: header.description,
        schema: { type: 'string' },
      })),
    ];
    const status = String(route.status ?? 200);
    const contentType = route.responseContentType ?? 'application/json';
    const errorStatuses = [
      ...new Set([400, ...(route.auth === 'required' ? [401] : []), ...(route.errors ?? []), 500]),
    ];
    paths[route.path] ??= {};
    paths[route.path]![route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: [route.tag],
      security:
        route.auth === 'required'
          ? [{ sessionHeader: [] }, { sessionCookie: [] }]
          : route.auth === 'optional'
            ? [{}, { sessionHeader: [] }, { sessionCookie: [] }]
            : [],
      parameters: parameters.length > 0 ? parameters : undefined,
      requestBody: route.body
        ? { required: true, content: { 'application/json': { schema: convert(route.body, 'input') } } }
        : undefined,
      responses: {
        [status]: {
          description: route.summary,
          ...(route.responseHeaders
            ? {
                headers: Object.fromEntries(
                  route.responseHeaders.map((header) => [
                    header.name,
                    { description: header.description, schema: { type: 'string' } },
                  ]),
                ),
              }
            : {}),
          ...(route.response
            ? { content: { [contentType]: { schema: convert(route.response, 'output') } } }
            : {}),
        },
        ...Object.fromEntries(
          errorStatuses.map((code) => [
            String(code),
            {
              description: errorDescriptions[code] ?? 'Error.',
              content:
                code === 304
                  ? undefined
                  : code === 429
                    ? { 'text/plain': { schema: { type: 'string' } } }
                    : {
                        'application/problem+json': {
                          schema: { $ref: '#/components/schemas/ProblemDetails' },
                        },
                      },
            },
          ]),
        ),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        sessionHeader: {
          type: 'apiKey',
          in: 'header',
          name: SESSION_HEADER,
          description: 'The session token (JWT).',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_HEADER,
          description: 'The session token from a browser.',
        },
      },
    },
  };
}

function objectFields(schema: z.ZodType | undefined): [string, z.ZodType][] {
  if (!schema) return [];
  const object = innerType(schema);
  if (!(object instanceof z.ZodObject)) return [];
  const shape = object.shape as Record<string, z.ZodType>;
  return Object.entries(shape);
}

/** Looks through wrappers (optional, default, pipe) to the schema that gives the shape. */
function innerType(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault || schema instanceof z.ZodNullable) {
    return innerType(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodPipe) return innerType(schema.in as z.ZodType);
  return schema;
}

function relink(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
}
