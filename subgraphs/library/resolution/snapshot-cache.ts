import type { Database } from '../../../platform/db/database.js';
import type { Logger } from '../../../platform/logging/logger.js';
import type { DataKeys } from '../secrets/data-keys.js';
import { loadSnapshot, patchSnapshot, type LibrarySnapshot } from './library-snapshot.js';
import { currentRevision, type LibraryChange } from './revisions.js';

interface Entry {
  /** The snapshot as it will be once its load or patches are done. */
  snapshot: Promise<LibrarySnapshot>;
  /** The snapshot once it is done, for callers that need not wait; unset while a load or patch runs. */
  loaded?: LibrarySnapshot;
  /** The revision `snapshot` will be at, at least; unknown while a whole load runs. */
  revision?: number;
  /** When its revision was last compared with the database's. */
  checkedAt: number;
  checking: boolean;
}

/**
 * Each organization's compiled library, as the read path serves it (decisions "The read path").
 * A committed write is applied at once, in this process by the writer and in the others by its
 * notice: one that changed only some variables patches the snapshot (reading those variables
 * again), any other drops it, to be read whole by the next request. As a net under lost
 * notices, a snapshot whose revision was last compared more than `recheckMs` ago is compared
 * again in the background (one tiny query), so no write stays unseen for much longer than that.
 * Requests that arrive while a snapshot is read or patched wait for it: a writer reads its write.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly orm: Database,
    private readonly secrets: DataKeys,
    private readonly logger: Logger,
    private readonly recheckMs = 500,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(organizationId: string): Promise<LibrarySnapshot> {
    const entry = this.entries.get(organizationId);
    if (!entry) return this.follow(organizationId, this.newEntry(organizationId)).snapshot;
    this.checkIfDue(organizationId, entry);
    return entry.snapshot;
  }

  /** The organization's snapshot when one is done, without waiting; undefined while there is none. */
  loaded(organizationId: string): LibrarySnapshot | undefined {
    const entry = this.entries.get(organizationId);
    if (!entry?.loaded) return undefined;
    this.checkIfDue(organizationId, entry);
    return entry.loaded;
  }

  /** A committed write: patched in when it is the next revision and says which variables it changed, else dropped. */
  apply(change: LibraryChange): void {
    const entry = this.entries.get(change.organizationId);
    if (!entry) return;
    if (entry.revision !== undefined && entry.revision >= change.revision) return;
    const { variables } = change;
    if (!variables || entry.revision !== change.revision - 1) {
      this.invalidate(change.organizationId);
      return;
    }
    entry.revision = change.revision;
    entry.loaded = undefined;
    entry.snapshot = entry.snapshot.then((snapshot) =>
      patchSnapshot(this.orm, this.secrets, snapshot, change.revision, variables),
    );
    this.follow(change.organizationId, entry);
  }

  /** The organization's library changed in a way not told: its next read loads it whole. */
  invalidate(organizationId: string): void {
    this.entries.delete(organizationId);
  }

  /** Every organization's library may have changed unseen (notices were missed). */
  invalidateAll(): void {
    this.entries.clear();
  }

  private newEntry(organizationId: string): Entry {
    const entry: Entry = {
      snapshot: loadSnapshot(this.orm, this.secrets, organizationId),
      checkedAt: this.now(),
      checking: false,
    };
    this.entries.set(organizationId, entry);
    return entry;
  }

  /**
   * Once the entry's snapshot is done: it serves without waiting, unless more was chained on it
   * meanwhile. A failed one is not kept: the next read tries again (and this one answers the failure).
   */
  private follow(organizationId: string, entry: Entry): Entry {
    const pending = entry.snapshot;
    pending.then(
      (snapshot) => {
        if (entry.snapshot !== pending) return;
        entry.revision = Math.max(entry.revision ?? 0, snapshot.revision);
        entry.loaded = snapshot;
      },
      () => {
        if (this.entries.get(organizationId) === entry && entry.snapshot === pending)
          this.entries.delete(organizationId);
      },
    );
    return entry;
  }

  private checkIfDue(organizationId: string, entry: Entry): void {
    if (!entry.checking && this.now() - entry.checkedAt > this.recheckMs)
      void this.recheck(organizationId, entry);
  }

  private async recheck(organizationId: string, entry: Entry): Promise<void> {
    entry.checking = true;
    try {
      const [snapshot, revision] = await Promise.all([
        entry.snapshot,
        currentRevision(this.orm, organizationId),
      ]);
      if (snapshot.revision < revision && this.entries.get(organizationId) === entry)
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
