import { describe, expect, it } from 'vitest';
import {
  asResultSet,
  cdf,
  latencyStack,
  latencyTimeline,
  summarizeRun,
  tableII,
  throughputByScheme,
  type RunResult,
} from '@ethle/player-demo';

// A fixture for the aggregation code only (the dashboard test renders real runs).
function run(
  scheme: string,
  repeat: number,
  o: { startupMs: number; stallMs: number; hold: number; latency: number; mbps: number[] },
): RunResult {
  const t0 = 1_000_000;
  return {
    v: 1,
    id: `${scheme}-${repeat}`,
    startedAt: new Date(t0).toISOString(),
    scenario: { stream: '15M-2s', player: 'hls', scheme, rttMs: 224, repeat, durationS: 60 },
    report: {
      startupMs: o.startupMs,
      stalls: {
        count: o.stallMs > 0 ? 1 : 0,
        totalMs: o.stallMs,
        list: o.stallMs > 0 ? [{ start: t0 + 5000, end: t0 + 5000 + o.stallMs, durationMs: o.stallMs }] : [],
      },
      latency: { current: o.latency, mean: o.latency },
      holdSeconds: o.hold,
      latencySeries: [
        { at: t0, trueLatency: o.latency - 1, edgeDistance: null },
        { at: t0 + 2000, trueLatency: o.latency, edgeDistance: null },
      ],
      segments: {
        count: o.mbps.length,
        bytes: 0,
        list: o.mbps.map((m, i) => ({
          kind: 'media',
          url: `/live/s/${i}.m4s`,
          requestStart: t0 + i,
          lastByte: t0 + i + 1,
          bytes: 1,
          throughputBps: m * 1e6,
        })),
      },
    },
  };
}

const set = {
  v: 1 as const,
  runs: [
    run('e2e', 1, { startupMs: 14000, stallMs: 3000, hold: 0, latency: 20, mbps: [30, 40] }),
    run('e2e', 2, { startupMs: 16000, stallMs: 5000, hold: 0, latency: 24, mbps: [20] }),
    run('auto', 1, { startupMs: 4000, stallMs: 0, hold: 4, latency: 9, mbps: [60, 50] }),
  ],
};

describe('dashboard data shaping', () => {
  it('summarizes a run in seconds and Mbit/s, taking the last true latency', () => {
    expect(summarizeRun(set.runs[0]!)).toMatchObject({
      cell: '15M-2s @ 224 ms',
      scheme: 'e2e',
      throughputMbps: 35,
      startupS: 14,
      stallS: 3,
      holdS: 0,
      latencyS: 20,
    });
  });

  it("a cell names the network settings that differ from the paper's: a backhaul cap or loss makes another cell", () => {
    const r = set.runs[0]!;
    const withNet = (extra: object) => summarizeRun({ ...r, scenario: { ...r.scenario, ...extra } }).cell;
    expect(withNet({ backhaulMbps: 150 })).toBe('15M-2s @ 224 ms (backhaul 150 Mbit/s)');
    expect(withNet({ backhaulLossPct: 0.5, cc: 'cubic' })).toBe('15M-2s @ 224 ms (cubic, backhaul loss 0.5 %)');
  });

  it('Table II averages repeats per cell and scheme, E2E first', () => {
    const rows = tableII(set);
    expect(rows.map((r) => r.scheme)).toEqual(['e2e', 'auto']);
    expect(rows[0]).toMatchObject({ runs: 2, startupS: 15, stallS: 4, latencyS: 22 });
    expect(rows[0]!.throughputMbps).toBeCloseTo(27.5);
  });

  it('an invalid run is counted beside the means, never in them; a cell with only invalid runs has no Fig. 9 bar and no CDF', () => {
    const bad = {
      ...run('e2e', 3, { startupMs: 90000, stallMs: 60000, hold: 0, latency: 99, mbps: [1] }),
      invalid: 'unmodelled drop: backhaul down lost 12 packets',
    };
    const onlyBad = { ...run('hold-2', 1, { startupMs: 1000, stallMs: 0, hold: 4, latency: 9, mbps: [80] }), invalid: 'relay late' };
    const withBad = { ...set, runs: [...set.runs, bad, onlyBad] };
    const e2e = tableII(withBad).find((r) => r.scheme === 'e2e')!;
    expect(e2e).toMatchObject({ runs: 2, invalid: 1, startupS: 15, stallS: 4, latencyS: 22 });
    expect(tableII(withBad).find((r) => r.scheme === 'hold-2')).toMatchObject({ runs: 0, invalid: 1, startupS: null });
    expect(latencyStack(withBad).map((s) => s.scheme)).toEqual(['e2e', 'auto']);
    expect(throughputByScheme(withBad).get('e2e')).toEqual([30, 40, 20]);
    expect(throughputByScheme(withBad).has('hold-2')).toBe(false);
  });

  it('lateness injected on purpose makes a cell of its own', () => {
    const r = set.runs[0]!;
    expect(summarizeRun({ ...r, scenario: { ...r.scenario, cc: 'cubic', injectLateness: { p99Ms: 2, stallsPerMinute: 3 } } }).cell).toBe(
      '15M-2s @ 224 ms (cubic, lateness p99 2 ms + 3 stalls/min)',
    );
    expect(summarizeRun({ ...r, scenario: { ...r.scenario, injectLateness: { p99Ms: 0, stallsPerMinute: 3 } } }).cell).toBe(
      '15M-2s @ 224 ms (lateness 3 stalls/min)',
    );
  });

  it("Fig. 9 stack adds up to the measured latency, the player's offset being the rest", () => {
    for (const s of latencyStack(set)) {
      const row = tableII(set).find((r) => `${r.cell} ${r.scheme}` === s.label)!;
      expect(s.startupS + s.stallS + s.holdS + s.playerOffsetS).toBeCloseTo(row.latencyS!);
    }
  });

  it('CDF is sorted, ends at 1 and drops non-finite values', () => {
    expect(cdf([3, 1, Number.NaN, 2])).toEqual([
      { x: 1, p: 1 / 3 },
      { x: 2, p: 2 / 3 },
      { x: 3, p: 1 },
    ]);
    expect([...throughputByScheme(set).get('e2e')!].sort()).toEqual([20, 30, 40]);
  });

  it('timelines start at 0 and put stalls on the same axis', () => {
    const tl = latencyTimeline(set.runs[0]!);
    expect(tl.points[0]).toEqual({ t: 0, latency: 19 });
    expect(tl.stalls).toEqual([{ t: 5, durationS: 3 }]);
  });

  it('accepts a result set or a single run, and rejects anything else clearly', () => {
    expect(asResultSet(set.runs[0]).runs).toHaveLength(1);
    expect(() => asResultSet({ nope: 1 })).toThrow(/not a results file/);
  });
});
