import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../../../platform/logging/logger.js';
import { NOTICES, type Queue } from '../../../platform/queue/queue.js';
import type { LibraryChange } from './revisions.js';
import type { SnapshotCache } from './snapshot-cache.js';

const libraryChanged = z.object({
  organizationId: z.uuid(),
  origin: z.string(),
  revision: z.number().int().positive(),
  variables: z.array(z.number().int()).optional(),
});

/**
 * Keeps every replica's snapshots in step (decisions "The read path"): a committed library write
 * is applied to its organization's snapshot here at once and announced; the other replicas hear it
 * and apply it to theirs, and drop all of them when they may have missed an announcement. Their
 * own revision check stays the net under a notice lost on the way.
 */
export class LibraryChanges {
  /** This process, so it does not apply again what it applied when it wrote. */
  private readonly origin = randomUUID();

  constructor(
    private readonly queue: Queue,
    private readonly snapshots: SnapshotCache,
    private readonly logger: Logger,
  ) {}

  listen(): void {
    this.queue.listen(NOTICES.libraryChanged, {
      heard: (data) => {
        const notice = libraryChanged.safeParse(data);
        if (!notice.success) {
          this.logger.warn({ data }, 'a library-changed notice that names no organization was ignored');
          return;
        }
        const { origin, ...change } = notice.data;
        if (origin !== this.origin) this.snapshots.apply(change);
      },
      missed: () => this.snapshots.invalidateAll(),
    });
  }

  changed(change: LibraryChange): void {
    this.snapshots.apply(change);
    this.queue.announce(NOTICES.libraryChanged, { ...change, origin: this.origin });
  }
}
