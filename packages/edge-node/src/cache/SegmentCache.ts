import { ByteBudget } from './ByteBudget.js';
import { CacheEntry } from './CacheEntry.js';
import type { EdgeWait } from './EdgeWait.js';

export interface SegmentCacheOptions {
  /** The bound on every media byte the edge holds, cached or in transit (ByteBudget). */
  maxBytes: number;
  maxAgeMs: number;
  now: () => number;
  /** Told when an entry could not be admitted and is served through without caching. */
  onBypass?: (entry: CacheEntry) => void;
  onEvict?: (entry: CacheEntry, reason: 'lru' | 'age') => void;
  /** Told when a fetch had to wait for room in the budget (its origin connection waits too). */
  onWait?: () => void;
  /**
   * Told when a new entry (an origin fetch) is made for a key this cache dropped before and still
   * remembers: the object crosses the backhaul again, why it left the first time, and its size as
   * then known (its length, else what had arrived).
   */
  onRefetch?: (key: string, after: DropReason, bytes: number) => void;
}

/**
 * Why a key left the cache: `evicted` (complete and cached, then evicted for room or age),
 * `failed` (its fetch failed: cut, timed out, cancelled), `uncached` (never admitted: served
 * through, or replaced while pending).
 */
export type DropReason = 'evicted' | 'failed' | 'uncached';

/** Keys remembered as recently dropped (evicted, bypassed, failed): a bound, oldest forgotten first. */
const MAX_DROPPED = 4096;

/**
 * Segment store bounded in bytes and age, inside the edge's one byte budget (ByteBudget): the
 * cache's entries and whatever is held outside it for receivers together stay within `maxBytes`.
 * Map order is LRU order (a hit moves the entry to the end). An entry being written or read is
 * never evicted from under its readers; when nothing can be evicted to make room, a new entry is
 * served through uncached instead of failing, its bytes counted as transit.
 */
export class SegmentCache {
  readonly #entries = new Map<string, CacheEntry>();
  readonly #o: SegmentCacheOptions;
  readonly budget: ByteBudget;
  /** When and why each recently dropped key left the cache (insertion order = age order). */
  readonly #dropped = new Map<string, { at: number; why: DropReason; bytes: number }>();

  constructor(options: SegmentCacheOptions) {
    this.#o = options;
    this.budget = new ByteBudget(options.maxBytes);
  }

  /** Bytes reserved by cached entries. */
  get bytes(): number {
    return this.budget.held('cache');
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * A live (not failed, not expired) entry a new receiver can read from the start, moved to the
   * LRU tail. A pass-through entry that has dropped bytes is not one: the receiver gets its own.
   */
  get(key: string): CacheEntry | undefined {
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    if (e.state === 'failed' || (this.#evictable(e) && this.#expired(e))) {
      this.#remove(e, 'age');
      return undefined;
    }
    if (!e.joinable) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, e);
    return e;
  }

  /** The entry without touching LRU order (the planner looks at every segment of a window). */
  peek(key: string): CacheEntry | undefined {
    const e = this.#entries.get(key);
    return e === undefined || e.state === 'failed' ? undefined : e;
  }

  /** Whether a usable entry exists, without touching LRU order. */
  has(key: string): boolean {
    const e = this.#entries.get(key);
    return e !== undefined && e.state !== 'failed';
  }

  /** A new pending entry for one origin fetch, visible to coalescing readers at once. */
  create(key: string): CacheEntry {
    const old = this.#entries.get(key);
    if (old !== undefined) this.#remove(old, 'lru');
    const dropped = this.#dropped.get(key);
    if (dropped !== undefined) this.#o.onRefetch?.(key, dropped.why, dropped.bytes);
    const e = new CacheEntry(key, this.#o.now(), this.budget);
    this.#entries.set(key, e);
    return e;
  }

  /** Bytes of entries some receiver is attached to (they cannot be evicted meanwhile). */
  pinnedBytes(): number {
    let n = 0;
    for (const e of this.#entries.values()) if (e.readers > 0) n += e.expectedBytes ?? e.bytes;
    return n;
  }

  get maxBytes(): number {
    return this.#o.maxBytes;
  }

  /**
   * Whether `size` more bytes would fit by evicting only entries nobody wants any more (read,
   * not held for a receiver, not being read or written). The planner asks before a prefetch: a
   * prefetch that could only fit by evicting another wanted segment would evict it, and that one
   * would be fetched again — the loop that made one 2 Mbit/s viewer cost 17,766 origin requests.
   */
  hasRoom(size: number): boolean {
    let free = this.budget.free;
    if (free >= size) return true;
    for (const e of this.#entries.values()) {
      if (this.#evictable(e) && !e.wanted) free += e.expectedBytes ?? e.bytes;
      if (free >= size) return true;
    }
    return false;
  }

  /**
   * Reserve room for `size` bytes (the Content-Length, or the final size when unknown), evicting
   * in LRU order — entries the planner does not want first, wanted ones only for a receiver that
   * is waiting (`forReceiver`). Returns false when it does not fit; the entry then leaves the map
   * once complete (served through to its readers, not cached, its bytes counted as transit).
   */
  admit(entry: CacheEntry, size: number, forReceiver = true): boolean {
    if (entry.admitted) return true;
    if (size > this.#o.maxBytes) return this.#bypass(entry);
    // What the entry already holds as transit becomes part of the reservation.
    if (!this.#evictFor(size - entry.transitBytes, forReceiver, entry)) return this.#bypass(entry);
    entry.admitted = true;
    this.budget.take('cache', size);
    this.budget.give('transit', entry.transitToCache());
    return true;
  }

  /**
   * admit(), for a prefetch nobody reads yet: when the room is taken only by entries receivers
   * are reading right now (a cache hit pins its entry until its response closes), wait for them
   * rather than drop the prefetch — its origin connection waits meanwhile. False (bypassed) when
   * the room is taken by what the planner still wants or by transit, which reading ends no sooner.
   * Once a receiver waits for the entry it is admitted like any receiver's (or served through).
   * The fetch's clock stops from the first real wait to the answer (`wait.pause`).
   */
  async admitWhenRead(entry: CacheEntry, size: number, wait: EdgeWait): Promise<boolean> {
    let resume: (() => void) | undefined;
    try {
      for (let waited = false; ; waited = true) {
        if (entry.admitted) return true;
        // A receiver asked for it meanwhile: it waits no longer (admitted, or served through).
        if (entry.readers > 0) return this.admit(entry, size, true);
        if (size <= this.#o.maxBytes && this.#evictFor(size - entry.transitBytes, false, entry)) return this.admit(entry, size, false);
        if (!this.#fitsOnceRead(size - entry.transitBytes, entry)) return this.admit(entry, size, false);
        if (!waited) {
          this.#o.onWait?.();
          resume = wait.pause?.();
        }
        await this.budget.changed(wait.signal);
      }
    } finally {
      resume?.();
    }
  }

  /**
   * Count `n` more bytes of a not-admitted entry as transit, once they fit: evicting what nobody
   * reads, else waiting until something is given back or unpinned. The fetch awaits this before
   * reading on, so a full budget holds the origin connection back rather than growing past it.
   * The fetch's clock stops only if it has to wait (`wait.pause`): a chunk that fits touches no
   * timer. Rejects when `wait.signal` aborts (the fetch's limits or cancel).
   */
  async hold(entry: CacheEntry, n: number, forReceiver: boolean, wait: EdgeWait): Promise<void> {
    if (!this.#evictFor(n, forReceiver, entry)) {
      this.#o.onWait?.();
      const resume = wait.pause?.();
      try {
        do {
          await this.budget.changed(wait.signal);
        } while (!this.#evictFor(n, forReceiver, entry));
      } finally {
        resume?.();
      }
    }
    this.budget.take('transit', n);
    entry.addTransit(n);
  }

  /**
   * Whether `key` left the cache (evicted, bypassed or failed) less than `withinMs` ago. The
   * planner does not fetch such a segment again within its segment period: a drop that repeats
   * at the planner's pace would turn into a stream of origin requests.
   */
  droppedWithin(key: string, withinMs: number): boolean {
    const d = this.#dropped.get(key);
    return d !== undefined && this.#o.now() - d.at < withinMs;
  }

  /**
   * Whether `key` left the cache complete (evicted for room or age) and is still remembered. The
   * planner never prefetches such an object again: it crossed the backhaul once already, and a
   * prefetch that follows an eviction feeds the next one (a receiver's request may still fetch it).
   */
  evicted(key: string): boolean {
    return this.#dropped.get(key)?.why === 'evicted';
  }

  /** Drop an entry whose fetch failed or that was bypassed (its readers keep their reference). */
  release(entry: CacheEntry): void {
    if (this.#entries.get(entry.key) === entry) this.#remove(entry, 'lru');
    else entry.leftCache();
  }

  /** Age out complete, unread entries older than maxAgeMs. */
  sweep(): void {
    for (const e of [...this.#entries.values()]) {
      if (e.state === 'failed' || (this.#evictable(e) && this.#expired(e))) this.#remove(e, 'age');
    }
  }

  clear(): void {
    for (const e of [...this.#entries.values()]) this.#remove(e, 'lru');
    this.#dropped.clear();
  }

  /** Evict until `n` bytes are free (or fail): unwanted entries first, wanted ones for a receiver. */
  #evictFor(n: number, forReceiver: boolean, except: CacheEntry): boolean {
    if (this.budget.free >= n) return true;
    for (const takeWanted of forReceiver ? [false, true] : [false]) {
      for (const e of this.#entries.values()) {
        if (this.budget.free >= n) return true;
        if (e !== except && this.#evictable(e) && (takeWanted || !e.wanted)) this.#remove(e, 'lru');
      }
    }
    return this.budget.free >= n;
  }

  /** Whether `n` bytes would be free once the entries being read now (complete, unwanted) are not. */
  #fitsOnceRead(n: number, except: CacheEntry): boolean {
    let free = this.budget.free;
    for (const e of this.#entries.values()) {
      if (e !== except && e.state === 'complete' && !e.wanted) free += e.expectedBytes ?? e.bytes;
      if (free >= n) return true;
    }
    return free >= n;
  }

  #bypass(entry: CacheEntry): boolean {
    this.#o.onBypass?.(entry);
    return false;
  }

  #evictable(e: CacheEntry): boolean {
    return e.readers === 0 && (e.state === 'complete' || e.state === 'failed');
  }

  #expired(e: CacheEntry): boolean {
    return this.#o.now() - e.createdAt > this.#o.maxAgeMs;
  }

  #remove(e: CacheEntry, reason: 'lru' | 'age'): void {
    if (this.#entries.get(e.key) === e) this.#entries.delete(e.key);
    this.#dropped.delete(e.key);
    const why: DropReason = e.state === 'failed' ? 'failed' : e.admitted ? 'evicted' : 'uncached';
    this.#dropped.set(e.key, { at: this.#o.now(), why, bytes: e.expectedBytes ?? e.bytes });
    if (this.#dropped.size > MAX_DROPPED) this.#dropped.delete(this.#dropped.keys().next().value!);
    if (e.admitted) {
      e.admitted = false;
      this.budget.give('cache', e.expectedBytes ?? e.bytes);
      if (e.state === 'complete') this.#o.onEvict?.(e, reason);
    }
    // Still read or written: its bytes stay counted, as transit, until the last reader leaves.
    e.leftCache();
  }
}
