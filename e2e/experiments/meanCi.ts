/**
 * Two-sided 95 % quantiles of Student's t by degrees of freedom (1–30), then at 40, 60 and 120;
 * between table points the smaller df's (larger) value is used, so an interval is never too narrow.
 */
const T95: Readonly<Record<number, number>> = {
  1: 12.706,
  2: 4.303,
  3: 3.182,
  4: 2.776,
  5: 2.571,
  6: 2.447,
  7: 2.365,
  8: 2.306,
  9: 2.262,
  10: 2.228,
  11: 2.201,
  12: 2.179,
  13: 2.16,
  14: 2.145,
  15: 2.131,
  16: 2.12,
  17: 2.11,
  18: 2.101,
  19: 2.093,
  20: 2.086,
  21: 2.08,
  22: 2.074,
  23: 2.069,
  24: 2.064,
  25: 2.06,
  26: 2.056,
  27: 2.052,
  28: 2.048,
  29: 2.045,
  30: 2.042,
  40: 2.021,
  60: 2.0,
  120: 1.98,
};

export function t95(df: number): number {
  if (!(Number.isInteger(df) && df >= 1)) throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  if (df >= 120) return df === 120 ? T95[120]! : 1.96;
  for (let d = df; d >= 1; d--) if (T95[d] !== undefined) return T95[d]!;
  return T95[1]!;
}

/** Mean and the half-width of its 95 % confidence interval (t × s / √n); half is null for one value. */
export interface MeanCi {
  n: number;
  mean: number;
  half: number | null;
}

/** Over the finite numbers of `xs` (nulls — a figure a run did not reach — are left out); null if none. */
export function meanCi(xs: readonly (number | null | undefined)[]): MeanCi | null {
  const v = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  if (v.length === 0) return null;
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  if (v.length === 1) return { n: 1, mean, half: null };
  const variance = v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1);
  return { n: v.length, mean, half: (t95(v.length - 1) * Math.sqrt(variance)) / Math.sqrt(v.length) };
}

/** `mean±half` (e.g. `3.21±0.45`), `mean` alone for one value, empty for none: one CSV cell. */
export function formatMeanCi(m: MeanCi | null, digits = 2): string {
  if (m === null) return '';
  return m.half === null ? m.mean.toFixed(digits) : `${m.mean.toFixed(digits)}±${m.half.toFixed(digits)}`;
}
