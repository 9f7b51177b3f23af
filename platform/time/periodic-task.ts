import type { Logger } from '../logging/logger.js';

export interface PeriodicTask {
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

/**
 * Runs `task` now and then every `intervalMs`, one run at a time. A run that fails is logged
 * (with `name`) and the next one comes as planned: a task on a timer has no caller to tell.
 */
export function startPeriodicTask(
  name: string,
  intervalMs: number,
  task: () => Promise<void>,
  logger: Logger,
): PeriodicTask {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const run = (): void => {
    running = task()
      .catch((error: unknown) =>
        logger.warn({ err: error, task: name }, `${name} failed; it runs again later`),
      )
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(run, intervalMs);
      });
  };
  timer = setTimeout(run, 0);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
