import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Caller } from '../auth/caller.js';
import { readSessionToken } from '../auth/token-reader.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { UnauthorizedError, UnsupportedMediaTypeError } from '../errors/domain-errors.js';
import type { Route } from './route.js';
import { parseInput } from './validation.js';

const JSON_MEDIA_TYPE = 'application/json';

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
    router[route.method](expressPath, handler);
  }
  return router;
}

async function handle(route: Route, verifier: TokenVerifier, req: Request, res: Response): Promise<void> {
  const caller = await readCaller(route, verifier, req);
  // A body in another media type is not read by the JSON parser: refuse it rather than
  // treating it as no body. An empty body (Content-Length: 0) is no body.
  if (route.body && carriesContent(req) && !req.is(JSON_MEDIA_TYPE)) {
    throw UnsupportedMediaTypeError.expected(JSON_MEDIA_TYPE, req.get('content-type'));
  }
  const params: unknown = route.params ? parseInput(route.params, req.params, 'path') : undefined;
  const query: unknown = route.query ? parseInput(route.query, presentValues(req.query), 'query') : undefined;
  const body: unknown = route.body ? parseInput(route.body, req.body, 'body') : undefined;
  const result = await route.handle({ caller, params, query, body, request: req, response: res });
  res.status(route.status ?? 200);
  if (route.response === null) res.end();
  else if (route.responseContentType === 'text/plain') res.type('text/plain').send(String(result));
  else res.json(result);
}

function carriesContent(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * The query parameters that have a value: `?take=` is the same as no `take`, so its
 * default applies (as an empty setting is unset; docs/decisions.md).
 */
function presentValues(query: Request['query']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
}

async function readCaller(route: Route, verifier: TokenVerifier, req: Request): Promise<Caller | undefined> {
  if (route.auth === 'none') return undefined;
  const token = readSessionToken(req.headers);
  if (!token) {
    if (route.auth === 'required') throw new UnauthorizedError();
    return undefined;
  }
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (route.auth === 'optional' && error instanceof UnauthorizedError) return undefined;
    throw error;
  }
}
