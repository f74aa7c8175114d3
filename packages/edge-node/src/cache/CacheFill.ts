import { EdgeError } from '../errors/EdgeError.js';
import { admissionAtHeaders, admitAtEnd, isForReceiver, keepLimit, PASS_THROUGH_WINDOW } from './admission.js';
import type { CacheEntry, EntryHeaders } from './CacheEntry.js';
import type { EdgeWait } from './EdgeWait.js';
import type { SegmentCache } from './SegmentCache.js';

export interface CacheFillOptions {
  cache: SegmentCache;
  entry: CacheEntry;
  /** The origin-relative path (for errors). */
  path: string;
  /** A prefetch: kept only if it fits without evicting what receivers need (isForReceiver). */
  prefetch: boolean;
  /** How the fetch waits for room and for its readers: what ends it, what stops its clock meanwhile. */
  wait: EdgeWait;
  /** An object is streamed through without a whole copy (CacheEntry.passThrough). */
  onPassThrough?: (() => void) | undefined;
}

/**
 * One origin response being written into a cache entry, and the cache's say over it: room
 * reserved at the headers (admissionAtHeaders), room waited for chunk by chunk while not
 * admitted, admission at the end, release on failure. The fetch only moves bytes; what is kept,
 * and when the origin connection must wait for room, is decided here.
 */
export class CacheFill {
  readonly entry: CacheEntry;
  readonly #o: CacheFillOptions;

  constructor(o: CacheFillOptions) {
    this.#o = o;
    this.entry = o.entry;
  }

  get #forReceiver(): boolean {
    return isForReceiver(this.#o.prefetch, this.entry.readers);
  }

  /**
   * Reserve cache room for a response of `size` bytes. A prefetch nobody reads yet that does not
   * fit without evicting segments receivers still need is dropped before its body crosses the
   * backhaul (ERR_EDGE_CACHE_FULL); anything a receiver waits for is served through even if it
   * cannot be kept.
   */
  async reserve(size: number): Promise<void> {
    const { cache, entry, path, wait } = this.#o;
    // A receiver waits: what does not fit now is served through. A prefetch waits for the room
    // that receivers reading cached entries hold, and is dropped only if nothing would free it.
    if (this.#forReceiver) {
      cache.admit(entry, size, true);
      return;
    }
    if ((await cache.admitWhenRead(entry, size, wait)) || entry.readers > 0) return;
    throw new EdgeError('ERR_EDGE_CACHE_FULL', `prefetch of ${path} (${size} bytes) does not fit the cache`, { path, size });
  }

  /** A whole-object (200) response's headers are in: reserve or stream through, then set them. */
  async open(headers: EntryHeaders, expected: number | undefined, storable: boolean): Promise<void> {
    const { entry, cache } = this;
    const decision = admissionAtHeaders({ expected, storable, unplanned: entry.cancelWhenOrphaned, maxBytes: cache.maxBytes });
    if (decision.reserve) await this.reserve(expected!);
    if (!entry.admitted && decision.passThroughUnlessAdmitted) this.#passThrough();
    entry.setHeaders(headers, expected);
  }

  /**
   * Room for the next `n` bytes of an entry the cache did not admit (its bytes count as transit
   * in the byte budget): a pass-through entry first waits until its readers have taken what it
   * holds, then any such entry until the budget has room. Not reading on meanwhile holds the
   * origin connection back (TCP flow control): the origin waits instead of the edge's memory
   * growing. Admitted entries have their room reserved already: nothing to wait for. The fetch's
   * clock stops only while one of these waits really waits (EdgeWait).
   */
  async room(n: number): Promise<void> {
    const { entry, cache } = this;
    if (entry.admitted) return;
    if (!entry.passThrough && entry.bytes + n > keepLimit(entry.cancelWhenOrphaned, cache.maxBytes)) this.#passThrough();
    if (entry.passThrough) {
      // Kept for nobody (a prefetch, a receiver gone before the headers): not worth the backhaul.
      if (entry.readers === 0)
        throw new EdgeError('ERR_EDGE_CACHE_FULL', `${entry.key} streams through and nobody reads it`, { key: entry.key });
      await entry.whenConsumed(PASS_THROUGH_WINDOW, this.#o.wait);
      // Kept whole for receivers that may still join, as long as the budget has room for it.
      if (cache.budget.free < n) entry.seal();
    }
    await cache.hold(entry, n, this.#forReceiver, this.#o.wait);
  }

  /** The body is complete: check its length, offer one of unknown length to the cache, end it. */
  finish(expected: number | undefined, storable: boolean): void {
    const { entry, cache } = this;
    const path = this.#o.path;
    if (expected !== undefined && entry.bytes !== expected) {
      throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `segment ${path}: ${entry.bytes} of ${expected} bytes`, {
        path,
        bytes: entry.bytes,
        expected,
      });
    }
    // Whole and held as transit already: cached if it fits now, else served and let go.
    if (admitAtEnd({ expected, storable, passThrough: entry.passThrough })) cache.admit(entry, entry.bytes, this.#forReceiver);
    entry.end();
    // Not admitted (cache full, or not storable): it was served through to its readers; drop it now.
    if (!entry.admitted) cache.release(entry);
  }

  /** The fetch failed: readers are told, the cache lets the entry go. Returns the bytes it had. */
  fail(err: EdgeError): number {
    const bytes = this.entry.bytes;
    this.entry.fail(err);
    this.#o.cache.release(this.entry);
    return bytes;
  }

  get cache(): SegmentCache {
    return this.#o.cache;
  }

  #passThrough(): void {
    this.entry.passThrough = true;
    this.#o.onPassThrough?.();
  }
}
