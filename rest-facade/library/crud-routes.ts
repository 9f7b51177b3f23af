import type { z } from 'zod';
import type { Caller } from '../../platform/auth/caller.js';
import { listQuery, type ListQuery } from '../../platform/http/query-schemas.js';
import { defineRoute, type Route } from '../../platform/http/route.js';
import { libraryIdParams } from '../../subgraphs/library/tag-groups/tag-group.schemas.js';

/** The use cases of a library resource that its five REST paths call. */
export interface CrudService<Q, B, U> {
  list(caller: Caller | undefined, query: Q): Promise<unknown>;
  get(caller: Caller | undefined, id: number): Promise<unknown>;
  create(caller: Caller | undefined, body: B): Promise<unknown>;
  update(caller: Caller | undefined, id: number, body: U): Promise<unknown>;
  remove(caller: Caller | undefined, id: number): Promise<unknown>;
}

/** How one resource of spec 4.1's tables is served. */
export interface CrudSpec<Q extends z.ZodType, B extends z.ZodType, U extends z.ZodType> {
  path: string;
  tag: string;
  /** As messages name one: `tag group`. */
  noun: string;
  /** As operation ids name one: `TagGroup`. */
  operationNoun: string;
  permissions: { list: string; read: string; create: string; update: string; delete: string };
  query?: Q;
  body: B;
  updateBody: U;
  page: z.ZodType;
  view: z.ZodType;
  /** The answer of a read, create, update and delete, when richer than a list item. */
  detail?: z.ZodType;
  /** PUT checks the version sent (tags carry none). */
  versioned: boolean;
  /** What a read costs (spec 8), said in its description. */
  readCost?: string;
  /** Said of every path that needs a set-scoped permission. */
  scopeNote?: string;
}

/**
 * The five REST paths of a resource of spec 4.1 (list, read, create, update, delete), each one line
 * over its use case, documented from the same schemas that validate them.
 */
export function crudRoutes<Q extends z.ZodType, B extends z.ZodType, U extends z.ZodType>(
  spec: CrudSpec<Q, B, U>,
  service: CrudService<z.output<Q>, z.output<B>, z.output<U>>,
): Route[] {
  const one = spec.detail ?? spec.view;
  const scope = spec.scopeNote ? ` ${spec.scopeNote}` : '';
  const byId = `${spec.path}/{id}`;
  const notes = (permission: string, more = '') => `Needs ${permission}.${scope}${more}`;
  return [
    defineRoute({
      method: 'get',
      path: spec.path,
      operationId: `list${spec.operationNoun}s`,
      summary: `List the organization's ${spec.noun}s`,
      description: notes(spec.permissions.list, ' Everything unless `take` is given.'),
      tag: spec.tag,
      auth: 'required',
      query: (spec.query ?? listQuery) as Q,
      response: spec.page,
      errors: [403],
      handle: ({ caller, query }) => service.list(caller, query as z.output<Q> & ListQuery),
    }),
    defineRoute({
      method: 'get',
      path: byId,
      operationId: `get${spec.operationNoun}`,
      summary: `Read a ${spec.noun}`,
      description: notes(spec.permissions.read, spec.readCost ? ` ${spec.readCost}` : ''),
      tag: spec.tag,
      auth: 'required',
      params: libraryIdParams,
      response: one,
      errors: spec.readCost ? [403, 404, 429] : [403, 404],
      handle: ({ caller, params }) => service.get(caller, params.id),
    }),
    defineRoute({
      method: 'post',
      path: spec.path,
      operationId: `create${spec.operationNoun}`,
      summary: `Create a ${spec.noun}`,
      description: notes(spec.permissions.create),
      tag: spec.tag,
      auth: 'required',
      body: spec.body,
      response: one,
      errors: [403, 409],
      // The router parsed the body with spec.body: a generic B hides that its type is B's output.
      handle: ({ caller, body }) => service.create(caller, body as z.output<B>),
    }),
    defineRoute({
      method: 'put',
      path: byId,
      operationId: `update${spec.operationNoun}`,
      summary: `Change a ${spec.noun}`,
      description: notes(
        spec.permissions.update,
        ` A field left out keeps its stored value.${spec.versioned ? ' A `version` that is not the stored one is 409, and nothing changes.' : ''}`,
      ),
      tag: spec.tag,
      auth: 'required',
      params: libraryIdParams,
      body: spec.updateBody,
      response: one,
      errors: [403, 404, 409],
      // As for create: the body was parsed with spec.updateBody.
      handle: ({ caller, params, body }) => service.update(caller, params.id, body as z.output<U>),
    }),
    defineRoute({
      method: 'delete',
      path: byId,
      operationId: `delete${spec.operationNoun}`,
      summary: `Delete a ${spec.noun}`,
      description: notes(spec.permissions.delete, ' Answers the removed record.'),
      tag: spec.tag,
      auth: 'required',
      params: libraryIdParams,
      response: one,
      errors: [403, 404, 409],
      handle: ({ caller, params }) => service.remove(caller, params.id),
    }),
  ];
}
