import { timerMs } from '@ethle/core';

/**
 * The two ways a segment fetch is stopped — nobody waits for it (its entry's AbortController), or
 * it ran past its deadline — and either of them, which the requests and waits of the fetch take.
 * Kept apart so a failure can say which one it was (ERR_EDGE_CANCELLED vs ERR_EDGE_ORIGIN_TIMEOUT).
 */
export interface FetchSignal {
  cancel: AbortSignal;
  deadline: AbortSignal;
  any: AbortSignal;
  /**
   * Stop the deadline's clock while the fetch waits on the edge itself — room in the byte budget,
   * its readers taking what it holds — and return what starts it again. The deadline is for an
   * origin that hangs or trickles; time the edge holds the origin back (TCP flow control) is not
   * the origin's, and counting it cut every reader of a fetch that only waited for its slowest
   * one. Those waits have their own bounds: each reader's send deadline, the cancel signal.
   */
  pauseDeadline(): () => void;
}

/**
 * A fetch's signal, its deadline `deadlineMs` of running time from now (the queue wait is over
 * when this is called). Throws on a deadline no timer accepts (timerMs): a bug of the caller's.
 */
export function fetchSignal(cancel: AbortSignal, deadlineMs: number, now: () => number = () => performance.now()): FetchSignal {
  const d = new PausableDeadline(timerMs(deadlineMs), now);
  return { cancel, deadline: d.signal, any: AbortSignal.any([cancel, d.signal]), pauseDeadline: () => d.pause() };
}

/**
 * A timeout signal whose clock can be stopped; pauses nest (parallel range parts wait at once).
 * Its reason is a TimeoutError, as AbortSignal.timeout's; its timer does not keep the process up.
 */
class PausableDeadline {
  readonly #ac = new AbortController();
  readonly #now: () => number;
  #remainingMs: number;
  #since = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pauses = 0;

  constructor(ms: number, now: () => number) {
    this.#remainingMs = ms;
    this.#now = now;
    this.#run();
  }

  get signal(): AbortSignal {
    return this.#ac.signal;
  }

  pause(): () => void {
    if (this.#pauses++ === 0 && !this.#ac.signal.aborted) {
      clearTimeout(this.#timer);
      this.#remainingMs = Math.max(0, this.#remainingMs - (this.#now() - this.#since));
    }
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      if (--this.#pauses === 0 && !this.#ac.signal.aborted) this.#run();
    };
  }

  #run(): void {
    this.#since = this.#now();
    this.#timer = setTimeout(
      () => this.#ac.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      timerMs(this.#remainingMs),
    );
    this.#timer.unref?.();
  }
}
