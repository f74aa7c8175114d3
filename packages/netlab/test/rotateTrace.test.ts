import { describe, expect, it } from 'vitest';
import { parseMahimahiTrace, rotateTrace } from '@ethle/netlab';
import { syntheticMahimahiTrace } from './fixtures/syntheticTrace.js';

describe('rotateTrace: a mahimahi trace entered at another moment', () => {
  it('moves the opportunities after the offset to the front and the rest one period later', () => {
    expect(rotateTrace([1, 2, 2, 5, 7, 10], 4)).toEqual([1, 3, 6, 7, 8, 8]);
    expect(rotateTrace([1, 2, 2, 5, 7, 10], 0)).toEqual([1, 2, 2, 5, 7, 10]);
    expect(rotateTrace([1, 2, 2, 5, 7, 10], 14)).toEqual(rotateTrace([1, 2, 2, 5, 7, 10], 4)); // modulo the period
  });

  it('keeps every opportunity, keeps the trace sorted, and is the same radio read from the offset on', () => {
    const trace = parseMahimahiTrace(syntheticMahimahiTrace({ seconds: 20, mbps: 10, seed: 7 }));
    const period = trace[trace.length - 1]!;
    for (const offset of [1, 999, 4321, period - 1]) {
      const r = rotateTrace(trace, offset);
      expect(r).toHaveLength(trace.length);
      for (let i = 1; i < r.length; i++) expect(r[i]!).toBeGreaterThanOrEqual(r[i - 1]!);
      expect(r[0]!).toBeGreaterThan(0);
      expect(r[r.length - 1]!).toBeLessThanOrEqual(period);
      // What the radio delivers in a window starting at the offset is what the rotated trace delivers from 0.
      const count = (t: number[], lo: number, hi: number, withLo = false) => t.filter((x) => (withLo ? x >= lo : x > lo) && x <= hi).length;
      const wrapped = offset + 3000 > period ? count(trace, 0, offset + 3000 - period, true) : 0;
      expect(count(r, 0, 3000)).toBe(count(trace, offset, offset + 3000) + wrapped);
    }
  });
});
