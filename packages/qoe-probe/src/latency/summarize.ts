export interface Summary {
  /** The newest value, or null before the first. */
  current: number | null;
  mean: number | null;
  p50: number | null;
  p95: number | null;
  /** How many values. */
  samples: number;
}

/** Nearest-rank percentile of ascending-sorted values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(values: readonly number[]): Summary {
  const n = values.length;
  if (n === 0) return { current: null, mean: null, p50: null, p95: null, samples: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  let sum = 0;
  for (const v of values) sum += v;
  return { current: values[n - 1]!, mean: sum / n, p50: percentile(sorted, 50), p95: percentile(sorted, 95), samples: n };
}
