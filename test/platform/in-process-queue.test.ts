import { randomUUID } from 'node:crypto';
import { InProcessQueue } from '../../platform/queue/in-process-queue.js';
import { TOPICS } from '../../platform/queue/queue.js';
import { capturedLogger } from '../support/captured-logger.js';
import { eventually } from '../support/eventually.js';

/** A promise and the function that resolves it, for a handler a test lets finish when it says so. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('decisions "Queue": closing the in-process queue waits for the running handler (launcher stops it before the databases)', () => {
  it('close resolves only after the handler under way has finished, and nothing more is delivered', async () => {
    const { logger } = capturedLogger();
    const queue = new InProcessQueue(logger);
    await queue.start();
    const handlerGate = gate();
    const events: string[] = [];
    queue.consume(TOPICS.auditEntries, 'slow', async (message) => {
      events.push(`start ${String((message.data as { n: number }).n)}`);
      await handlerGate.opened;
      events.push(`end ${String((message.data as { n: number }).n)}`);
    });
    await queue.publish(TOPICS.auditEntries, { n: 1 }, randomUUID());
    await queue.publish(TOPICS.auditEntries, { n: 2 }, randomUUID());
    await eventually(async () => expect(events).toEqual(['start 1']));

    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);

    handlerGate.open();
    await closing;
    expect(events).toEqual(['start 1', 'end 1']);
  });

  it('logs how many messages were left undelivered instead of dropping them silently', async () => {
    const { logger, lines } = capturedLogger();
    const queue = new InProcessQueue(logger);
    await queue.start();
    await queue.publish(TOPICS.creditsSpent, { Amount: 1 }, randomUUID());
    await queue.publish(TOPICS.creditsSpent, { Amount: 2 }, randomUUID());
    await queue.close();
    const report = lines.find((line) => line.undelivered !== undefined);
    expect(report).toMatchObject({ undelivered: 2 });
    expect(report?.msg).toContain('not delivered');
  });

  it('a closed queue refuses to publish and is not ready', async () => {
    const { logger } = capturedLogger();
    const queue = new InProcessQueue(logger);
    await queue.start();
    await queue.close();
    expect(queue.isReady()).toBe(false);
    await expect(queue.publish(TOPICS.auditEntries, {}, randomUUID())).rejects.toThrow('closed');
    await expect(queue.whenReady()).rejects.toThrow('closed');
  });
});
