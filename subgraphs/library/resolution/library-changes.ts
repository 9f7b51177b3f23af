import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../../../platform/logging/logger.js';
import { NOTICES, type Queue } from '../../../platform/queue/queue.js';
import type { SnapshotCache } from './snapshot-cache.js';

const libraryChanged = z.object({ organizationId: z.uuid(), origin: z.string() });

/**
 * Keeps every replica's snapshots in step (decisions "The read path"): a committed library write
 * drops its organization's snapshot here at once and announces it; the other replicas hear it
 * and drop theirs, and drop all of them when they may have missed an announcement. Their own
 * revision check stays the net under a notice lost on the way.
 */
export class LibraryChanges {
  /** This process, so it does not drop again what it dropped when it wrote. */
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
        if (notice.data.origin !== this.origin) this.snapshots.invalidate(notice.data.organizationId);
      },
      missed: () => this.snapshots.invalidateAll(),
    });
  }

  changed(organizationId: string): void {
    this.snapshots.invalidate(organizationId);
    this.queue.announce(NOTICES.libraryChanged, { organizationId, origin: this.origin });
  }
}
