/**
 * Collects the keys asked for during one tick and loads them with one call, so a list of
 * N references costs one query instead of N (federation asks for each entity reference
 * separately). One loader per request: results are never shared between callers.
 */
export class BatchLoader<K, V> {
  private pending: { key: K; resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[] =
    [];

  constructor(private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>) {}

  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      this.pending.push({ key, resolve, reject });
      if (this.pending.length === 1) queueMicrotask(() => void this.dispatch());
    });
  }

  private async dispatch(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const found = await this.loadMany([...new Set(batch.map((entry) => entry.key))]);
      for (const entry of batch) entry.resolve(found.get(entry.key));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}

/** One value per request context, made on first use (a loader, say). */
export function perRequest<C extends object, T>(create: (context: C) => T): (context: C) => T {
  const values = new WeakMap<C, T>();
  return (context) => {
    let value = values.get(context);
    if (value === undefined) {
      value = create(context);
      values.set(context, value);
    }
    return value;
  };
}
