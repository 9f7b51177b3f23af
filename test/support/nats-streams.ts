import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';

/** Removes the streams a test system made on the shared NATS server (those with its prefix). */
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
