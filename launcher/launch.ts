import { loadSettings, SettingsError } from '../platform/config/settings.js';
import { createLogger, type Logger } from '../platform/logging/logger.js';
import { inProcessQueueProblem, isStartable, STARTABLE, startSystem, type RunningSystem } from './system.js';

export interface LaunchOutput {
  out(text: string): void;
  err(text: string): void;
}

export type Launched =
  | { readonly exitCode: number }
  | {
      readonly system: RunningSystem;
      readonly logger: Logger;
      /** Resolves once every process is ready and "Ready:" with each address has been printed. */
      readonly ready: Promise<void>;
    };

/**
 * What `npm start [-- <process>...]` does, short of owning the process (exit codes and
 * signals are main.ts's): checks the names and the settings, starts the system, and prints
 * every address once everything is ready (CONTRACT section 1).
 */
export async function launch(
  args: string[],
  env: NodeJS.ProcessEnv,
  output: LaunchOutput,
): Promise<Launched> {
  const unknown = args.filter((name) => !isStartable(name));
  if (unknown.length > 0) {
    output.err(`Unknown service: ${unknown.join(', ')}. Choose from: ${STARTABLE.join(', ')}.\n`);
    return { exitCode: 2 };
  }
  const processes = args.filter(isStartable);
  let settings;
  try {
    settings = loadSettings({ env });
  } catch (error) {
    output.err(`${error instanceof SettingsError ? error.message : String(error)}\n`);
    return { exitCode: 1 };
  }
  const chosen = processes.length > 0 ? processes : STARTABLE;
  const queueProblem = inProcessQueueProblem(chosen, settings);
  if (queueProblem) {
    output.err(`${queueProblem}\n`);
    return { exitCode: 1 };
  }
  const logger = createLogger(settings.logLevel);
  const system = await startSystem({ settings, processes: chosen, logger });
  const ready = system.whenReady().then(() => {
    output.out(readyReport(system.urls));
    // The same addresses for log collectors, which read JSON lines, not the block people read.
    logger.info({ urls: system.urls }, 'ready');
  });
  return { system, logger, ready };
}

/** The lines `npm start` prints when ready; CI and people read the addresses from them. */
export function readyReport(urls: RunningSystem['urls']): string {
  const lines = Object.entries(urls).map(([name, url]) => `  ${name.padEnd(9)} ${url}`);
  return `Ready:\n${lines.join('\n')}\n`;
}
