import type { Database } from '../../../platform/db/database.js';
import type { Logger } from '../../../platform/logging/logger.js';
import { loadSnapshot, type LibrarySnapshot } from './library-snapshot.js';
import { currentRevision } from './revisions.js';

interface Entry {
  snapshot: Promise<LibrarySnapshot>;
  /** The snapshot once loaded, for callers that need not wait. */
  loaded?: LibrarySnapshot;
  /** When its revision was last compared with the database's. */
  checkedAt: number;
  checking: boolean;
}

/**
 * Each organization's compiled library, as the read path serves it. A write in this process drops
 * its organization's snapshot at once (RevisionedTransactions), and a change event from another
 * replica does the same (decisions "The read path"); as a net under both, a snapshot whose
 * revision was last compared more than `recheckMs` ago is compared again in the background (one
 * tiny query), so no write stays unseen for much longer than that. One load at a time per
 * organization: requests that arrive while it loads wait for the same one.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly orm: Database,
    private readonly logger: Logger,
    private readonly recheckMs = 500,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(organizationId: string): Promise<LibrarySnapshot> {
    const entry = this.entries.get(organizationId);
    if (!entry) return this.load(organizationId);
    this.checkIfDue(organizationId, entry);
    return entry.snapshot;
  }

  /** The organization's snapshot when one is loaded, without waiting; undefined while there is none. */
  loaded(organizationId: string): LibrarySnapshot | undefined {
    const entry = this.entries.get(organizationId);
    if (!entry?.loaded) return undefined;
    this.checkIfDue(organizationId, entry);
    return entry.loaded;
  }

  private checkIfDue(organizationId: string, entry: Entry): void {
    if (!entry.checking && this.now() - entry.checkedAt > this.recheckMs)
      void this.recheck(organizationId, entry);
  }

  /** The organization's library changed: its next read loads it again. */
  invalidate(organizationId: string): void {
    this.entries.delete(organizationId);
  }

  /** Every organization's library may have changed unseen (change events were missed). */
  invalidateAll(): void {
    this.entries.clear();
  }

  private load(organizationId: string): Promise<LibrarySnapshot> {
    const snapshot = loadSnapshot(this.orm, organizationId);
    const entry: Entry = { snapshot, checkedAt: this.now(), checking: false };
    this.entries.set(organizationId, entry);
    // A failed load is not kept: the next read tries again (and this one answers the failure).
    snapshot.then(
      (loaded) => (entry.loaded = loaded),
      () => {
        if (this.entries.get(organizationId) === entry) this.entries.delete(organizationId);
      },
    );
    return snapshot;
  }

  private async recheck(organizationId: string, entry: Entry): Promise<void> {
    entry.checking = true;
    try {
      const [snapshot, revision] = await Promise.all([
        entry.snapshot,
        currentRevision(this.orm, organizationId),
      ]);
      if (snapshot.revision !== revision && this.entries.get(organizationId) === entry)
        this.invalidate(organizationId);
    } catch (error) {
      this.logger.warn(
        { err: error, organizationId },
        'could not compare a library snapshot with the database',
      );
    } finally {
      entry.checkedAt = this.now();
      entry.checking = false;
    }
  }
}
