/**
 * Robust intersection of recent intervals, each known to contain the true value
 * (Marzullo's algorithm over a sliding window): the estimate is the region covered by the most
 * intervals, so a few wrong ones (a cached response's stale Date header, a delayed response) are
 * outvoted instead of poisoning the result, and when the quantity really moves (a clock step, a
 * change of hold) the region of the newer intervals wins once they outnumber the older ones.
 * Ties go to newer intervals.
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
      // Sweep the endpoints; each interval weighs 1 plus a small recency bonus (< 1 in total).
      const ends: [number, number][] = [];
      intervals.forEach(([x, y], i) => {
        const w = 1 + i / (maxSamples * maxSamples);
        ends.push([x, w], [y, -w]);
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
      cached = { value: (lo + hi) / 2, precision: (hi - lo) / 2, samples: Math.floor(best) };
    },
    estimate: () => cached,
  };
}
