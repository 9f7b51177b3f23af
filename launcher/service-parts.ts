import type { Logger } from '../platform/logging/logger.js';
import type { StartedService } from './platform-context.js';

/**
 * What a service has opened (its database, its outbox relay, its HTTP host), each registered
 * with how to close it as soon as it is open, and closed in reverse order.
 */
export class ServiceParts {
  private readonly closers: (() => Promise<void>)[] = [];

  /** Registers how to close a part that is now open; answers the part. */
  add<T>(part: T, close: (part: T) => Promise<void>): T {
    this.closers.push(() => close(part));
    return part;
  }

  /** Closes every part, the last opened first; one that fails to close does not keep the others open. */
  async closeAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const close of this.closers.splice(0).reverse()) {
      await close().catch((error: unknown) => failures.push(error));
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, 'parts of the service failed to close');
  }
}

/**
 * Starts a service whose parts register themselves on ServiceParts. Stopping it closes them;
 * a start that fails part way (a busy port after the database opened, say) closes what it
 * had opened before the failure goes on, so nothing of it is left running.
 */
export async function startService(
  logger: Logger,
  start: (parts: ServiceParts) => Promise<Omit<StartedService, 'stop'>>,
): Promise<StartedService> {
  const parts = new ServiceParts();
  try {
    const started = await start(parts);
    return { ...started, stop: () => parts.closeAll() };
  } catch (error) {
    await parts
      .closeAll()
      .catch((closeError: unknown) =>
        logger.error({ err: closeError }, 'a part of the service that failed to start did not close'),
      );
    throw error;
  }
}
