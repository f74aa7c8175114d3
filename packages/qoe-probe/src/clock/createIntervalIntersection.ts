/**
 * Robust intersection of intervals, each known to contain the true value when it was taken
 * (Marzullo's algorithm): the estimate is the region covered by the most intervals, so a few wrong
 * ones (a cached response's stale Date header, a delayed response) are outvoted instead of
 * poisoning the result. Ties go to newer intervals.
 *
 * What is kept decides what is known later. A window of the newest N forgets the few intervals
 * that bound the region tightly (the probe's bisecting GETs) once the player's own responses,
 * which keep hitting the same phase, push them out: the estimate then falls back to their coarse
 * agreement (±0.3 s, 20 s into a session on a loaded box). So the newest KEEP_NEWEST are kept for
 * voting and, beyond them, the intervals whose ends come closest to the region: at `maxSamples`
 * the one with the most slack on both sides goes (an interval that misses the region first).
 * Intervals widen with age by `driftPerMs` on each side, as the value itself may move that fast
 * (two clocks' rates differ). When it really jumps (a clock step, a change of hold), new
 * intervals miss the region; after STEP in a row the older ones are dropped.
 */
export interface IntervalEstimate {
  /** Midpoint of the region. */
  value: number;
  /** Half-width of the region. */
  precision: number;
  /** Intervals that agree on it. */
  samples: number;
}

export interface IntervalIntersection {
  /** An interval taken at time `atMs` (the clock `driftPerMs` is per ms of; omit without drift). */
  add(lo: number, hi: number, atMs?: number): void;
  estimate(): IntervalEstimate | null;
}

/** The newest intervals, always kept (they carry the vote on what changed). */
const KEEP_NEWEST = 8;
/** New intervals in a row that miss the region before the older ones are dropped. */
const STEP = 4;

export function createIntervalIntersection(maxSamples: number, driftPerMs = 0): IntervalIntersection {
  const kept: { lo: number; hi: number; at: number }[] = [];
  let missed = 0;
  let cached: IntervalEstimate | null = null;
  /** Marzullo's sweep over the kept intervals aged to `now`; each weighs 1 plus a small recency bonus (< 1 in total). */
  const sweep = (now: number) => {
    const ends: [number, number][] = [];
    kept.forEach((s, i) => {
      const w = 1 + i / (maxSamples * maxSamples);
      const d = driftPerMs * (now - s.at);
      ends.push([s.lo - d, w], [s.hi + d, -w]);
    });
    ends.sort((p, q) => p[0] - q[0] || q[1] - p[1]); // at a tie, openings first: closed intervals
    let count = 0;
    let best = 0;
    let lo = 0;
    let hi = 0;
    ends.forEach(([v, w], i) => {
      count += w;
      if (count > best + 1e-12) {
        best = count;
        lo = v;
        hi = ends[i + 1]![0];
      }
    });
    return { value: (lo + hi) / 2, precision: (hi - lo) / 2, samples: Math.floor(best) };
  };
  return {
    add(a, b, at = 0) {
      const c = cached;
      missed = c && (b < c.value - c.precision || a > c.value + c.precision) ? missed + 1 : 0;
      if (missed >= STEP) {
        kept.splice(0, kept.length - (STEP - 1));
        missed = 0;
      }
      kept.push({ lo: a, hi: b, at });
      let e = sweep(at);
      if (kept.length > maxSamples) {
        // Slack: how far the interval's nearer end lies outside the region (∞ if it misses it).
        const slack = (s: (typeof kept)[number]) => {
          const d = driftPerMs * (at - s.at);
          const m = Math.min(e.value - e.precision - (s.lo - d), s.hi + d - (e.value + e.precision));
          return m < -1e-6 ? Infinity : m; // (an end on the region's edge is its bound, whatever the rounding)
        };
        let w = 0;
        for (let i = 1; i < kept.length - KEEP_NEWEST; i++) if (slack(kept[i]!) > slack(kept[w]!)) w = i;
        kept.splice(w, 1);
        e = sweep(at);
      }
      cached = e;
    },
    estimate: () => cached,
  };
}
