import type { IncomingMessage } from 'node:http';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Caller } from '../auth/caller.js';
import { readSessionToken } from '../auth/token-reader.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { UnauthorizedError } from '../errors/domain-errors.js';
import { keepRawBody, MAX_BODY_SIZE, type RawBodyRequest } from './raw-body.js';
import { PreparedResponse } from './prepared-response.js';
import { noteCaller, noteRoute } from './request-record.js';
import type { Route } from './route.js';
import { BodyInOtherMediaType, JSON_MEDIA_TYPE, parseInput } from './validation.js';

/**
 * The bytes of a body the host's JSON reader left alone (another media type), so a route
 * knows whether any arrived at all, and a signed route can check its signature over them.
 */
const readOtherBody = express.raw({ type: () => true, limit: MAX_BODY_SIZE, verify: keepRawBody });

/**
 * Mounts routes on an Express router: reads the caller, validates path, query and body
 * with the route's schemas, calls the handler and writes its result. Errors go to the
 * host's error handler, the one place they become problem details.
 */
export function restRouter(routes: Route[], verifier: TokenVerifier): Router {
  const router = Router();
  for (const route of routes) {
    const expressPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    const handler: RequestHandler = (req, res, next) => {
      handle(route, verifier, req, res).catch(next);
    };
    if (route.body || route.signedBody) router[route.method](expressPath, readOtherBody, handler);
    else router[route.method](expressPath, handler);
  }
  return router;
}

async function handle(route: Route, verifier: TokenVerifier, req: Request, res: Response): Promise<void> {
  noteRoute(req, route.path);
  const caller = await readCaller(route, verifier, req);
  noteCaller(req, caller);
  const params: unknown = route.params ? parseInput(route.params, req.params, 'path') : undefined;
  const query: unknown = route.query ? parseInput(route.query, presentValues(req.query), 'query') : undefined;
  const body = route.signedBody
    ? bodyAsSent(req)
    : route.body
      ? parseInput(route.body, bodyAsSent(req), 'body')
      : undefined;
  const result = await route.handle({ caller, params, query, body, request: req, response: res });
  if (result instanceof PreparedResponse) {
    res.writeHead(result.status, result.headers).end(result.body);
    return;
  }
  res.status(route.status ?? 200);
  if (route.response === null) res.end();
  else if (route.responseContentType === 'text/plain') res.type('text/plain').send(String(result));
  else res.json(result);
}

/**
 * The body as the caller sent it: none when no bytes arrived, whatever the Content-Type says
 * (the JSON reader would make `{}` of an empty JSON body); the JSON value; or, in another media
 * type, a body that parseInput refuses with 415.
 */
function bodyAsSent(req: Request): unknown {
  const bytes = (req as RawBodyRequest).rawBody;
  if (!bytes || bytes.length === 0) return undefined;
  if (req.is(JSON_MEDIA_TYPE)) return req.body as unknown;
  return new BodyInOtherMediaType(req.get('content-type'));
}

/**
 * The query parameters that have a value: `?take=` is the same as no `take`, so its
 * default applies (as an empty setting is unset; docs/decisions.md).
 */
export function presentValues(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
}

/**
 * The caller the request's token names: at once when the token was verified before (the read
 * path's every request), else once it is verified.
 */
export function readCaller(
  route: Route,
  verifier: TokenVerifier,
  req: IncomingMessage,
): Caller | undefined | Promise<Caller | undefined> {
  if (route.auth === 'none') return undefined;
  const token = readSessionToken(req.headers);
  if (!token) {
    if (route.auth === 'required') throw new UnauthorizedError();
    return undefined;
  }
  return verifier.remembered(token) ?? verify(route, verifier, token);
}

async function verify(route: Route, verifier: TokenVerifier, token: string): Promise<Caller | undefined> {
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (route.auth === 'optional' && error instanceof UnauthorizedError) return undefined;
    throw error;
  }
}
