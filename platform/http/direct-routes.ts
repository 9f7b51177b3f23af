import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { TokenVerifier } from '../auth/token-verifier.js';
import type { Logger } from '../logging/logger.js';
import { writeProblem } from './error-handler.js';
import { PreparedResponse } from './prepared-response.js';
import { noteCaller, noteRoute } from './request-record.js';
import { presentValues, readCaller } from './rest-router.js';
import type { Route } from './route.js';
import { parseInput } from './validation.js';

/** Answers the request and says so, or leaves it to Express. */
export type DirectListener = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The routes marked `direct`, served before Express (decisions "The read path"): matched by
 * method and exact path, the query parsed as Express parses it (node:querystring), the caller
 * and the query checked as the router checks them, errors written as the error handler writes
 * them. What they skip is Express's per-request work (its request and response objects, the
 * JSON body reader, the router's walk over every route).
 */
export function directRoutes(routes: Route[], verifier: TokenVerifier, logger: Logger): DirectListener {
  const byPath = new Map(
    routes.filter((route) => route.direct).map((route) => [route.path, new DirectRoute(route, verifier)]),
  );
  return (req, res) => {
    if (req.method !== 'GET' || byPath.size === 0) return false;
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const route = byPath.get(mark < 0 ? url : url.slice(0, mark));
    if (!route) return false;
    route
      .serve(req, res, mark < 0 ? '' : url.slice(mark + 1))
      .catch((error: unknown) => writeProblem(error, url, res, logger));
    return true;
  };
}

/** Query strings kept parsed per route; past this many, they are forgotten and parsed again. */
const PARSED_QUERIES = 1_000;

class DirectRoute {
  /**
   * Programs ask the same few questions all day: a query string that passed the route's schema
   * once is kept with what it parsed to (parsing is pure), so it is not split and checked again.
   */
  private readonly parsedQueries = new Map<string, unknown>();

  constructor(
    private readonly route: Route,
    private readonly verifier: TokenVerifier,
  ) {}

  async serve(req: IncomingMessage, res: ServerResponse, search: string): Promise<void> {
    const route = this.route;
    noteRoute(req, route.path);
    const caller = await readCaller(route, this.verifier, req);
    noteCaller(req, caller);
    const result = await route.handle({
      caller,
      params: undefined,
      query: this.query(search),
      body: undefined,
      request: req,
      response: res,
    });
    if (!(result instanceof PreparedResponse)) {
      throw new Error(`The direct route ${route.path} answered something other than a PreparedResponse.`);
    }
    res.writeHead(result.status, result.headers).end(result.body);
  }

  private query(search: string): unknown {
    if (!this.route.query) return undefined;
    if (this.parsedQueries.has(search)) return this.parsedQueries.get(search);
    const parsed = parseInput(this.route.query, presentValues(parseQuery(search)), 'query');
    if (this.parsedQueries.size >= PARSED_QUERIES) this.parsedQueries.clear();
    this.parsedQueries.set(search, parsed);
    return parsed;
  }
}
