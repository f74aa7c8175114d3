import { describe, expect, it } from 'vitest';
import { LatenessHistogram } from '../src/relay/LatenessHistogram.js';

describe("LatenessHistogram (a relay direction's departure lateness)", () => {
  it('empty: zero count and zeros, not NaN', () => {
    expect(new LatenessHistogram().summary()).toEqual({ count: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 });
  });

  it('percentiles within one 10 µs bin above the true value, never below it; the exact maximum', () => {
    const h = new LatenessHistogram();
    const xs = Array.from({ length: 1000 }, (_, i) => -0.9 + i * 0.0013); // −0.9 … +0.4 ms
    for (const x of [...xs].reverse()) h.record(x); // order does not matter
    const s = h.summary();
    const sorted = [...xs].sort((a, b) => a - b);
    for (const [got, q] of [
      [s.p50Ms, 0.5],
      [s.p99Ms, 0.99],
    ] as const) {
      const truth = sorted[Math.ceil(q * xs.length) - 1]!;
      expect(got).toBeGreaterThanOrEqual(truth - 1e-9);
      expect(got).toBeLessThanOrEqual(truth + 0.01 + 1e-9);
    }
    expect(s.maxMs).toBe(sorted.at(-1));
    expect(s.count).toBe(1000);
  });

  it('a few very late datagrams: p99 tells whether more than 1 % were late, max how late the worst was', () => {
    const h = new LatenessHistogram();
    for (let i = 0; i < 990; i++) h.record(0.1);
    for (let i = 0; i < 10; i++) h.record(250); // beyond the bins: counted, and max stays exact
    expect(h.summary().p99Ms).toBeCloseTo(0.11, 6);
    expect(h.summary().maxMs).toBe(250);
    h.record(250);
    expect(h.summary().p99Ms).toBe(250); // now more than 1 % are that late
  });
});
