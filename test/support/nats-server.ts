import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

const NATS_SERVER = '/usr/sbin/nats-server';

/**
 * A nats-server of a test's own, run as a child process on a given port, so a test can
 * start it without JetStream, stop it and start it again with JetStream, without touching
 * the server other tests share.
 */
export class NatsServerProcess {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /**
   * Starts nats-server on 127.0.0.1:port, with JetStream (storing under storeDir) when given
   * one, and requiring a token when given one (a client without it is refused).
   */
  static async start(options: {
    port: number;
    jetStreamStoreDir?: string;
    authToken?: string;
  }): Promise<NatsServerProcess> {
    const args = ['-a', '127.0.0.1', '-p', String(options.port)];
    if (options.jetStreamStoreDir) args.push('-js', '-sd', options.jetStreamStoreDir);
    if (options.authToken) args.push('--auth', options.authToken);
    const server = new NatsServerProcess(
      spawn(NATS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] }),
      options.port,
    );
    await server.waitUntilListening();
    return server;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }

  private async waitUntilListening(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`nats-server exited: ${this.output}`);
      if (await accepts(this.port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await this.stop();
    throw new Error(`nats-server did not listen on ${this.port}: ${this.output}`);
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
