/**
 * Intersection of the most recent mutually consistent intervals, newest first (NTP-style, without
 * outlier voting). A new interval that contradicts older ones means the quantity moved (a clock
 * step, a change of hold): the older ones are forgotten instead of wedging the estimate.
 */
export interface IntervalEstimate {
  /** Midpoint of the intersection. */
  value: number;
  /** Half-width of the intersection. */
  precision: number;
  /** Intervals that contributed. */
  samples: number;
}

export interface IntervalIntersection {
  add(lo: number, hi: number): void;
  estimate(): IntervalEstimate | null;
}

export function createIntervalIntersection(maxSamples: number): IntervalIntersection {
  const intervals: [number, number][] = [];
  let cached: IntervalEstimate | null = null;
  return {
    add(a, b) {
      intervals.push([a, b]);
      if (intervals.length > maxSamples) intervals.shift();
      let lo = -Infinity;
      let hi = Infinity;
      let n = 0;
      for (let i = intervals.length - 1; i >= 0; i--) {
        const [x, y] = intervals[i]!;
        if (Math.max(lo, x) > Math.min(hi, y)) {
          intervals.splice(0, i + 1);
          break;
        }
        lo = Math.max(lo, x);
        hi = Math.min(hi, y);
        n++;
      }
      cached = { value: (lo + hi) / 2, precision: (hi - lo) / 2, samples: n };
    },
    estimate: () => cached,
  };
}
