/** A fetched segment: its bytes and the headers worth replaying. */
export interface StoredSegment {
  body: ArrayBuffer;
  headers: [string, string][];
  fetchMs: number;
  /** false: the origin said no-store; the fetch is shared by whoever asked meanwhile, then dropped. */
  keep: boolean;
}

import { LRUCache } from 'lru-cache';

/**
 * The worker's bounded segment store: complete segments (LRU by insertion, bounded in bytes) and
 * in-flight fetches, so two players (two tabs) asking for one segment cause one origin request.
 */
export class SegmentStore {
  readonly #done: LRUCache<string, StoredSegment>;
  #inFlight = new Map<string, Promise<StoredSegment>>();
  constructor(private readonly maxBytes = 128 * 1024 * 1024) {
    // lru-cache bounds the bytes (least recently used out first); a segment larger than the
    // whole budget is not stored at all.
    this.#done = new LRUCache<string, StoredSegment>({ maxSize: maxBytes, sizeCalculation: (s) => Math.max(1, s.body.byteLength) });
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
        throw e;
      },
    );
    this.#inFlight.set(url, p);
    return p;
  }

  #put(url: string, s: StoredSegment): void {
    if (!s.keep || s.body.byteLength > this.maxBytes) return; // served, not kept
    this.#done.set(url, s);
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
