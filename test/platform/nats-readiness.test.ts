import { randomUUID } from 'node:crypto';
import { JetStreamApiError } from '@nats-io/jetstream';
import { isStreamNotFound, NatsQueue } from '../../platform/queue/nats-queue.js';
import { TOPICS } from '../../platform/queue/queue.js';
import { capturedLogger } from '../support/captured-logger.js';
import { eventually } from '../support/eventually.js';
import { freePort } from '../support/free-port.js';
import { NatsServerProcess } from '../support/nats-server.js';
import { TempFolder } from '../support/temp-folder.js';

/** Whether the promise has settled by now (without waiting for it). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('decisions "Queue": readiness follows JetStream, not just the connection (a real nats-server of its own)', () => {
  let port: number;
  const stores: TempFolder[] = [];
  let server: NatsServerProcess | undefined;
  let queue: NatsQueue;

  /** A new, empty JetStream store: a restarted server finds no streams. */
  const storeDir = (): string => {
    const store = TempFolder.create('nats-store');
    stores.push(store);
    return store.path;
  };

  beforeAll(async () => {
    port = await freePort();
  });

  afterAll(async () => {
    await queue?.close();
    await server?.stop();
    for (const store of stores) store.remove();
  });

  it('stays not ready (isReady false, whenReady pending, publish refused) while JetStream is not enabled, and retries the set-up', async () => {
    server = await NatsServerProcess.start({ port });
    const { logger, lines } = capturedLogger();
    queue = new NatsQueue(`nats://127.0.0.1:${port}`, 'readiness-', logger, 'readiness-test');
    const received: unknown[] = [];
    queue.consume(
      TOPICS.auditEntries,
      'readiness-reader',
      async (message) => void received.push(message.data),
    );
    const ready = queue.whenReady();
    // Connected, but the set-up fails and is tried again.
    await eventually(
      async () =>
        expect(
          lines.filter((line) => line.msg === 'the NATS queue could not be set up; trying again').length,
        ).toBeGreaterThanOrEqual(2),
      10_000,
    );
    expect(queue.isReady()).toBe(false);
    expect(await settled(ready)).toBe(false);
    await expect(queue.publish(TOPICS.auditEntries, { n: 0 }, randomUUID())).rejects.toThrow('not ready');

    // The same server address, now with JetStream: the queue finds it without a restart of its own.
    await server.stop();
    server = await NatsServerProcess.start({ port, jetStreamStoreDir: storeDir() });
    await ready;
    expect(queue.isReady()).toBe(true);
    await queue.publish(TOPICS.auditEntries, { n: 1 }, randomUUID());
    await eventually(async () => expect(received).toEqual([{ n: 1 }]), 20_000);
  }, 60_000);

  it('after a reconnect to a server that lost its streams, makes them and the consumers again', async () => {
    const received: unknown[] = [];
    queue.consume(
      TOPICS.creditsSpent,
      'reconnect-reader',
      async (message) => void received.push(message.data),
    );
    await eventually(async () => {
      await queue.publish(TOPICS.creditsSpent, { n: 'before' }, randomUUID());
      expect(received).toContainEqual({ n: 'before' });
    }, 20_000);

    await server!.stop();
    await eventually(async () => expect(queue.isReady()).toBe(false), 10_000);
    server = await NatsServerProcess.start({ port, jetStreamStoreDir: storeDir() });
    await eventually(async () => expect(queue.isReady()).toBe(true), 30_000);

    await queue.publish(TOPICS.creditsSpent, { n: 'after' }, randomUUID());
    await eventually(async () => expect(received).toContainEqual({ n: 'after' }), 30_000);
  }, 90_000);
});

describe('decisions "Queue": only "stream not found" makes a stream; other stream-info failures are failures', () => {
  const apiError = (code: number, errCode: number, description: string) =>
    new JetStreamApiError({ code, err_code: errCode, description });

  it('stream not found (10059) means the stream is missing', () => {
    expect(isStreamNotFound(apiError(404, 10059, 'stream not found'))).toBe(true);
  });

  it.each([
    ['JetStream not enabled for the account', apiError(503, 10039, 'jetstream not enabled for account')],
    ['JetStream unavailable', apiError(503, 10008, 'JetStream system temporarily unavailable')],
    ['a timeout', new Error('TIMEOUT')],
  ])('%s is not "missing"', (_what, error) => {
    expect(isStreamNotFound(error)).toBe(false);
  });
});
