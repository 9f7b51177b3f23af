import { loadSettings, SettingsError, type ProcessName } from '../platform/config/settings.js';
import { createLogger } from '../platform/logging/logger.js';
import { STARTABLE, startSystem } from './system.js';

/**
 * `npm start` starts every service and the gateway in this process;
 * `npm start -- <service>` starts one (its peers found through the *__ApiUrl settings).
 */
async function main(): Promise<void> {
  const requested = process.argv.slice(2);
  const unknown = requested.filter((name) => !STARTABLE.includes(name as ProcessName));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown service: ${unknown.join(', ')}. Choose from: ${STARTABLE.join(', ')}.\n`);
    process.exit(2);
  }
  let settings;
  try {
    settings = loadSettings();
  } catch (error) {
    process.stderr.write(`${error instanceof SettingsError ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const logger = createLogger(settings.logLevel);
  const system = await startSystem({
    settings,
    processes: requested.length > 0 ? (requested as ProcessName[]) : STARTABLE,
    logger,
  });
  const lines = Object.entries(system.urls).map(([name, url]) => `  ${name.padEnd(9)} ${url}`);
  process.stdout.write(`Ready:\n${lines.join('\n')}\n`);

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    system.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
