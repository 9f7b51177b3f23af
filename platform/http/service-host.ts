import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { ServiceName } from '../config/settings.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import {
  BadRequestError,
  DomainError,
  InsufficientCreditsError,
  NotFoundError,
  ServiceUnavailableError,
} from '../errors/domain-errors.js';
import { PROBLEM_CONTENT_TYPE, toProblemDetails } from '../errors/problem-details.js';
import { subgraphMiddleware, type SubgraphDefinition } from '../graphql/subgraph.js';
import type { Logger } from '../logging/logger.js';
import { apiDocsRouter } from './api-docs.js';
import { buildOpenApiDocument } from './openapi.js';
import { restRouter } from './rest-router.js';
import type { Route } from './route.js';

/** A request whose JSON body was also kept as the bytes that arrived. */
export interface RawBodyRequest extends IncomingMessage {
  rawBody?: Buffer;
}

/** What a service brings to its host. */
export interface ServiceDefinition {
  name: ServiceName;
  title: string;
  description: string;
  routes: Route[];
  subgraph?: SubgraphDefinition;
  /** Express middleware run before the routes (the identity service's CORS guard, say). */
  middleware?: RequestHandler[];
  /** Each dependency that must be ready before the service takes traffic. */
  readiness(): Promise<Record<string, boolean>>;
}

export interface HostOptions {
  host: string;
  port: number;
  verifier: TokenVerifier;
  logger: Logger;
}

export interface RunningHost {
  readonly url: string;
  readonly app: Express;
  close(): Promise<void>;
}

export const API_VERSION = '1.0.0';

/** The OpenAPI document of a service, as served at `/openapi/v1.json`. */
export function openApiDocumentOf(definition: ServiceDefinition): Record<string, unknown> {
  return buildOpenApiDocument(
    { title: definition.title, version: API_VERSION, description: definition.description },
    definition.routes,
  );
}

/**
 * One Express app per service: its REST routes, its subgraph at `/graphql`, its OpenAPI
 * document and Swagger UI, and `/healthz/startup`, which answers 200 only when every
 * dependency of the service is ready.
 */
export async function startServiceHost(
  definition: ServiceDefinition,
  options: HostOptions,
): Promise<RunningHost> {
  const logger = options.logger;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  // The raw bytes are kept for routes that check a signature over them (webhooks).
  app.use(
    express.json({
      limit: '5mb',
      verify: (req, _res, buffer) => {
        (req as RawBodyRequest).rawBody = buffer;
      },
    }),
  );

  app.get('/healthz/startup', (_req, res, next) => {
    definition
      .readiness()
      .then((checks) => {
        if (Object.values(checks).every(Boolean)) res.json({ status: 'ready', checks });
        else next(new ServiceUnavailableError('The service is not ready yet.', { checks }));
      })
      .catch(next);
  });
  app.use(apiDocsRouter(definition.title, openApiDocumentOf(definition)));

  let stopSubgraph: (() => Promise<void>) | undefined;
  if (definition.subgraph) {
    const subgraph = await subgraphMiddleware(definition.subgraph, options.verifier, logger);
    app.use('/graphql', subgraph.handler);
    stopSubgraph = subgraph.stop;
  }
  for (const handler of definition.middleware ?? []) app.use(handler);
  app.use(restRouter(definition.routes, options.verifier));
  app.use((req, _res, next) => next(new NotFoundError(`There is no ${req.method} ${req.path}.`)));
  app.use(errorHandler(logger));

  const server = await listen(app, options.host, options.port);
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  return {
    url,
    app,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await stopSubgraph?.();
    },
  };
}

function listen(app: Express, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(server)));
  });
}

/** The only place a REST error is written: problem details, or the spec's plain text for 429. */
function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const known = fromExpress(error);
    if (known instanceof InsufficientCreditsError) {
      res.status(429).type('text/plain').send(known.message);
      return;
    }
    const problem = toProblemDetails(known, req.originalUrl, logger);
    res.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
  };
}

/** Body-parser and other framework errors carry a safe 4xx status; keep it with a plain message. */
function fromExpress(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  const candidate = error as { type?: unknown; status?: unknown; expose?: unknown } | null;
  if (candidate?.type === 'entity.parse.failed')
    return new BadRequestError('The request body is not valid JSON.');
  if (
    typeof candidate?.status === 'number' &&
    candidate.status >= 400 &&
    candidate.status < 500 &&
    candidate.expose
  ) {
    return new HttpFrameworkError(candidate.status, (error as Error).message);
  }
  return error;
}

class HttpFrameworkError extends DomainError {
  readonly code = 'BAD_REQUEST';
  readonly title: string;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.title =
      status === 413 ? 'Payload too large' : status === 415 ? 'Unsupported media type' : 'Bad request';
  }
}
