import type { Caller } from '../../platform/auth/caller.js';
import type { Logger } from '../../platform/logging/logger.js';
import type { AuthorView, StampView } from './library-views.js';

/** Where names come from: the account service's POST /users/names/lookup, with the caller's token. */
export interface NameLookup {
  lookupNames(token: string, userIds: string[]): Promise<{ id: string; name: string }[]>;
}

export type Named<V> = V & { createdBy?: AuthorView; updatedBy?: AuthorView };

/**
 * Puts names to who made and changed records (spec 2: "Name resolved through the account service;
 * absent if it cannot be asked"): one lookup for every id of the answer, with the caller's token;
 * when the account service cannot be asked, or does not know an id, the name is left out and the
 * answer is still given.
 */
export class AuthorNames {
  constructor(
    private readonly accounts: NameLookup,
    private readonly logger: Logger,
  ) {}

  /** Looks up, in one call, the names of everyone who made or changed these views; answers how to name each. */
  async lookup(
    caller: Caller,
    views: readonly StampView[],
  ): Promise<<V extends StampView>(view: V) => Named<V>> {
    const ids = [
      ...new Set(views.flatMap((view) => [view.createdById, view.updatedById]).filter((id) => id !== null)),
    ];
    const names = new Map<string, string>();
    if (ids.length > 0) {
      try {
        for (const { id, name } of await this.accounts.lookupNames(caller.token, ids)) names.set(id, name);
      } catch (error) {
        this.logger.warn({ err: error }, 'author names left out: the account service could not be asked');
      }
    }
    const author = (id: string | null): { id: string; name: string } | undefined => {
      const name = id === null ? undefined : names.get(id);
      return id !== null && name !== undefined ? { id, name } : undefined;
    };
    return (view) => {
      const createdBy = author(view.createdById);
      const updatedBy = author(view.updatedById);
      return { ...view, ...(createdBy ? { createdBy } : {}), ...(updatedBy ? { updatedBy } : {}) };
    };
  }

  async named<V extends StampView>(caller: Caller, views: V[]): Promise<Named<V>[]> {
    const name = await this.lookup(caller, views);
    return views.map(name);
  }

  async one<V extends StampView>(caller: Caller, view: V): Promise<Named<V>> {
    return (await this.lookup(caller, [view]))(view);
  }
}
