import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { NatsQueue } from '../../platform/queue/nats-queue.js';
import { retryDelayMs, TOPICS, type QueueMessage } from '../../platform/queue/queue.js';
import { capturedLogger, WARN_LEVEL } from '../support/captured-logger.js';
import { eventually } from '../support/eventually.js';
import { freePort } from '../support/free-port.js';
import { NatsServerProcess } from '../support/nats-server.js';
import { TempFolder } from '../support/temp-folder.js';

/** The timers and sockets this process holds now (what would keep it from exiting). */
function openHandles(): string[] {
  return process
    .getActiveResourcesInfo()
    .filter((kind) => kind === 'Timeout' || kind === 'TCPSocketWrap' || kind === 'TCPWRAP')
    .sort();
}

describe('decisions "Queue": close() stops consuming after the handlers running now finish, then disconnects (queue.ts)', () => {
  const store = TempFolder.create('nats-store');
  let server: NatsServerProcess;

  beforeAll(async () => {
    server = await NatsServerProcess.start({ port: await freePort(), jetStreamStoreDir: store.path });
  });

  afterAll(async () => {
    await server.stop();
    store.remove();
  });

  it('a message whose handler runs when close() is called is acked before the connection drains, so it is not delivered again', async () => {
    const prefix = `close-${randomUUID().slice(0, 8)}-`;
    const { logger } = capturedLogger();
    const first = new NatsQueue(server.url, prefix, logger, 'close-test');
    let started = false;
    let finished = false;
    first.consume(TOPICS.auditEntries, 'slow-reader', async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 500));
      finished = true;
    });
    await first.whenReady();
    await first.publish(TOPICS.auditEntries, { n: 1 }, randomUUID());
    await eventually(async () => expect(started).toBe(true), 10_000, 10);

    const closing = Date.now();
    await first.close();
    const closeMs = Date.now() - closing;
    expect(finished).toBe(true);

    const connection = await connect({ servers: server.url });
    try {
      const manager = await jetstreamManager(connection);
      const info = await manager.consumers.info(`${prefix}${TOPICS.auditEntries}`, 'slow-reader');
      expect(info.num_ack_pending).toBe(0);
      expect(info.ack_floor.stream_seq).toBe(1);
    } finally {
      await connection.close();
    }
    // The handler had up to 500 ms left and the drain takes a few; what must not happen is a close
    // that waits out the 30 s ack wait. The checks above and below prove the ack itself.
    expect(closeMs).toBeLessThan(5_000);

    const second = new NatsQueue(server.url, prefix, logger, 'close-test');
    const received: QueueMessage[] = [];
    second.consume(TOPICS.auditEntries, 'slow-reader', async (message) => void received.push(message));
    try {
      await second.whenReady();
      await second.publish(TOPICS.auditEntries, { n: 2 }, randomUUID());
      await eventually(async () => expect(received.map((message) => message.data)).toContainEqual({ n: 2 }));
      expect(received.map((message) => message.data)).toEqual([{ n: 2 }]);
    } finally {
      await second.close();
    }
  }, 30_000);
});

describe('decisions "Queue": the connection is retried with each failure logged, and close() ends the retries', () => {
  it('a queue pointed at a port nothing listens on logs each failed attempt with the address, and close() leaves nothing running', async () => {
    const before = openHandles();
    const url = `nats://127.0.0.1:${await freePort()}`;
    const { logger, lines } = capturedLogger();
    const queue = new NatsQueue(url, 'dead-', logger, 'dead-port-test');
    await queue.start();
    const failures = (): unknown[] =>
      lines.filter(
        (line) =>
          line.level === WARN_LEVEL &&
          line.url === url &&
          line.msg === 'could not connect to NATS; trying again',
      );
    // From the third failure on, the queue pauses at least 2 s before trying again.
    await eventually(async () => expect(failures().length).toBeGreaterThanOrEqual(3), 10_000, 20);

    const closing = Date.now();
    await queue.close();
    const attempts = failures().length;
    expect(Date.now() - closing).toBeLessThan(1_500);
    await eventually(async () => expect(openHandles()).toEqual(before), 2_000, 20);
    // Longer than the pause it was in: a retry close had not ended would have been logged by now.
    await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempts) + 500));
    expect(failures()).toHaveLength(attempts);
    expect(queue.isReady()).toBe(false);
  });

  it('connects anew when the client gives up on its connection for good (the server refused it twice on reconnecting)', async () => {
    const port = await freePort();
    const store = TempFolder.create('nats-store');
    const { logger, lines } = capturedLogger();
    let server = await NatsServerProcess.start({ port, jetStreamStoreDir: store.path });
    const queue = new NatsQueue(server.url, 'gave-up-', logger, 'gave-up-test');
    try {
      await queue.whenReady();
      // A server that demands a token: the client's reconnects are refused, and after two
      // refusals it closes the connection for good.
      await server.stop();
      server = await NatsServerProcess.start({ port, jetStreamStoreDir: store.path, authToken: 'not-ours' });
      await eventually(
        async () =>
          expect(lines.map((line) => line.msg)).toContain('the NATS connection closed; connecting again'),
        20_000,
      );
      expect(queue.isReady()).toBe(false);
      await server.stop();
      server = await NatsServerProcess.start({ port, jetStreamStoreDir: store.path });
      await eventually(async () => expect(queue.isReady()).toBe(true), 30_000);
      await queue.publish(TOPICS.creditsSpent, { n: 1 }, randomUUID());
    } finally {
      await queue.close();
      await server.stop();
      store.remove();
    }
  }, 60_000);
});
