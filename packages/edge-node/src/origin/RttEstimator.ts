/**
 * Backhaul RTT of one origin, measured by the edge itself (paper Section III-A, eq. 5):
 * the minimum over a window of TCP connect times (one round trip) and times to first byte
 * (one round trip plus server time, so never below the RTT). The newest sample is always kept
 * so a long-lived keep-alive connection still has an estimate. Read on every manifest request:
 * the minimum is cached and recomputed only when the window changes.
 */
export class RttEstimator {
  readonly #windowMs: number;
  readonly #samples: Array<{ atMs: number; rttMs: number }> = [];
  #min: number | undefined;
  #dirty = false;

  constructor(windowMs = 10_000) {
    this.#windowMs = windowMs;
  }

  add(_kind: 'connect' | 'ttfb', rttMs: number, atMs: number): void {
    if (!Number.isFinite(rttMs) || rttMs < 0) return;
    this.#samples.push({ atMs, rttMs });
    if (this.#min === undefined || rttMs < this.#min) this.#min = rttMs;
    this.#prune(atMs);
  }

  /** The current estimate in ms, or undefined before the first sample. */
  estimateMs(nowMs: number): number | undefined {
    this.#prune(nowMs);
    if (this.#dirty) {
      this.#dirty = false;
      let min: number | undefined;
      for (const s of this.#samples) if (min === undefined || s.rttMs < min) min = s.rttMs;
      this.#min = min;
    }
    return this.#min;
  }

  #prune(nowMs: number): void {
    while (this.#samples.length > 1 && nowMs - this.#samples[0]!.atMs > this.#windowMs) {
      this.#samples.shift();
      this.#dirty = true;
    }
    if (this.#samples.length > 256) {
      this.#samples.splice(0, this.#samples.length - 256);
      this.#dirty = true;
    }
  }
}
