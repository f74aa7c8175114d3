/**
 * One bin of a sample distribution: how many samples fell in it and the lowest and highest of
 * them. Bins are disjoint and come in the order of their values.
 */
export interface ValueBin {
  count: number;
  lo: number;
  hi: number;
}

/**
 * percentile_cont (linear interpolation between the two nearest ranks, as SQL's) over samples
 * known only by their bins. Each rank's value is placed between its bin's lowest and highest
 * sample (exact at both ends, and for a bin whose samples are all equal), so every estimate is
 * within the widest bin's width (hi − lo) of the exact percentile. Null for no samples.
 */
export function binnedQuantiles(bins: readonly ValueBin[], fractions: readonly number[]): (number | null)[] {
  const n = bins.reduce((a, b) => a + b.count, 0);
  if (n === 0) return fractions.map(() => null);
  /** The value of the rank-th smallest sample (0-based), estimated within its bin. */
  const at = (rank: number): number => {
    let before = 0;
    for (const b of bins) {
      if (rank < before + b.count) {
        const j = rank - before;
        return b.count === 1 ? b.lo : b.lo + ((b.hi - b.lo) * j) / (b.count - 1);
      }
      before += b.count;
    }
    return bins[bins.length - 1]!.hi;
  };
  return fractions.map((q) => {
    const pos = q * (n - 1);
    const k = Math.floor(pos);
    const lo = at(k);
    return k + 1 < n ? lo + (pos - k) * (at(k + 1) - lo) : lo;
  });
}
