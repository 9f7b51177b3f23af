import type { DomainError } from '../errors/domain-errors.js';

/**
 * At most `max` runs of some costly work at once; a run beyond that is refused at once with
 * the error `refuse` makes, rather than queued, so callers cannot pile up work (or memory)
 * behind it.
 */
export class ConcurrencyLimit {
  private running = 0;

  constructor(
    private readonly max: number,
    private readonly refuse: () => DomainError,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) throw this.refuse();
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
    }
  }
}
