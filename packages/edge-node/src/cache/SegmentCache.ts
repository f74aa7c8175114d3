import { CacheEntry } from './CacheEntry.js';

export interface SegmentCacheOptions {
  maxBytes: number;
  maxAgeMs: number;
  now: () => number;
  /** Told when an entry could not be admitted and is served through without caching. */
  onBypass?: (entry: CacheEntry) => void;
  onEvict?: (entry: CacheEntry, reason: 'lru' | 'age') => void;
}

/** Keys remembered as recently dropped (evicted, bypassed, failed): a bound, oldest forgotten first. */
const MAX_DROPPED = 4096;

/**
 * Segment store bounded in bytes and age. Map order is LRU order (a hit moves the entry to the
 * end). An entry being written or read is never evicted from under its readers; when nothing
 * can be evicted to make room, a new entry is served through uncached instead of failing.
 */
export class SegmentCache {
  readonly #entries = new Map<string, CacheEntry>();
  readonly #o: SegmentCacheOptions;
  #bytes = 0;
  /** When each recently dropped key left the cache (insertion order = age order). */
  readonly #dropped = new Map<string, number>();

  constructor(options: SegmentCacheOptions) {
    this.#o = options;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A live (not failed, not expired) entry, moved to the LRU tail. */
  get(key: string): CacheEntry | undefined {
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    if (e.state === 'failed' || (this.#evictable(e) && this.#expired(e))) {
      this.#remove(e, 'age');
      return undefined;
    }
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
    const e = new CacheEntry(key, this.#o.now());
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
    let free = this.#o.maxBytes - this.#bytes;
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
   * once complete (served through to its readers, not cached).
   */
  admit(entry: CacheEntry, size: number, forReceiver = true): boolean {
    if (entry.admitted) return true;
    if (size > this.#o.maxBytes) return this.#bypass(entry);
    for (const takeWanted of forReceiver ? [false, true] : [false]) {
      if (this.#bytes + size <= this.#o.maxBytes) break;
      for (const e of this.#entries.values()) {
        if (this.#bytes + size <= this.#o.maxBytes) break;
        if (e !== entry && this.#evictable(e) && (takeWanted || !e.wanted)) this.#remove(e, 'lru');
      }
    }
    if (this.#bytes + size > this.#o.maxBytes) return this.#bypass(entry);
    entry.admitted = true;
    this.#bytes += size;
    return true;
  }

  /**
   * Whether `key` left the cache (evicted, bypassed or failed) less than `withinMs` ago. The
   * planner does not fetch such a segment again within its segment period: a drop that repeats
   * at the planner's pace would turn into a stream of origin requests.
   */
  droppedWithin(key: string, withinMs: number): boolean {
    const t = this.#dropped.get(key);
    return t !== undefined && this.#o.now() - t < withinMs;
  }

  /** Drop an entry whose fetch failed or that was bypassed (its readers keep their reference). */
  release(entry: CacheEntry): void {
    if (this.#entries.get(entry.key) === entry) this.#remove(entry, 'lru');
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
    e.inCache = false;
    this.#dropped.delete(e.key);
    this.#dropped.set(e.key, this.#o.now());
    if (this.#dropped.size > MAX_DROPPED) this.#dropped.delete(this.#dropped.keys().next().value!);
    if (e.admitted) {
      this.#bytes -= e.expectedBytes ?? e.bytes;
      e.admitted = false;
      if (e.state === 'complete') this.#o.onEvict?.(e, reason);
    }
  }
}
