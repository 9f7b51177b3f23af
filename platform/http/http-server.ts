import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningHttpServer {
  /** `http://host:port`, the host bracketed when it is an IPv6 address. */
  readonly url: string;
  close(): Promise<void>;
}

/** Listens with `app` on host and port (0 picks a free one); close drops open connections. */
export async function startHttpServer(app: Express, host: string, port: number): Promise<RunningHttpServer> {
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(listening)));
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

export function httpUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
