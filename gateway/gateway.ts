import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { readSessionToken } from '../platform/auth/token-reader.js';
import { operationLimitsPlugin } from '../platform/graphql/operation-limits.js';
import { notFoundHandler, problemErrorHandler } from '../platform/http/error-handler.js';
import { startHttpServer } from '../platform/http/http-server.js';
import type { Logger } from '../platform/logging/logger.js';
import type { Metrics } from '../platform/metrics/metrics.js';
import { operatedListener } from '../platform/http/operated-listener.js';
import { notingRoute } from '../platform/http/request-record.js';
import { formatGatewayError } from './gateway-errors.js';
import { playgroundRouter } from './playground.js';
import { SubgraphDataSource, type GatewayContext } from './subgraph-data-source.js';

export interface GatewayOptions {
  supergraphSdl: string;
  /** Where each subgraph runs now, by its name in the supergraph. */
  subgraphUrls: Record<string, string>;
  host: string;
  port: number;
  logger: Logger;
  metrics: Metrics;
}

export interface RunningGateway {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The Apollo gateway over the checked-in supergraph. The token comes from `x-svc-auth`
 * (header, then cookie) and goes to the subgraphs as a header; the subgraphs check it.
 * Every REST-style error (a path it does not serve, a body that is not JSON) is problem
 * details, as the services answer them (CONTRACT section 7).
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const logger = options.logger;
  const gateway = new ApolloGateway({
    supergraphSdl: options.supergraphSdl,
    buildService: ({ name, url }) => {
      const address = options.subgraphUrls[name] ?? url;
      if (!address) throw new Error(`The supergraph names no address for the ${name} subgraph.`);
      return new SubgraphDataSource(name, address, logger);
    },
    logger: logger.child({ component: 'apollo-gateway' }),
  });
  const server = new ApolloServer<GatewayContext>({
    gateway,
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) => formatGatewayError(formatted, error, logger),
    plugins: [ApolloServerPluginLandingPageDisabled(), operationLimitsPlugin()],
  });
  await server.start();

  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz/startup', (_req, res) => {
    res.json({ status: 'ready' });
  });
  app.use(playgroundRouter());
  app.use(
    '/graphql',
    notingRoute('/graphql'),
    express.json({ limit: '1mb' }),
    expressMiddleware(server, { context: async ({ req }) => ({ token: readSessionToken(req.headers) }) }),
  );

  app.use(notFoundHandler());
  app.use(problemErrorHandler(logger));

  let http;
  try {
    http = await startHttpServer(
      operatedListener(app, 'gateway', logger, options.metrics),
      options.host,
      options.port,
      {
        name: 'The gateway',
        portSetting: 'GATEWAY_PORT',
      },
    );
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: http.url,
    close: async () => {
      await http.close();
      await server.stop();
    },
  };
}
