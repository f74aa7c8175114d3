import { describe, expect, it } from 'vitest';
import { autoGoal, autoGoalTable } from './autoGoal.js';
import type { RunRow } from './mergeRuns.js';

let n = 0;
const row = (
  scheme: string,
  x: number | null,
  bufferingS: number,
  stalls: number,
  latencyS: number,
  extra: Partial<RunRow> = {},
): RunRow => ({
  id: `r${n++}`,
  cell: '15M-2s @ 224 ms [virtual]',
  rttMs: 224,
  stream: '15M-2s',
  scheme,
  receiver: 'virtual',
  repeat: 1,
  startupS: 3,
  bufferingS,
  stalls,
  latencyS,
  x,
  holdS: x === null ? 0 : x * 2,
  cpuPressure: 0.1,
  throughputMbps: null,
  measuredBackhaulMbps: null,
  steadyBackhaulMbps: null,
  xChanges: '',
  stallCauses: '',
  topShare: null,
  switches: null,
  renditionChanges: '',
  originRenditions: '',
  lateP99Ms: null,
  unmodelledDrops: null,
  modelledDrops: null,
  originRetrans: null,
  inject: '',
  failedBars: '',
  startedAt: '',
  commit: '',
  invalid: '',
  source: 't',
  ...extra,
});

describe('autoGoal (issue 19: auto against the best fixed x and E2E, per cell)', () => {
  it('met: auto buffers no more than the best fixed x and E2E, latency within one segment of the smallest stall-free x', () => {
    const rows = [
      row('e2e', null, 4, 2, 9),
      row('e2e', null, 6, 3, 9),
      row('hold-0', 0, 2, 1, 9),
      row('hold-0', 0, 3, 1, 9),
      row('hold-paper', 2, 0, 0, 13),
      row('hold-paper', 2, 0, 0, 13.4),
      row('auto', 2, 0, 0, 13.2),
      row('auto', 2, 0, 0, 13.3),
    ];
    const [g] = autoGoal(rows);
    expect(g).toMatchObject({
      runs: { e2e: 2, 'hold-0': 2, 'hold-paper': 2, auto: 2 },
      noWorseThanBestFixed: true,
      noWorseThanE2e: true,
      latencyWithinOneSegment: true,
    });
    expect(g!.bestFixed?.scheme).toBe('hold-paper');
    expect(g!.smallestStallFree).toMatchObject({ scheme: 'hold-paper', x: 2 });
  });

  it('missed: auto holds x = 2 where hold-0 played without a stall, 4 s (two segments) later', () => {
    const rows = [
      row('hold-0', 0, 0, 0, 9.2),
      row('hold-0', 0, 0, 0, 9.5),
      row('auto', 2, 0, 0, 13.3),
      row('auto', 2, 0, 0, 12.9),
      row('e2e', null, 0, 0, 10),
    ];
    const [g] = autoGoal(rows);
    expect(g).toMatchObject({ noWorseThanBestFixed: true, noWorseThanE2e: true, latencyWithinOneSegment: false });
    expect(autoGoalTable([g!])).toContain('| **no** |');
  });

  it('buffering worse than the best fixed x beyond both intervals is a miss; overlapping intervals are not', () => {
    // Five repeats each (the least): 95 % half-widths ≈ 2.78 s / √5 × s.
    const five = (scheme: string, x: number, b: number[]) => b.map((v) => row(scheme, x, v, v > 0 ? 1 : 0, 13));
    const worse = autoGoal([...five('hold-2', 2, [0, 0.2, 0, 0.1, 0]), ...five('auto', 2, [5, 6, 5.5, 4.5, 6])])[0]!;
    expect(worse.noWorseThanBestFixed).toBe(false);
    expect(worse.auto?.stalls).toBe(5);
    const overlap = autoGoal([...five('hold-2', 2, [1, 3, 0, 2, 4]), ...five('auto', 2, [2, 4, 1, 5, 3])])[0]!;
    expect(overlap.noWorseThanBestFixed).toBe(true);
    // Two repeats give intervals so wide (t = 12.7) that the same gap passes: the goal needs repeats.
    expect(autoGoal([...five('hold-2', 2, [0, 0.2]), ...five('auto', 2, [5, 6])])[0]!.noWorseThanBestFixed).toBe(true);
  });

  it('a variant of auto (auto-warm) is checked in the cells where it ran, against the same fixed x', () => {
    const rows = [
      row('hold-0', 0, 0, 0, 9.2),
      row('hold-0', 0, 0, 0, 9.5),
      row('auto', 2, 0, 0, 13.3),
      row('auto-warm', 0, 0, 0, 9.4),
      row('auto-warm', 0, 0, 0, 9.6),
    ];
    const [g] = autoGoal(rows, 'auto-warm');
    expect(g).toMatchObject({ scheme: 'auto-warm', latencyWithinOneSegment: true, auto: { stalls: 0 } });
    expect(autoGoal(rows)[0]).toMatchObject({ scheme: 'auto', latencyWithinOneSegment: false });
    const table = autoGoalTable([g!]);
    expect(table).toContain('| runs (auto-warm) | auto-warm buffering (s) |');
    expect(table).toContain('| 15M-2s @ 224 ms [virtual] | 2 |');
    // A cell where the variant did not run has no row for it.
    expect(autoGoal([row('hold-0', 0, 0, 0, 9), row('auto', 2, 0, 0, 13)], 'auto-warm')).toEqual([]);
  });

  it('invalid runs are left out; a cell without auto or without fixed x says so (undefined), not pass', () => {
    const [g] = autoGoal([row('e2e', null, 1, 1, 9), row('auto', 2, 9, 3, 13, { invalid: 'ran up p99 1.2 ms' })]);
    expect(g).toMatchObject({ runs: { e2e: 1 }, auto: undefined, noWorseThanE2e: undefined, noWorseThanBestFixed: undefined });
  });
});
