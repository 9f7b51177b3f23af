import { randomBytes } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { trace } from '@opentelemetry/api';
import type { Caller } from '../auth/caller.js';

/** What is learnt of a request while it is served, for its log line and its metrics. */
export interface RequestRecord {
  /** The caller's `x-request-id` when it is a plain token, else one made here; echoed in the response. */
  readonly id: string;
  /** `performance.now()` when the request arrived. */
  readonly startedAt: number;
  /** The route's template (`/variables/{id}`), never the raw path: set by whatever serves the request. */
  route: string | undefined;
  caller: Caller | undefined;
  /** The trace the request's server span is in, when tracing is on. */
  readonly traceId: string | undefined;
}

/** A request once its response is written, or its connection closed before that. */
export interface AnsweredRequest {
  readonly method: string;
  /** The route's template, or undefined when no route took the request (a 404, say). */
  readonly route: string | undefined;
  readonly status: number;
  readonly durationMs: number;
  /** The connection closed before the response was complete. */
  readonly aborted: boolean;
  readonly record: RequestRecord;
}

/** Hears of each request: when it arrives (before it is served), and once it is answered. */
export interface RequestObserver {
  arrived?(): void;
  answered(answered: AnsweredRequest): void;
}

export const REQUEST_ID_HEADER = 'x-request-id';

const RECORD = Symbol('request record');
type RecordedRequest = IncomingMessage & {
  [RECORD]?: RequestRecord;
  // What Express sets on the requests it routes (its Request type is not this module's concern).
  route?: { path?: unknown };
  baseUrl?: string;
};

/**
 * Ids made here: this process's random prefix (64 bits) and a count, unique across processes
 * without asking the system for random bytes per request.
 */
const ID_PREFIX = `${randomBytes(8).toString('hex')}-`;
let made = 0;

function newRequestId(): string {
  made += 1;
  return ID_PREFIX + made.toString(36);
}

/** An id a caller sent is kept when it could not smuggle anything into a header or a log line. */
const PLAIN_ID = /^[\w.:@/+=-]{1,128}$/;

/**
 * Wraps a server's listener so each request gets a record (and its id in the response), and
 * each observer hears of it once it is answered. Observers run after the response is written,
 * so they add nothing to its latency; one that throws is a bug, and is left to surface.
 */
export function observedListener(listener: RequestListener, observers: RequestObserver[]): RequestListener {
  return (req: RecordedRequest, res: ServerResponse) => {
    const sent = req.headers[REQUEST_ID_HEADER];
    const id = typeof sent === 'string' && PLAIN_ID.test(sent) ? sent : newRequestId();
    // The HTTP instrumentation's server span, when tracing is on (none otherwise): it carries the
    // request id, and the log line its trace id, so one finds the other.
    const span = trace.getActiveSpan();
    span?.setAttribute('http.request.id', id);
    const record: RequestRecord = {
      id,
      startedAt: performance.now(),
      route: undefined,
      caller: undefined,
      traceId: span?.spanContext().traceId,
    };
    req[RECORD] = record;
    res.setHeader(REQUEST_ID_HEADER, record.id);
    for (const observer of observers) observer.arrived?.();
    res.once('close', () => {
      const answered: AnsweredRequest = {
        method: req.method ?? 'GET',
        route: routeOf(req, record),
        // 499, as proxies log it, when the caller left before any status was written.
        status: res.headersSent || res.writableFinished ? res.statusCode : 499,
        durationMs: performance.now() - record.startedAt,
        aborted: !res.writableFinished,
        record,
      };
      for (const observer of observers) observer.answered(answered);
    });
    listener(req, res);
  };
}

/** The record of a request served through observedListener (undefined for one that was not). */
export function recordOf(req: IncomingMessage): RequestRecord | undefined {
  return (req as RecordedRequest)[RECORD];
}

/** Says which route serves the request, by its template. */
export function noteRoute(req: IncomingMessage, template: string): void {
  const record = recordOf(req);
  if (record) record.route = template;
}

/** Middleware that says the requests it sees are served by the route `template` (a mounted app such as `/graphql`). */
export function notingRoute(
  template: string,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, _res, next) => {
    noteRoute(req, template);
    next();
  };
}

/** Says who the request's verified token names. */
export function noteCaller(req: IncomingMessage, caller: Caller | undefined): void {
  const record = recordOf(req);
  if (record) record.caller = caller;
}

/** The template noted, else the path of the Express route that answered (health, docs). */
function routeOf(req: RecordedRequest, record: RequestRecord): string | undefined {
  if (record.route !== undefined) return record.route;
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : undefined;
}
