import { CORS, HEADERS } from '../http/HEADERS.js';
import type { EdgeError } from '../errors/EdgeError.js';
import type { ByteBudget } from './ByteBudget.js';
import type { EdgeWait } from './EdgeWait.js';

export type CacheEntryState = 'pending' | 'streaming' | 'complete' | 'failed';

/** Response headers the edge keeps from the origin and replays to receivers. */
export type EntryHeaders = Record<string, string>;

/** How far one receiver has taken an entry's bytes (absolute offset): see CacheEntry.advance. */
export interface ReadCursor {
  at: number;
}

/**
 * One origin object (a segment) being written by exactly one origin fetch and read by any number
 * of receivers at the same time (read-while-writer). Chunks are kept as the Buffers undici hands
 * us: every reader writes the same Buffer objects, no copy per receiver.
 */
export class CacheEntry {
  readonly key: string;
  state: CacheEntryState = 'pending';
  headers: EntryHeaders = {};
  /** Content-Length announced by the origin, if any. */
  expectedBytes: number | undefined;
  /**
   * The chunks still held, from chunk number `chunkBase` on (a pass-through entry drops what every
   * reader has taken; any other keeps them all): chunk i is `chunks[i - chunkBase]`.
   */
  readonly chunks: Buffer[] = [];
  chunkBase = 0;
  /** Bytes dropped from the front (pass-through only); `bytes` counts every byte received. */
  droppedBytes = 0;
  bytes = 0;
  error: EdgeError | undefined;
  /**
   * Receivers attached to this entry (pin/unpin), from the moment their request arrives (also
   * while they wait for the origin's headers) until their response closes, cache hits included:
   * an entry with readers is never evicted, and its bytes stay in the budget until the last one
   * leaves. Every pin is given back on the response's 'close'.
   */
  readers = 0;
  /**
   * Not cached, and streamed through: an unplanned object (a query nobody else sends, a path no
   * window lists yet) larger than an unplanned object is cached up to (by its Content-Length, or
   * once it grows past it), or any object larger than the whole budget. It is read from the origin at most a window ahead of its fastest reader
   * (whenConsumed). While the origin sets the pace, receivers that ask read the one fetch (an
   * LL-DASH segment still in production, a DASH segment asked for before the edge's index lists
   * it), so it is kept whole; once a reader sets the pace (the fetch had to wait for one), the
   * budget has no room for more, or the fetch is over, it keeps only what its slowest reader has
   * not taken yet and takes no new reader. A lone stalled reader thus holds a window, never a whole private copy.
   */
  passThrough = false;
  /** Pass-through: no new reader, only what the readers still need is kept (see seal). */
  #sealed = false;
  /**
   * The planner wants this entry (a held segment not yet requested by the most advanced
   * receiver): eviction takes other entries first.
   */
  wanted = false;
  /**
   * Abort the origin fetch once the last reader leaves before the body is complete. Set for
   * fetches started for one receiver's request of an object no stream plans (a query variant, a
   * made-up path): nobody else would read it, so finishing it only costs the backhaul.
   */
  cancelWhenOrphaned = false;
  /** Aborts the origin fetch writing this entry (orphaned, deadline, edge closing). */
  readonly abort = new AbortController();
  /** Accounted in the cache's byte budget (false = served through without caching). */
  admitted = false;
  /** Still reachable through the cache map (false once evicted or bypassed). */
  inCache = true;
  readonly createdAt: number;
  readonly #wakers = new Set<() => void>();
  readonly #responseHeaders = new Map<string, Record<string, string | number>>();
  /** The budget this entry's bytes count in (none in unit tests of the entry alone). */
  readonly #budget: ByteBudget | undefined;
  /** Bytes this entry holds in the budget as transit (outside the cache's reservation). */
  #transit = 0;
  /** The readers' cursors (serveEntry's; a cache hit reads a complete entry at once). */
  readonly #cursors = new Set<ReadCursor>();
  /** The origin fetch waiting for readers to take bytes (pass-through), if any. */
  #consumedWaiter: (() => void) | undefined;

  constructor(key: string, nowMs: number, budget?: ByteBudget) {
    this.key = key;
    this.createdAt = nowMs;
    this.#budget = budget;
  }

  /** Whether a new receiver can read this entry from its first byte. */
  get joinable(): boolean {
    return this.droppedBytes === 0 && !this.#sealed;
  }

  /** Chunk number `i` (absolute), or undefined once dropped or not yet there. */
  chunkAt(i: number): Buffer | undefined {
    return this.chunks[i - this.chunkBase];
  }

  /** Bytes this entry holds in the budget outside the cache's reservation. */
  get transitBytes(): number {
    return this.#transit;
  }

  /** The budget took `n` bytes as transit for this entry (SegmentCache.hold). */
  addTransit(n: number): void {
    this.#transit += n;
  }

  /** The cache admitted the entry: its reservation covers the bytes held as transit so far. */
  transitToCache(): number {
    const t = this.#transit;
    this.#transit = 0;
    return t;
  }

  /**
   * The cache stopped accounting this entry (evicted, replaced, bypassed at the end) while it is
   * still read or written: its bytes stay in the budget as transit until the last reader leaves.
   */
  leftCache(): void {
    this.inCache = false;
    // Out of the map, nobody joins: a pass-through entry keeps only what its readers still need.
    this.#consumed();
    if (this.readers > 0 || this.state === 'pending' || this.state === 'streaming') {
      const held = this.bytes - this.droppedBytes - this.#transit;
      if (held > 0 && this.#budget !== undefined) {
        this.#budget.take('transit', held);
        this.#transit += held;
      }
    }
    this.#settle();
  }

  /** Attach a receiver (see `readers`). */
  pin(): void {
    this.readers += 1;
    // A prefetch waiting for room before its headers now has a receiver waiting on it (admitWhenRead).
    if (this.readers === 1 && this.state === 'pending') this.#budget?.notify();
  }

  /**
   * Detach a receiver. The last one gone: a fetch nobody else would read is cancelled (see
   * cancelWhenOrphaned; a pass-through entry likewise), and the entry may now be evicted or freed.
   */
  unpin(): void {
    this.readers -= 1;
    if (this.readers > 0) return;
    if ((this.cancelWhenOrphaned || this.passThrough) && (this.state === 'pending' || this.state === 'streaming')) {
      this.abort.abort('orphaned');
    }
    this.#settle();
    this.#budget?.notify();
  }

  /** A reader's cursor, from offset 0; give it back with detach(). */
  attach(): ReadCursor {
    const c = { at: 0 };
    this.#cursors.add(c);
    return c;
  }

  detach(c: ReadCursor): void {
    if (this.#cursors.delete(c)) this.#consumed();
  }

  /** A reader has taken the bytes before `at`: a pass-through entry drops what every reader has. */
  advance(c: ReadCursor, at: number): void {
    c.at = at;
    if (this.passThrough) this.#consumed();
  }

  /**
   * Resolves once the fastest reader is at most `window` bytes behind what has arrived (or none
   * is attached): the pass-through fetch reads on from its origin only then. Paced by the
   * fastest, a slow reader does not hold back a fast one; what the slowest has not taken yet is
   * kept for it, counted in the budget, until its send deadline cuts it. The fetch's clock stops
   * while it really waits (`wait.pause`). Rejects when `wait.signal` aborts.
   */
  whenConsumed(window: number, wait: EdgeWait): Promise<void> {
    if (this.#untaken() <= window) return Promise.resolve();
    const { signal } = wait;
    if (signal.aborted) return Promise.reject(signal.reason);
    // A reader sets the pace now.
    this.seal();
    const resume = wait.pause?.();
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.#consumedWaiter = undefined;
        reject(signal.reason);
      };
      this.#consumedWaiter = () => {
        if (this.#untaken() > window) return;
        this.#consumedWaiter = undefined;
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }).finally(() => resume?.());
  }

  /**
   * Pass-through: take no new reader, and from now on keep only what the readers still need —
   * once a reader sets the pace, or the budget has no room for the whole object.
   */
  seal(): void {
    if (!this.passThrough || this.#sealed) return;
    this.#sealed = true;
    this.#consumed();
  }

  /** Bytes received that the fastest attached reader has not taken yet. */
  #untaken(): number {
    if (this.#cursors.size === 0) return 0;
    let max = 0;
    for (const c of this.#cursors) if (c.at > max) max = c.at;
    return this.bytes - max;
  }

  #consumed(): void {
    if (this.passThrough && this.#cursors.size > 0 && (this.#sealed || !this.inCache)) {
      let min = Number.POSITIVE_INFINITY;
      for (const c of this.#cursors) if (c.at < min) min = c.at;
      // Whole chunks every reader is past: nobody can want them again (no reader joins once dropped).
      let freed = 0;
      let n = 0;
      let end = this.droppedBytes;
      while (n < this.chunks.length && end + this.chunks[n]!.length <= min) {
        end += this.chunks[n]!.length;
        freed += this.chunks[n]!.length;
        n += 1;
      }
      if (n > 0) {
        this.chunks.splice(0, n);
        this.chunkBase += n;
        this.droppedBytes = end;
        const give = Math.min(freed, this.#transit);
        this.#transit -= give;
        this.#budget?.give('transit', give);
      }
    }
    this.#consumedWaiter?.();
  }

  /** Not in the cache, nobody reads it, nobody writes it: its bytes leave the budget (and memory). */
  #settle(): void {
    if (this.inCache || this.readers > 0 || this.state === 'pending' || this.state === 'streaming') return;
    this.chunks.length = 0;
    const t = this.#transit;
    this.#transit = 0;
    this.#budget?.give('transit', t);
  }

  /**
   * Response headers for receivers, built once per entry and result (the hot path of a cache
   * hit reuses the same object for every receiver).
   */
  responseHeaders(result: 'hit' | 'coalesced' | 'miss', cors: boolean): Record<string, string | number> {
    const k = cors ? `${result}+cors` : result;
    let h = this.#responseHeaders.get(k);
    if (h === undefined) {
      // The origin's Cache-Control when it forbids keeping the object (kept in `headers`), else ours.
      h = { 'cache-control': 'max-age=60', ...this.headers, [HEADERS.cache]: result };
      if (cors) Object.assign(h, CORS);
      const length = this.expectedBytes ?? (this.state === 'complete' ? this.bytes : undefined);
      if (length !== undefined) {
        h['content-length'] = length;
        // Byte ranges are served from the entry once its length is known (serveEntry).
        h['accept-ranges'] = 'bytes';
      }
      this.#responseHeaders.set(k, h);
    }
    return h;
  }

  /** Called on every state change (headers, chunk, end, failure). Returns an unsubscribe. */
  subscribe(wake: () => void): () => void {
    this.#wakers.add(wake);
    return () => this.#wakers.delete(wake);
  }

  #wake(): void {
    for (const w of [...this.#wakers]) w();
  }

  setHeaders(headers: EntryHeaders, expectedBytes: number | undefined): void {
    if (this.state !== 'pending') return;
    this.headers = headers;
    this.expectedBytes = expectedBytes;
    this.state = 'streaming';
    this.#wake();
  }

  push(chunk: Buffer): void {
    if (this.state !== 'streaming') return;
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    this.#wake();
  }

  end(): void {
    if (this.state !== 'streaming') return;
    this.state = 'complete';
    this.#wake();
    this.#wakers.clear();
    this.#settle();
    // Complete and unread: evictable now, which a fetch waiting for room may need.
    if (this.readers === 0) this.#budget?.notify();
  }

  fail(error: EdgeError): void {
    if (this.state === 'complete' || this.state === 'failed') return;
    this.state = 'failed';
    this.error = error;
    // The bytes are useless now; drop them so a failed entry holds no memory.
    this.chunks.length = 0;
    const t = this.#transit;
    this.#transit = 0;
    this.#budget?.give('transit', t);
    this.#wake();
    this.#wakers.clear();
  }

  /** Resolves once headers are known (or rejects with the fetch's error). */
  whenHeaders(): Promise<void> {
    if (this.state === 'streaming' || this.state === 'complete') return Promise.resolve();
    if (this.state === 'failed') return Promise.reject(this.error);
    return new Promise((resolve, reject) => {
      const off = this.subscribe(() => {
        if (this.state === 'failed') {
          off();
          reject(this.error);
        } else if (this.state !== 'pending') {
          off();
          resolve();
        }
      });
    });
  }

  /** Resolves once the body is complete (rejects on failure). */
  whenComplete(): Promise<void> {
    if (this.state === 'complete') return Promise.resolve();
    if (this.state === 'failed') return Promise.reject(this.error);
    return new Promise((resolve, reject) => {
      const off = this.subscribe(() => {
        if (this.state === 'complete') {
          off();
          resolve();
        } else if (this.state === 'failed') {
          off();
          reject(this.error);
        }
      });
    });
  }
}
