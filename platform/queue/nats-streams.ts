import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';

/** Removes the streams made with a QUEUE_PREFIX on a shared NATS server (a test system's, a benchmark's). */
export async function deleteStreams(url: string, prefix: string): Promise<void> {
  const connection = await connect({ servers: url });
  try {
    const manager = await jetstreamManager(connection);
    for await (const name of manager.streams.names()) {
      if (name.startsWith(prefix)) await manager.streams.delete(name);
    }
  } finally {
    await connection.close();
  }
}
