import { describe, expect, it } from 'vitest';
import { baseCell, latenessEffect, latenessEffectMarkdown, suggestedLateBar } from './latenessEffect.js';
import type { RunRow } from './mergeRuns.js';

let n = 0;
/** A run of the 50M-2s cell at 137 ms, CUBIC, with or without injected lateness. */
const row = (
  scheme: string,
  inject: string,
  lateP99Ms: number,
  startupS: number,
  bufferingS: number,
  latencyS: number,
  failed = '',
): RunRow => ({
  id: `r${n++}`,
  cell: `50M-2s @ 137 ms (cubic${inject ? `, ${inject}` : ''}) [virtual]`,
  rttMs: 137,
  stream: '50M-2s',
  scheme,
  receiver: 'virtual',
  repeat: 1,
  throughputMbps: null,
  startupS,
  bufferingS,
  stalls: 0,
  latencyS,
  x: null,
  holdS: 0,
  cpuPressure: null,
  measuredBackhaulMbps: null,
  steadyBackhaulMbps: null,
  xChanges: '',
  stallCauses: '',
  topShare: null,
  switches: null,
  renditionChanges: '',
  originRenditions: '',
  lateP99Ms,
  unmodelledDrops: 0,
  modelledDrops: 0,
  originRetrans: 0,
  inject,
  startedAt: '',
  commit: '',
  failedBars: failed,
  invalid: failed ? `failed ${failed}` : '',
  source: 't',
});

const L1 = 'lateness p99 1 ms + 3 stalls/min';
const L5 = 'lateness p99 5 ms + 3 stalls/min';

describe('latenessEffect (the experiment that sets the lateness bar)', () => {
  const rows = [
    // None injected: the run-to-run spread.
    row('e2e', '', 0.3, 3.0, 10, 12),
    row('e2e', '', 0.35, 3.4, 14, 13),
    row('e2e', '', 0.3, 3.2, 12, 12.5),
    // 1 ms: inside the spread.
    row('e2e', L1, 1.1, 3.1, 11, 12.2),
    row('e2e', L1, 1.2, 3.3, 13, 12.8),
    row('e2e', L1, 1.0, 3.2, 12, 12.4),
    // 5 ms: buffering outside it. A run the box made late beyond the bar still speaks for its level
    // (lateness is the variable); a run that lost packets the link does not model does not.
    row('e2e', L5, 5.25, 3.3, 20, 14),
    row('e2e', L5, 5.75, 3.2, 22, 14.5, 'relay-late'),
    row('e2e', L5, 0.3, 99, 99, 99, 'unmodelled-drops'),
    row('e2e', L5, 0.3, 99, 99, 99, 'relay-late unmodelled-drops'),
  ];

  it('the base cell is the cell with the injection taken out', () => {
    expect(baseCell(rows[3]!)).toBe('50M-2s @ 137 ms (cubic) [virtual]');
    expect(baseCell({ cell: '15M-2s @ 137 ms (lateness p99 2 ms) [virtual]', inject: 'lateness p99 2 ms' })).toBe(
      '15M-2s @ 137 ms [virtual]',
    );
  });

  it('each level against the runs with none: inside when startup, buffering and latency means stay in their range', () => {
    const e = latenessEffect(rows);
    expect(e.map((r) => [r.level, r.runs, r.late, r.invalid, r.lateP99Ms, r.inside])).toEqual([
      ['', 3, 0, 0, 0.3, undefined],
      [L1, 3, 0, 0, 1.1, true],
      [L5, 2, 1, 2, 5.5, false],
    ]);
    expect(e[2]!.metrics.bufferingS).toEqual({ mean: 21, min: 20, max: 22 });
  });

  it('the bar: the lateness of the highest level inside everywhere, every lower level inside too', () => {
    expect(suggestedLateBar(latenessEffect(rows))).toEqual({ p99Ms: 1.1, level: L1 });
    // A lower level outside stops the climb, whatever a higher one did.
    const odd = rows.map((r) => (r.inject === L1 ? { ...r, bufferingS: 30 } : r.inject === L5 ? { ...r, bufferingS: 12 } : r));
    expect(suggestedLateBar(latenessEffect(odd))).toBeUndefined();
    expect(latenessEffectMarkdown(latenessEffect(rows))).toMatch(/p99 < 1\.10 ms \(lateness p99 1 ms \+ 3 stalls\/min/);
  });
});
