import type { ServerResponse } from 'node:http';
import { sendDeadlineMs } from './sendDeadlineMs.js';

export interface SendDeadlinesOptions {
  /** The slowest receiver served, bytes/s (config.minReceiverMbps). */
  minBytesPerSecond: number;
  /** The shortest deadline, ms (config.sendDeadlineMinMs). */
  floorMs: number;
  /** A monotonic clock, ms. */
  now: () => number;
  /** A response was cut: its receiver was slower than the minimum rate. */
  onCut: (bytes: number, blockedMs: number) => void;
}

/**
 * One response's time blocked on its receiver: from when the edge had bytes the socket would not
 * take (a write that returned false, or everything written at once on a cache hit) until it did
 * ('drain'; 'close'). Time spent waiting for the origin does not count: that is not the receiver.
 */
export class SendClock {
  readonly res: ServerResponse;
  /** The response's length (or what is known of it so far). */
  bytes: () => number;
  #blockedMs = 0;
  #since: number | undefined;

  constructor(res: ServerResponse, bytes: () => number) {
    this.res = res;
    this.bytes = bytes;
  }

  blocked(now: number): void {
    this.#since ??= now;
  }

  unblocked(now: number): void {
    if (this.#since === undefined) return;
    this.#blockedMs += now - this.#since;
    this.#since = undefined;
  }

  blockedMs(now: number): number {
    return this.#blockedMs + (this.#since === undefined ? 0 : now - this.#since);
  }
}

/**
 * The per-response send deadline: every segment response is tracked from its headers to its
 * 'close', and one sweep (the edge's housekeeping, once a second — no timer per response) cuts
 * those blocked on their receiver longer than sendDeadlineMs of their length. The socket timeout
 * only ends receivers that read nothing at all; one reading 2 KB/s would otherwise hold its
 * object and its connection for hours (a 61 MB segment: ~8 h).
 */
export class SendDeadlines {
  readonly #o: SendDeadlinesOptions;
  readonly #open = new Set<SendClock>();

  constructor(o: SendDeadlinesOptions) {
    this.#o = o;
  }

  /** Responses tracked now. */
  get size(): number {
    return this.#open.size;
  }

  /** Track `res` until it closes. `blockedNow`: everything is written already (a cache hit). */
  track(res: ServerResponse, bytes: () => number, blockedNow = false): SendClock {
    const c = new SendClock(res, bytes);
    if (blockedNow) c.blocked(this.#o.now());
    this.#open.add(c);
    res.once('close', () => this.#open.delete(c));
    return c;
  }

  now(): number {
    return this.#o.now();
  }

  /** Cut every response blocked on its receiver past its deadline. */
  sweep(): void {
    const now = this.#o.now();
    for (const c of this.#open) {
      const blocked = c.blockedMs(now);
      if (blocked === 0) continue;
      const bytes = c.bytes();
      if (blocked <= sendDeadlineMs(bytes, this.#o.minBytesPerSecond, this.#o.floorMs)) continue;
      // Ended and every byte with the kernel: the write's completion ('finish', then 'close') is
      // queued for the next turn of the loop. Cutting now would cost the receiver nothing, free
      // nothing, and count a cut that did not happen.
      if (c.res.writableEnded && unsentBytes(c.res) === 0) continue;
      this.#open.delete(c);
      this.#o.onCut(bytes, blocked);
      c.res.destroy();
    }
  }
}

/**
 * Bytes of `res` the kernel has not taken yet: libuv's write queue (`writeQueueSize` on the
 * socket's handle, what Node's own socket timeout reads). `writableLength` cannot tell: it counts
 * a whole writev until its callback, though the kernel may hold all of it. Unknown (no handle, a
 * TLS socket wrapping another) reads as unsent, so the deadline still applies.
 */
export function unsentBytes(res: ServerResponse): number {
  const handle = (res.socket as { _handle?: { writeQueueSize?: unknown } } | null)?._handle;
  return typeof handle?.writeQueueSize === 'number' ? handle.writeQueueSize : Infinity;
}
