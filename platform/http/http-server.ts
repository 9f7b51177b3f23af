import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningHttpServer {
  /** `http://host:port`, the host bracketed when it is an IPv6 address. */
  readonly url: string;
  close(): Promise<void>;
}

/** Who listens, for the message when it cannot: `the account service`, and its port's setting. */
export interface Listener {
  name: string;
  portSetting: string;
}

/**
 * Listens with `listener` on host and port (0 picks a free one); close drops open connections.
 * A port it cannot have stops the start with a message naming the address and its setting.
 */
export async function startHttpServer(
  listener: RequestListener,
  host: string,
  port: number,
  who: Listener,
): Promise<RunningHttpServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(listenError(error, host, port, who));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    url: httpUrl(host, boundPort),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function listenError(error: Error, host: string, port: number, { name, portSetting }: Listener): Error {
  const reason = (error as { code?: unknown }).code === 'EADDRINUSE' ? 'the port is in use' : error.message;
  return new Error(`${name} cannot listen on ${httpUrl(host, port)} (${portSetting}): ${reason}`, {
    cause: error,
  });
}

export function httpUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
