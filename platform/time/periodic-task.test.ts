import { capturedLogger, WARN_LEVEL } from '../../test/support/captured-logger.js';
import { eventually } from '../../test/support/eventually.js';
import { startPeriodicTask } from './periodic-task.js';

describe('decisions "Ids and versions": parked audit messages are retried on a timer that survives a failed run', () => {
  it('runs at once, then again after each interval, and a failed run is logged without stopping the timer', async () => {
    const { logger, lines } = capturedLogger();
    let runs = 0;
    const task = startPeriodicTask(
      'test task',
      10,
      async () => {
        runs++;
        if (runs === 2) throw new Error('the database is away');
      },
      logger,
    );
    await eventually(async () => expect(runs).toBeGreaterThanOrEqual(4));
    await task.stop();
    expect(lines.filter((line) => line.level === WARN_LEVEL).map((line) => line.task)).toEqual(['test task']);
  });

  it('stop waits for a run under way, and no run starts after it', async () => {
    const { logger } = capturedLogger();
    let finished = 0;
    let started = 0;
    const task = startPeriodicTask(
      'slow task',
      5,
      async () => {
        started++;
        await new Promise((resolve) => setTimeout(resolve, 50));
        finished++;
      },
      logger,
    );
    await eventually(async () => expect(started).toBeGreaterThanOrEqual(1));
    await task.stop();
    const startedBeforeStop = started;
    expect(finished).toBe(startedBeforeStop);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(started).toBe(startedBeforeStop);
  });
});
