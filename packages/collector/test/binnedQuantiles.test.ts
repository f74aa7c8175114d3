import { describe, expect, it } from 'vitest';
import { binnedQuantiles, type ValueBin } from '../src/query/binnedQuantiles.js';

/** SQL's percentile_cont over the samples themselves: the oracle. */
function exact(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const pos = q * (s.length - 1);
  const k = Math.floor(pos);
  return k + 1 < s.length ? s[k]! + (pos - k) * (s[k + 1]! - s[k]!) : s[k]!;
}

function binsOf(xs: readonly number[], key: (x: number) => number): ValueBin[] {
  const m = new Map<number, ValueBin>();
  for (const x of xs) {
    const b = m.get(key(x));
    if (b === undefined) m.set(key(x), { count: 1, lo: x, hi: x });
    else {
      b.count += 1;
      b.lo = Math.min(b.lo, x);
      b.hi = Math.max(b.hi, x);
    }
  }
  return [...m].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const Q = [0, 0.01, 0.25, 0.5, 0.95, 0.99, 1];

describe('binnedQuantiles', () => {
  it('is within the widest bin of the exact percentile_cont, whatever the samples', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = random(seed);
      const n = 1 + Math.floor(r() * 400);
      // Latency-like: a body of seconds, repeated values, a tail of minutes.
      const xs = Array.from({ length: n }, () => {
        const u = r();
        if (u < 0.2) return Math.round(r() * 20); // whole seconds, repeated
        if (u < 0.9) return 2 + r() * 12;
        return 60 + r() * 600;
      });
      const width = seed % 2 ? 0.01 : 0.5;
      const bins = binsOf(xs, (x) => Math.floor(x / width));
      const widest = Math.max(...bins.map((b) => b.hi - b.lo));
      expect(widest).toBeLessThanOrEqual(width);
      binnedQuantiles(bins, Q).forEach((v, i) => {
        expect(Math.abs(v! - exact(xs, Q[i]!)), `seed ${seed} q ${Q[i]}`).toBeLessThanOrEqual(widest + 1e-9);
      });
    }
  });

  it('is exact where each bin holds one value, and at the lowest and highest sample', () => {
    const xs = [3, 3, 4, 5, 5, 5, 9];
    const bins = binsOf(xs, (x) => x);
    expect(binnedQuantiles(bins, Q)).toEqual(Q.map((q) => exact(xs, q)));
    const spread = binsOf([1.001, 1.004, 1.009, 7.2], (x) => Math.floor(x));
    expect(binnedQuantiles(spread, [0, 1])).toEqual([1.001, 7.2]);
  });

  it('has nothing to say of no samples', () => {
    expect(binnedQuantiles([], [0.5, 0.99])).toEqual([null, null]);
  });
});
