/** A fetched segment: its bytes and the headers worth replaying. */
export interface StoredSegment {
  body: ArrayBuffer;
  headers: [string, string][];
  fetchMs: number;
  /** false: not storable (core isStorable); the fetch is shared by whoever asked meanwhile, then dropped. */
  keep: boolean;
}

import { LRUCache } from 'lru-cache';

export interface SegmentStoreOptions {
  /** The store's bound, bytes: a worker shares its page's memory. */
  maxBytes?: number;
  /** Wall clock, ms. */
  now?: () => number;
}

/** URLs remembered as dropped at most (the oldest go first). */
const MAX_DROPPED = 1024;

/**
 * The worker's bounded segment store: complete segments (LRU, bounded in bytes) and in-flight
 * fetches, so two players (two tabs) asking for one segment cause one origin request. It
 * remembers when a URL left it (evicted, not kept, failed) so the planner does not fetch it again
 * at its own pace (core prefetchRetryMs), as the Node edge's cache does.
 */
export class SegmentStore {
  readonly maxBytes: number;
  readonly #done: LRUCache<string, StoredSegment>;
  readonly #inFlight = new Map<string, Promise<StoredSegment>>();
  readonly #dropped = new Map<string, number>();
  readonly #now: () => number;

  constructor(o: SegmentStoreOptions = {}) {
    this.maxBytes = o.maxBytes ?? 128 * 1024 * 1024;
    this.#now = o.now ?? Date.now;
    // lru-cache bounds the bytes (least recently used out first); a segment larger than the
    // whole budget is not stored at all.
    this.#done = new LRUCache<string, StoredSegment>({
      maxSize: this.maxBytes,
      sizeCalculation: (s) => Math.max(1, s.body.byteLength),
      dispose: (_s, url, reason) => void (reason === 'evict' && this.#drop(url)),
    });
  }

  get(url: string): StoredSegment | undefined {
    return this.#done.get(url);
  }

  pending(url: string): Promise<StoredSegment> | undefined {
    return this.#inFlight.get(url);
  }

  has(url: string): boolean {
    return this.#done.has(url) || this.#inFlight.has(url);
  }

  /** The URL left the store (or was never kept) less than `ms` ago. */
  droppedWithin(url: string, ms: number): boolean {
    const at = this.#dropped.get(url);
    return at !== undefined && this.#now() - at < ms;
  }

  /** Runs `load` once per URL at a time; later callers join the same promise. */
  load(url: string, load: () => Promise<StoredSegment>): Promise<StoredSegment> {
    const done = this.#done.get(url);
    if (done) return Promise.resolve(done);
    let p = this.#inFlight.get(url);
    if (p) return p;
    p = load().then(
      (s) => {
        this.#inFlight.delete(url);
        this.#put(url, s);
        return s;
      },
      (e: unknown) => {
        this.#inFlight.delete(url);
        this.#drop(url);
        throw e;
      },
    );
    this.#inFlight.set(url, p);
    return p;
  }

  #put(url: string, s: StoredSegment): void {
    if (!s.keep || s.body.byteLength > this.maxBytes) return void this.#drop(url); // served, not kept
    this.#dropped.delete(url);
    this.#done.set(url, s);
  }

  #drop(url: string): void {
    this.#dropped.delete(url);
    this.#dropped.set(url, this.#now());
    if (this.#dropped.size > MAX_DROPPED) this.#dropped.delete(this.#dropped.keys().next().value!);
  }

  get inFlightCount(): number {
    return this.#inFlight.size;
  }

  urls(): string[] {
    return [...this.#done.keys()];
  }

  get bytes(): number {
    return this.#done.calculatedSize;
  }
}
