import { describe, expect, it } from 'vitest';
import { dashTrueLatency, hlsTrueLatency, percentile, programDateTimeAt, summarize } from '../src/index.js';

describe('true latency', () => {
  it('HLS: server now minus the playing program date-time, in seconds', () => {
    const pdt = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(hlsTrueLatency(pdt + 6_500, pdt)).toBe(6.5);
  });

  it('HLS: program date-time of the playhead from the playing fragment', () => {
    const pdt = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(programDateTimeAt(101.25, 100, pdt)).toBe(pdt + 1_250);
  });

  it('DASH: the edge shifted AST later by the hold, so the frame is that much older', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 10);
    const utc = (now - 5_000) / 1000; // dash.js says the playhead is 5 s behind
    expect(dashTrueLatency(now, utc, 0)).toBeCloseTo(5, 9);
    expect(dashTrueLatency(now, utc, 4)).toBeCloseTo(9, 9);
  });

  it('latency grows one for one with the server clock (units agree)', () => {
    const pdt = 1_700_000_000_000;
    expect(hlsTrueLatency(pdt + 2_000, pdt) - hlsTrueLatency(pdt + 1_000, pdt)).toBe(1);
    expect(dashTrueLatency(pdt + 2_000, pdt / 1000, 0) - dashTrueLatency(pdt + 1_000, pdt / 1000, 0)).toBeCloseTo(1, 9);
  });
});

describe('summarize', () => {
  it('empty input has no statistics', () => {
    expect(summarize([])).toEqual({ current: null, mean: null, p50: null, p95: null, samples: 0 });
  });

  it('a constant input gives that constant everywhere', () => {
    expect(summarize([3, 3, 3, 3])).toEqual({ current: 3, mean: 3, p50: 3, p95: 3, samples: 4 });
  });

  it('nearest-rank percentiles and the newest value as current', () => {
    const v = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, newest is 1
    const s = summarize(v);
    expect(s).toMatchObject({ current: 1, mean: 50.5, p50: 50, p95: 95, samples: 100 });
    expect(percentile([1, 2, 3], 100)).toBe(3);
    expect(percentile([1, 2, 3], 0)).toBe(1);
  });
});
