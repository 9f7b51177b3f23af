import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { Caller } from '../auth/caller.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** A header as the OpenAPI document describes it. */
export interface HeaderDoc {
  name: string;
  description: string;
  /** Only for request headers: the request is refused without it. */
  required?: boolean;
}

/**
 * How a route treats the session token:
 * - `required`: no token or a bad one is 401 before the handler runs;
 * - `optional`: a valid token gives a caller, a missing or bad one gives none (anonymous
 *   endpoints with a rule of their own, such as the audit write);
 * - `none`: the token is not read.
 */
export type AuthMode = 'required' | 'optional' | 'none';

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteContext<P extends Schema, Q extends Schema, B extends Schema> {
  caller: Caller | undefined;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  request: IncomingMessage;
  response: ServerResponse;
}

/**
 * One REST operation: how it is called, what it accepts and answers (the schemas validate
 * requests and generate the OpenAPI document), and a handler that calls the service layer.
 */
export interface RouteSpec<P extends Schema = Schema, Q extends Schema = Schema, B extends Schema = Schema> {
  method: HttpMethod;
  /** OpenAPI style: `/items/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthMode;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The handler authenticates the request by a signature over the raw body
   * (`RawBodyRequest.rawBody`, kept whatever the media type) before it reads the body: the
   * router then judges neither the media type nor the body's schema first, so an unsigned
   * caller is refused whatever it sent. The handler parses the body with parseInput once the
   * signature checks out; a body in another media type is 415 then (see BodyInOtherMediaType).
   */
  signedBody?: boolean;
  /** The success status; 200 unless stated. */
  status?: number;
  /** The success body's schema; null for a response without a body. */
  response: z.ZodType | null;
  /** `text/plain` responses are written as the handler's string. */
  responseContentType?: 'application/json' | 'text/plain';
  /**
   * Served straight off the Node HTTP server, before Express and its middleware, for the paths
   * programs call all day (the read path): a GET without path parameters or body, whose handler
   * answers a PreparedResponse. The route is on the Express router too, for HEAD and for a path
   * written another way (`/Variablevalues/`), so every request is answered alike.
   */
  direct?: boolean;
  /** Request headers the handler reads beyond the session token, for the OpenAPI document. */
  requestHeaders?: HeaderDoc[];
  /** Headers of the success response worth documenting (a token answered in a header, an ETag). */
  responseHeaders?: HeaderDoc[];
  /** Error statuses worth documenting beyond 400, 401 and 500. */
  errors?: number[];
  handle(context: RouteContext<P, Q, B>): Promise<unknown>;
}

/**
 * A route of any shape, as the router and the OpenAPI builder see it. Its handler was
 * type-checked against its schemas where it was defined (defineRoute).
 */
export type Route = Omit<RouteSpec, 'handle'> & {
  handle(context: RouteContext<Schema, Schema, Schema>): Promise<unknown>;
};

/** Declares a route with its parts' types inferred from its schemas. */
export function defineRoute<
  P extends Schema = undefined,
  Q extends Schema = undefined,
  B extends Schema = undefined,
>(spec: RouteSpec<P, Q, B>): Route {
  return spec;
}
