import { EdgeError } from '../errors/EdgeError.js';

/** What held bytes are for: kept in the cache, or in transit to receivers outside it. */
export type HeldKind = 'cache' | 'transit';

/**
 * Every byte of media the edge holds, under one bound (`cache.maxBytes`): the cache's entries
 * (`cache`: the room reserved for each admitted object) and everything held outside it
 * (`transit`: objects fetched for receivers but not cached — not storable, too large, the cache
 * full, an unplanned object streamed through — and entries that left the cache while receivers
 * still read them). A slow or stalled receiver can keep an object alive; it cannot keep it alive
 * outside this count, and nothing outside the count can grow past it: a fetch whose bytes would
 * not fit waits (`changed`), and its origin connection with it (back-pressure).
 */
export class ByteBudget {
  readonly max: number;
  #cache = 0;
  #transit = 0;
  readonly #waiters = new Set<() => void>();

  constructor(max: number) {
    this.max = max;
  }

  held(kind?: HeldKind): number {
    return kind === 'cache' ? this.#cache : kind === 'transit' ? this.#transit : this.#cache + this.#transit;
  }

  /** Room left (may be negative while the cache admits a receiver's object past the bound). */
  get free(): number {
    return this.max - this.#cache - this.#transit;
  }

  take(kind: HeldKind, n: number): void {
    if (kind === 'cache') this.#cache += n;
    else this.#transit += n;
  }

  give(kind: HeldKind, n: number): void {
    if (n <= 0) return;
    if (kind === 'cache') this.#cache -= n;
    else this.#transit -= n;
    this.notify();
  }

  /** Something may have become free or evictable: wake every waiter to look again. */
  notify(): void {
    if (this.#waiters.size === 0) return;
    const ws = [...this.#waiters];
    this.#waiters.clear();
    for (const w of ws) w();
  }

  /** Fetches waiting for room now. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /**
   * Resolves at the next notify() (bytes given back, an entry unpinned or completed); rejects
   * with the signal's reason as an EdgeError when it aborts (the fetch's deadline or cancel).
   */
  changed(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(aborted(signal));
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        this.#waiters.delete(wake);
        reject(aborted(signal));
      };
      this.#waiters.add(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function aborted(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new EdgeError('ERR_EDGE_CANCELLED', `waiting for room in the byte budget: ${String(r)}`);
}
