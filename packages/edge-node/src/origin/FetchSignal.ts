import { timerMs } from '@ethle/core';
import { performance } from 'node:perf_hooks';
import { FetchPace, type FetchTimeoutRule } from './FetchPace.js';
import type { FetchLimits } from './fetchLimits.js';

/** Checks per idle period: the rules of FetchPace are judged this often. */
const CHECKS_PER_IDLE = 4;

/**
 * The two ways a segment fetch is stopped — nobody waits for it (its entry's AbortController), or
 * it ran out of time (FetchPace's rules over FetchLimits) — and either of them, which the requests
 * and waits of the fetch take. Kept apart so a failure can say which one it was
 * (ERR_EDGE_CANCELLED vs ERR_EDGE_ORIGIN_TIMEOUT, and then which rule: `timedOut`).
 */
export interface FetchSignal {
  cancel: AbortSignal;
  /** Aborts when the fetch runs out of time (a TimeoutError saying which rule). */
  deadline: AbortSignal;
  any: AbortSignal;
  /** Which rule ended the fetch, once `deadline` aborted. */
  readonly timedOut: FetchTimeoutRule | undefined;
  /** `n` more bytes of the object arrived (any of its ranges). Hot path: a sum, no clock read. */
  received(n: number): void;
  /** The object's whole size (its Content-Length, a range's total): the rate rule applies from now. */
  expect(size: number): void;
  /**
   * Stop the fetch's clock while it waits on the edge itself — room in the byte budget, its
   * readers taking what it holds — and return what starts it again. The limits are for an origin
   * that hangs or trickles; time the edge holds the origin back (TCP flow control) is not the
   * origin's, and counting it cut every reader of a fetch that only waited for its slowest one.
   * Those waits have their own bounds: each reader's send deadline, the cancel signal. Called
   * only where a wait really begins (SegmentCache, CacheEntry), not around every chunk.
   */
  pauseDeadline(): () => void;
  /** The fetch is over: its timer stops. */
  close(): void;
}

/**
 * A fetch's signal, its limits counted in running time from now (the queue wait is over when this
 * is called). Throws on limits no timer accepts (timerMs): a bug of the caller's.
 */
export function fetchSignal(cancel: AbortSignal, limits: FetchLimits, now: () => number = () => performance.now()): FetchSignal {
  return new FetchClock(cancel, { idleMs: timerMs(limits.idleMs), deadlineMs: timerMs(limits.deadlineMs) }, now);
}

/**
 * The fetch's running clock and its one timer: a check every idleMs / CHECKS_PER_IDLE of running
 * time (so `idle` fires within idleMs and a quarter of it after the last byte; `deadline` on
 * time), none while paused. Bytes are only summed as they come; the check reads the sum. Pauses
 * nest (parallel range parts wait at once). The timer does not keep the process up.
 */
class FetchClock implements FetchSignal {
  readonly cancel: AbortSignal;
  readonly any: AbortSignal;
  timedOut: FetchTimeoutRule | undefined;
  readonly #ac = new AbortController();
  readonly #limits: FetchLimits;
  readonly #pace: FetchPace;
  readonly #now: () => number;
  readonly #everyMs: number;
  #bytes = 0;
  #size: number | undefined;
  /** Running time before #since (ms). */
  #ranMs = 0;
  #since: number;
  /** Running time at which the next check is due. */
  #dueMs = 0;
  #pauses = 0;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(cancel: AbortSignal, limits: FetchLimits, now: () => number) {
    this.cancel = cancel;
    this.any = AbortSignal.any([cancel, this.#ac.signal]);
    this.#limits = limits;
    this.#pace = new FetchPace(limits);
    this.#now = now;
    this.#everyMs = Math.max(1, timerMs(limits.idleMs / CHECKS_PER_IDLE));
    this.#since = now();
    this.#schedule(0);
  }

  get deadline(): AbortSignal {
    return this.#ac.signal;
  }

  received(n: number): void {
    this.#bytes += n;
  }

  expect(size: number): void {
    this.#size = size;
  }

  pauseDeadline(): () => void {
    if (this.#pauses++ === 0 && this.#running) {
      clearTimeout(this.#timer);
      this.#ranMs += this.#now() - this.#since;
    }
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      if (--this.#pauses === 0 && this.#running) {
        this.#since = this.#now();
        this.#arm(this.#dueMs - this.#ranMs);
      }
    };
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  get #running(): boolean {
    return !this.#closed && !this.#ac.signal.aborted;
  }

  /** The next check, one interval of running time after `fromMs` (at the deadline at the latest). */
  #schedule(fromMs: number): void {
    this.#dueMs = Math.min(fromMs + this.#everyMs, this.#limits.deadlineMs);
    this.#arm(this.#dueMs - fromMs);
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(this.#check, timerMs(ms));
    this.#timer.unref?.();
  }

  readonly #check = (): void => {
    if (!this.#running || this.#pauses > 0) return;
    const ms = this.#ranMs + (this.#now() - this.#since);
    const rule = this.#pace.sample(ms, this.#bytes, this.#size);
    if (rule === undefined) {
      this.#schedule(ms);
      return;
    }
    this.timedOut = rule;
    this.#ac.abort(new DOMException(this.#why(rule, ms), 'TimeoutError'));
  };

  #why(rule: FetchTimeoutRule, ms: number): string {
    const { idleMs, deadlineMs } = this.#limits;
    if (rule === 'idle') return `no byte from the origin for ${idleMs} ms`;
    if (rule === 'deadline') return `not complete within ${deadlineMs} ms`;
    const rate = Math.round(this.#pace.recentBytesPerSecond());
    return `${this.#bytes} of ${this.#size} bytes after ${Math.round(ms)} ms: at ${rate} B/s (the last ${idleMs} ms) the rest would not arrive within ${deadlineMs} ms`;
  }
}
