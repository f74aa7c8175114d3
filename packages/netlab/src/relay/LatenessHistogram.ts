/** How late a relay's datagrams left against their scheduled departures, ms (negative: early). */
export interface LatenessSummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const BIN_MS = 0.01;
const MIN_MS = -2;
const BINS = 2200; // −2 … +20 ms in 10 µs bins; later ones are counted above the last bin

/**
 * Lateness of every datagram a relay direction sends, in constant memory (a relay carries
 * millions of packets per run): fixed 10 µs bins, percentiles read as a bin's upper edge — so a
 * reported p99 is never below the true one by more than 10 µs and never below it at all above
 * 20 ms, where the exact maximum is reported instead.
 */
export class LatenessHistogram {
  /** The memory it counts in: pass it to another thread's LatenessHistogram to read the same counts. */
  readonly buffer: SharedArrayBuffer;
  private readonly bins: Uint32Array;
  /** [count, max]: one writer (the relay's sending thread); readers see a consistent-enough snapshot. */
  private readonly totals: Float64Array;

  constructor(buffer?: SharedArrayBuffer) {
    this.buffer = buffer ?? new SharedArrayBuffer(16 + 4 * (BINS + 1));
    this.totals = new Float64Array(this.buffer, 0, 2);
    this.bins = new Uint32Array(this.buffer, 16, BINS + 1);
    if (!buffer) this.totals[1] = -Infinity;
  }

  private get count(): number {
    return this.totals[0]!;
  }

  private get max(): number {
    return this.totals[1]!;
  }

  record(ms: number): void {
    const i = Math.min(BINS, Math.max(0, Math.floor((ms - MIN_MS) / BIN_MS)));
    this.bins[i]! += 1;
    this.totals[0]! += 1;
    if (ms > this.max) this.totals[1] = ms;
  }

  summary(): LatenessSummary {
    return { count: this.count, p50Ms: this.quantile(0.5), p99Ms: this.quantile(0.99), maxMs: this.count ? this.max : 0 };
  }

  private quantile(q: number): number {
    if (this.count === 0) return 0;
    const rank = Math.ceil(q * this.count);
    let seen = 0;
    for (let i = 0; i < BINS; i++) {
      seen += this.bins[i]!;
      if (seen >= rank) return Math.min(this.max, MIN_MS + (i + 1) * BIN_MS);
    }
    return this.max;
  }
}
