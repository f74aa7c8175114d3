import type { FetchLimits } from './fetchLimits.js';

/** Why a fetch ran out of time: no byte for idleMs, too slow to finish within deadlineMs, or past it. */
export type FetchTimeoutRule = 'idle' | 'slow' | 'deadline';

/**
 * The pace of one origin fetch and the rules that end it, judged on samples of its running time
 * (ms, the edge's own waits excluded) and the bytes received by then:
 *
 * - `idle`: no byte for `idleMs` — a stalled origin;
 * - `slow`: bytes arrived since the last sample, but at the rate of the last `idleMs` (a sliding
 *   window) the bytes still missing of an object of known size would not arrive before
 *   `deadlineMs` — an origin trickling 1 KB/s never trips an idle timer, and waiting for the
 *   outer bound only delays the retry. A fetch whose recent rate brings the rest in time is never
 *   ended by it, however long it takes; one that stopped is left to `idle`;
 * - `deadline`: `deadlineMs` of running time reached.
 *
 * Pure (no clock, no timer): FetchSignal samples it from its one timer.
 */
export class FetchPace {
  readonly #idleMs: number;
  readonly #deadlineMs: number;
  /** [running ms, bytes] samples: the newest one at least idleMs old, and every one after it. */
  readonly #samples: Array<readonly [number, number]> = [[0, 0]];
  #lastBytes = 0;
  /** The first sample that saw #lastBytes: the last byte arrived at most one sample interval before. */
  #lastChangeMs = 0;

  constructor(limits: FetchLimits) {
    this.#idleMs = limits.idleMs;
    this.#deadlineMs = limits.deadlineMs;
  }

  /**
   * The rule that ends the fetch at running time `ms`, having received `bytes` of `size` (undefined
   * while the size is unknown: no rate rule), or undefined while it may go on. Samples come in
   * time order.
   */
  sample(ms: number, bytes: number, size: number | undefined): FetchTimeoutRule | undefined {
    const progressed = bytes !== this.#lastBytes;
    if (progressed) {
      this.#lastBytes = bytes;
      this.#lastChangeMs = ms;
    } else if (ms - this.#lastChangeMs >= this.#idleMs) return 'idle';
    if (ms >= this.#deadlineMs) return 'deadline';
    const s = this.#samples;
    s.push([ms, bytes]);
    while (s.length > 1 && s[1]![0] <= ms - this.#idleMs) s.shift();
    const [t0, b0] = s[0]!;
    // Slow is said of a fetch that is progressing, too slowly; one that stopped is the idle rule's.
    if (!progressed || size === undefined || bytes >= size || ms - t0 < this.#idleMs) return undefined;
    const perMs = (bytes - b0) / (ms - t0);
    return perMs * (this.#deadlineMs - ms) < size - bytes ? 'slow' : undefined;
  }

  /** The rate over the last window, bytes/s (for the error's message). */
  recentBytesPerSecond(): number {
    const s = this.#samples;
    const [t0, b0] = s[0]!;
    const [t1, b1] = s[s.length - 1]!;
    return t1 > t0 ? ((b1 - b0) * 1000) / (t1 - t0) : 0;
  }
}
