import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startPinned, type Started } from './pinned-process.js';

/**
 * How the read-path benchmark runs the system. `one-process`: every service and the gateway in
 * one process, as `npm start` runs them (the only way on the embedded defaults: the in-process
 * queue connects the services of one process only). `library-alone`: the library service in a
 * process of its own, as a production replica runs (`npm start -- library`), and the other
 * services with the gateway in a second, both on DATABASE_URL and NATS_URL.
 */
export type Layout = 'one-process' | 'library-alone';

/** Library alone when DATABASE_URL and NATS_URL are both set, unless BENCH_ONE_PROCESS=1 asks for one process. */
export function chooseLayout(env: NodeJS.ProcessEnv): Layout {
  if (env.BENCH_ONE_PROCESS === '1') return 'one-process';
  return env.DATABASE_URL && env.NATS_URL ? 'library-alone' : 'one-process';
}

export interface BenchSystem {
  /** Each started process's address by service name, as `Ready:` printed them. */
  urls: Record<string, string>;
  /** The process the library service runs in, the one measured: pinned to the server's core. */
  library: Started;
  /**
   * library-alone only: stops the library's process and starts a new one in its place (same port,
   * same settings), as a replica starts on a library already built. Undefined in one process.
   */
  restartLibrary?(): Promise<void>;
  stop(): Promise<void>;
}

const MAIN = fileURLToPath(new URL('../launcher/main.js', import.meta.url));
const OTHERS = ['account', 'audit', 'identity', 'gateway'];

/**
 * Starts the system in `layout`: the library's process pinned to `cores.server` with
 * `nodeOptions` (profiling flags go to the process measured); in `library-alone` the others'
 * process pinned to `cores.others`. `env` carries the settings both share (every port 0).
 */
export async function startBenchSystem(
  layout: Layout,
  env: NodeJS.ProcessEnv,
  nodeOptions: string[],
  cores: { server: number; others: number },
): Promise<BenchSystem> {
  if (layout === 'one-process') {
    const library = await startPinned(cores.server, MAIN, [], nodeOptions, env, readyWith(5));
    return { urls: addresses(library), library, stop: () => library.stop() };
  }
  // The gateway of the others' process is told where the library will listen before it does.
  const libraryUrl = `http://127.0.0.1:${await freePort()}`;
  const others = await startPinned(
    cores.others,
    MAIN,
    OTHERS,
    [],
    { ...env, Library__ApiUrl: libraryUrl },
    readyWith(OTHERS.length),
  );
  try {
    const peers = addresses(others);
    const startLibrary = () =>
      startPinned(
        cores.server,
        MAIN,
        ['library'],
        nodeOptions,
        {
          ...env,
          LIBRARY_PORT: new URL(libraryUrl).port,
          Account__ApiUrl: peers.account,
          Audit__AuditApiUrl: peers.audit,
          Identity__ApiUrl: peers.identity,
        },
        readyWith(1),
      );
    const system: BenchSystem = {
      library: await startLibrary(),
      urls: {},
      restartLibrary: async () => {
        await system.library.stop();
        system.library = await startLibrary();
      },
      stop: async () => {
        await system.library.stop();
        await others.stop();
      },
    };
    system.urls = { ...peers, ...addresses(system.library) };
    return system;
  } catch (error) {
    await others.stop();
    throw error;
  }
}

/** `Ready:` and `count` address lines, as launcher/launch.ts prints them. */
function readyWith(count: number): RegExp {
  return new RegExp(`Ready:\\n(?: +\\S+ +http\\S+\\n){${count}}`);
}

function addresses(started: Started): Record<string, string> {
  return Object.fromEntries(
    [...started.output.matchAll(/^ +(\S+) +(http\S+)$/gm)].map((match) => [match[1]!, match[2]!]),
  );
}

/** A port free now (the kernel's choice for port 0), for a process started next. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
