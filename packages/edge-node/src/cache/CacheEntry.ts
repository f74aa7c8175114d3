import { CORS, HEADERS } from '../http/HEADERS.js';
import type { EdgeError } from '../errors/EdgeError.js';

export type CacheEntryState = 'pending' | 'streaming' | 'complete' | 'failed';

/** Response headers the edge keeps from the origin and replays to receivers. */
export type EntryHeaders = Record<string, string>;

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
  readonly chunks: Buffer[] = [];
  bytes = 0;
  error: EdgeError | undefined;
  /**
   * Receivers attached to this entry, from the moment their request arrives (also while they wait
   * for the origin's headers) until their response closes; an entry with readers is never
   * evicted. Counted by serveEntry only, which always gives the count back on 'close'.
   */
  readers = 0;
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

  constructor(key: string, nowMs: number) {
    this.key = key;
    this.createdAt = nowMs;
  }

  /**
   * Response headers for receivers, built once per entry and result (the hot path of a cache
   * hit reuses the same object for every receiver).
   */
  responseHeaders(result: 'hit' | 'coalesced' | 'miss', cors: boolean): Record<string, string | number> {
    const k = cors ? `${result}+cors` : result;
    let h = this.#responseHeaders.get(k);
    if (h === undefined) {
      h = { ...this.headers, [HEADERS.cache]: result, 'cache-control': 'max-age=60' };
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


  /** Abort the origin fetch if it is still running and nobody reads it (see cancelWhenOrphaned). */
  releaseReader(): void {
    this.readers -= 1;
    if (this.readers === 0 && this.cancelWhenOrphaned && (this.state === 'pending' || this.state === 'streaming')) {
      this.abort.abort('orphaned');
    }
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
  }

  fail(error: EdgeError): void {
    if (this.state === 'complete' || this.state === 'failed') return;
    this.state = 'failed';
    this.error = error;
    // The bytes are useless now; drop them so a failed entry holds no memory.
    this.chunks.length = 0;
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
