import { startTracing } from '../platform/tracing/tracing.js';

/**
 * `npm start` starts every service and the gateway in this process;
 * `npm start -- <service>` starts one (its peers found through the *__ApiUrl settings).
 * Tracing, when configured, starts first, and the system is loaded only then, so the
 * instrumentations see its modules load. Signals are handled from the moment the system runs,
 * so a start still waiting for its queue stops cleanly too.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const stopTracing = await startTracing(process.env, args);
  const { launch } = await import('./launch.js');
  const launched = await launch(args, process.env, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
  if ('exitCode' in launched) process.exit(launched.exitCode);
  const { system, logger, ready } = launched;

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    system
      .stop()
      // The spans of the last requests are sent before the process exits.
      .then(() => stopTracing?.())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'stop failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // A stop before the system was ready ends the wait for it; that is no failure.
  await ready.catch((error: unknown) => {
    if (!stopping) throw error;
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`Start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
