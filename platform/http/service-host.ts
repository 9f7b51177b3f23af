import express, { type Express, type RequestHandler } from 'express';
import type { ServiceName } from '../config/settings.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { ServiceUnavailableError } from '../errors/domain-errors.js';
import { subgraphMiddleware, type SubgraphDefinition } from '../graphql/subgraph.js';
import type { Logger } from '../logging/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import { apiDocsRouter } from './api-docs.js';
import { directRoutes } from './direct-routes.js';
import { notFoundHandler, problemErrorHandler } from './error-handler.js';
import { startHttpServer } from './http-server.js';
import { openApiDocument } from './rest-api.js';
import { keepRawBody, MAX_BODY_SIZE } from './raw-body.js';
import { restRouter } from './rest-router.js';
import { operatedListener } from './operated-listener.js';
import { notingRoute } from './request-record.js';
import type { Route } from './route.js';

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
  metrics: Metrics;
}

export interface RunningHost {
  readonly url: string;
  readonly app: Express;
  close(): Promise<void>;
}

/**
 * One Express app per service, behind the routes it serves directly: its REST routes, its subgraph at `/graphql`, its OpenAPI
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
  // The raw bytes are kept for routes that check a signature over them (webhooks), and to tell
  // an empty body from none (the REST routes read other media types' bytes themselves). Any JSON
  // value is parsed (not only objects and arrays), so `null` or `"abc"` reaches the route's
  // schema and is refused as the wrong shape, not as broken JSON.
  app.use(express.json({ limit: MAX_BODY_SIZE, strict: false, verify: keepRawBody }));

  app.get('/healthz/startup', (_req, res, next) => {
    definition
      .readiness()
      .then((checks) => {
        if (Object.values(checks).every(Boolean)) res.json({ status: 'ready', checks });
        else next(new ServiceUnavailableError('The service is not ready yet.', { checks }));
      })
      .catch(next);
  });
  app.use(apiDocsRouter(definition.title, openApiDocument(definition, definition.routes)));

  let stopSubgraph: (() => Promise<void>) | undefined;
  if (definition.subgraph) {
    const subgraph = await subgraphMiddleware(definition.subgraph, options.verifier, logger);
    app.use('/graphql', notingRoute('/graphql'), subgraph.handler);
    stopSubgraph = subgraph.stop;
  }
  for (const handler of definition.middleware ?? []) app.use(handler);
  app.use(restRouter(definition.routes, options.verifier));
  app.use(notFoundHandler());
  app.use(problemErrorHandler(logger));

  let server;
  try {
    const direct = directRoutes(definition.routes, options.verifier, logger);
    server = await startHttpServer(
      operatedListener(
        (req, res) => {
          if (!direct(req, res)) app(req, res);
        },
        definition.name,
        logger,
        options.metrics,
      ),
      options.host,
      options.port,
      {
        name: `The ${definition.name} service`,
        portSetting: `${definition.name.toUpperCase()}_PORT`,
      },
    );
  } catch (error) {
    await stopSubgraph?.();
    throw error;
  }
  return {
    url: server.url,
    app,
    close: async () => {
      await server.close();
      await stopSubgraph?.();
    },
  };
}
