import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApolloGateway,
  RemoteGraphQLDataSource,
  type GraphQLDataSourceProcessOptions,
} from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { readSessionToken, SESSION_HEADER } from '../platform/auth/token-reader.js';
import type { Logger } from '../platform/logging/logger.js';
import { playgroundRouter } from './playground.js';

interface GatewayContext {
  token: string | undefined;
}

/** Passes the caller's session token on to every subgraph it asks. */
class TokenForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    const token = (context as Partial<GatewayContext>).token;
    if (token) request.http?.headers.set(SESSION_HEADER, token);
  }
}

export interface GatewayOptions {
  supergraphSdl: string;
  /** Where each subgraph runs now, by its name in the supergraph. */
  subgraphUrls: Record<string, string>;
  host: string;
  port: number;
  logger: Logger;
}

export interface RunningGateway {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The Apollo gateway over the checked-in supergraph. The token comes from `x-svc-auth`
 * (header, then cookie) and goes to the subgraphs as a header; the subgraphs check it.
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const gateway = new ApolloGateway({
    supergraphSdl: options.supergraphSdl,
    buildService: ({ name, url }) =>
      new TokenForwardingDataSource({ url: options.subgraphUrls[name] ?? url }),
    logger: options.logger.child({ component: 'apollo-gateway' }),
  });
  const server = new ApolloServer<GatewayContext>({
    gateway,
    includeStacktraceInErrorResponses: false,
    plugins: [ApolloServerPluginLandingPageDisabled()],
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
    express.json({ limit: '1mb' }),
    expressMiddleware(server, { context: async ({ req }) => ({ token: readSessionToken(req.headers) }) }),
  );

  const http = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(options.port, options.host, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
      });
      await server.stop();
    },
  };
}
