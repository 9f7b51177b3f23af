import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { SESSION_HEADER } from '../platform/auth/token-reader.js';
import { InternalError, ServiceUnavailableError } from '../platform/errors/domain-errors.js';
import type { Logger } from '../platform/logging/logger.js';

export interface GatewayContext {
  token: string | undefined;
}

/** Statuses that mean the subgraph, or what stands before it, cannot answer now. */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

/**
 * How the gateway calls one subgraph: it passes the caller's session token on, and when the
 * call fails it says which subgraph failed, never where it runs (the address is logged, once:
 * here for an unavailable subgraph, by the error formatter for any other failure).
 */
export class SubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(
    private readonly subgraph: string,
    url: string,
    private readonly logger: Logger,
  ) {
    super({ url });
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    const token = (context as Partial<GatewayContext>).token;
    if (token) request.http?.headers.set(SESSION_HEADER, token);
  }

  override didEncounterError(error: Error, _fetchRequest: unknown, fetchResponse?: { status: number }): void {
    const status = fetchResponse?.status;
    if (status === undefined || UNAVAILABLE_STATUSES.has(status)) {
      // Answered to the caller without the address, so it is logged here.
      this.logger.error(
        { err: error, subgraph: this.subgraph, url: this.url, status },
        'subgraph unavailable',
      );
      throw new ServiceUnavailableError(`The ${this.subgraph} subgraph is unavailable; try again later.`, {
        subgraph: this.subgraph,
      });
    }
    // A fault: the error formatter logs it (this message and its cause) and answers a bare 500.
    throw new InternalError(
      `The ${this.subgraph} subgraph call to ${this.url} failed with status ${status}.`,
      {
        cause: error,
      },
    );
  }
}
