import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EdgeError } from '../errors/EdgeError.js';
import { parseRange, type ByteRange } from '../http/parseRange.js';
import type { SendClock, SendDeadlines } from '../http/SendDeadlines.js';
import type { CacheEntry } from './CacheEntry.js';

export interface ServeEntryOptions {
  /** Response headers once the origin's are known (the entry's, plus the edge's own). */
  headers: () => Record<string, string | number>;
  /** The fetch failed before any byte was sent: answer with an error (the caller's format); returns the status sent. */
  onError: (error: EdgeError) => number;
  /** A bug while serving (this response is cut, nothing else): see EdgeContext.bug. */
  onBug: (error: unknown) => void;
  /** HEAD: headers only. */
  head: boolean;
  /** The per-response send deadline (tracked from the headers on; none in unit tests). */
  deadlines?: SendDeadlines;
}

export interface ServeResult {
  /** Status sent (0 = the receiver left before the edge could answer). */
  status: number;
  /** Body bytes written. */
  bytes: number;
}

/**
 * Serve one cache entry to one receiver, whatever state the entry is in: waiting for the origin's
 * headers, streaming (read-while-writer), or complete.
 *
 * The receiver is attached to the entry from the first moment — before the origin has answered —
 * and detached on its response's 'close', whenever that comes: a receiver that gives up while the
 * edge waits for the origin never pins the entry (it was the edge's worst leak: pinned entries
 * cannot be evicted, the budget fills, and every later prefetch is bypassed and fetched again).
 *
 * A single `Range` is answered 206 from the entry's bytes as they arrive, once the length is
 * known (Content-Length); several ranges, or a range of an object of unknown length, get the
 * whole object with 200 — never wrong bytes. Each reader keeps its own cursor into the shared
 * chunk list (CacheEntry.attach: a pass-through entry drops what every cursor is past) and waits
 * for its own socket's 'drain'; the time it waits counts against its send deadline. If the origin
 * body fails mid-way the response is destroyed: the player sees a failed transfer, never a short
 * segment as complete.
 */
export function serveEntry(entry: CacheEntry, req: IncomingMessage, res: ServerResponse, o: ServeEntryOptions): Promise<ServeResult> {
  return new Promise((resolve) => {
    let status = 0;
    let written = 0;
    let done = false;
    let started = false;
    let range: ByteRange | undefined;
    // Absolute offset in the object of the next chunk to look at, and the chunk index.
    let chunkIndex = 0;
    let chunkStart = 0;
    let waitingDrain = false;
    let clock: SendClock | undefined;
    entry.pin();
    const cursor = entry.attach();

    const finish = (): void => {
      if (done) return;
      done = true;
      unsubscribe();
      res.off('close', finish);
      entry.detach(cursor);
      entry.unpin();
      resolve({ status, bytes: written });
    };

    const start = (): boolean => {
      const headers = o.headers();
      const size = entry.expectedBytes ?? (entry.state === 'complete' ? entry.bytes : undefined);
      const ifRange = req.headers['if-range'] as string | undefined;
      const r = size === undefined || !ifRangeHolds(ifRange, entry) ? undefined : parseRange(req.headers.range, size);
      if (r === 'unsatisfiable') {
        status = 416;
        res.writeHead(416, { ...headers, 'content-range': `bytes */${size}`, 'content-length': 0 });
        res.end();
        return false;
      }
      if (r !== undefined && !(r.start === 0 && r.end === size! - 1)) {
        range = r;
        status = 206;
        res.writeHead(206, { ...headers, 'content-range': `bytes ${r.start}-${r.end}/${size}`, 'content-length': r.end - r.start + 1 });
      } else {
        status = 200;
        res.writeHead(200, headers);
      }
      if (o.head) {
        res.end();
        return false;
      }
      clock = o.deadlines?.track(res, () => (range !== undefined ? range.end - range.start + 1 : (entry.expectedBytes ?? entry.bytes)));
      return true;
    };

    // Runs from the origin fetch's loop (each chunk wakes every reader): a throw here would fail
    // the fetch for every receiver of the object. It stays with this response.
    const pump = (): void => {
      try {
        pumpOnce();
      } catch (e) {
        o.onBug(e);
        res.destroy();
        finish();
      }
    };

    const pumpOnce = (): void => {
      if (done || waitingDrain) return;
      if (!started) {
        if (entry.state === 'pending') return;
        if (entry.state === 'failed') {
          status = o.onError(entry.error!);
          finish();
          return;
        }
        started = true;
        if (!start()) {
          finish();
          return;
        }
      }
      if (entry.state === 'failed') {
        res.destroy(entry.error);
        finish();
        return;
      }
      const end = entry.chunkBase + entry.chunks.length;
      const from = range?.start ?? 0;
      const to = range === undefined ? Infinity : range.end + 1; // exclusive
      // Hot path: cork so a burst of chunks goes out in one writev.
      res.cork();
      while (chunkIndex < end && chunkStart < to) {
        const chunk = entry.chunkAt(chunkIndex)!;
        const cEnd = chunkStart + chunk.length;
        chunkIndex += 1;
        const s = Math.max(from, chunkStart);
        const e = Math.min(to, cEnd);
        chunkStart = cEnd;
        if (s >= e) continue;
        const part = s === cEnd - chunk.length && e === cEnd ? chunk : chunk.subarray(s - (cEnd - chunk.length), e - (cEnd - chunk.length));
        written += part.length;
        if (!res.write(part)) {
          waitingDrain = true;
          clock?.blocked(o.deadlines!.now());
          res.once('drain', () => {
            waitingDrain = false;
            clock?.unblocked(o.deadlines!.now());
            pump();
          });
          break;
        }
      }
      process.nextTick(() => res.uncork());
      entry.advance(cursor, chunkStart);
      if (!waitingDrain && (chunkStart >= to || (entry.state === 'complete' && chunkIndex >= end))) {
        res.end();
        // What is still buffered is the receiver's to take (the clock stops at 'close').
        clock?.blocked(o.deadlines!.now());
        finish();
      }
    };

    const unsubscribe = entry.subscribe(pump);
    // Registered before anything is awaited: a receiver gone at any point detaches at once.
    res.once('close', finish);
    if (res.destroyed || (res.socket?.destroyed ?? true)) {
      finish();
      return;
    }
    pump();
  });
}

/** `If-Range`: the range applies only if the validator still names this entry's bytes. */
function ifRangeHolds(ifRange: string | undefined, entry: CacheEntry): boolean {
  if (ifRange === undefined) return true;
  const etag = entry.headers['etag'];
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return etag !== undefined && !etag.startsWith('W/') && etag === ifRange;
  return entry.headers['last-modified'] === ifRange;
}
