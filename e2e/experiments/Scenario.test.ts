import { describe, expect, it } from 'vitest';
import { joinOffsetsMs, matrix, scenarioId } from './Scenario.js';
import { quantile, scaleFigures } from './scaleFigures.js';
import { cdfRows, scaleTable } from './scaleTable.js';

const base = { rtt: '224', stream: '15M-2s', ran: 'lte-a', scheme: 'e2e,auto', repeats: 1, durationS: 60, player: 'hls' };

describe('matrix: receivers, cells and the paper matrix', () => {
  it('--repeats FIRST-LAST runs only those repeats (same names and seeds as in a 1–LAST run), to add repeats later', () => {
    const all = matrix({ ...base, repeats: 5 });
    const tail = matrix({ ...base, repeats: '4-5' });
    expect(tail.map((s) => s.repeat)).toEqual([4, 4, 5, 5]);
    expect(tail).toEqual(all.filter((s) => s.repeat >= 4));
    expect(matrix({ ...base, repeats: '2' }).map((s) => s.repeat)).toEqual([1, 1, 2, 2]);
    for (const bad of ['0', '3-2', 'x', '1-', '-3']) expect(() => matrix({ ...base, repeats: bad })).toThrow(/--repeats/);
  });

  it('--inject-link: each link a level of its own, named in the run id; both links by default; junk refused', () => {
    const runs = matrix({ ...base, scheme: 'auto', injectLateness: 'off,5', injectStalls: '3', injectLink: 'ran,backhaul' });
    expect(runs.map((s) => s.injectLateness)).toEqual([
      undefined,
      { p99Ms: 5, stallsPerMinute: 3, link: 'ran' },
      { p99Ms: 5, stallsPerMinute: 3, link: 'backhaul' },
    ]);
    expect(runs.map(scenarioId)).toEqual([
      '15M-2s-224ms-lte-a-auto-hls-r1',
      '15M-2s-224ms-lte-a-inj5ms-3spm-ran-auto-hls-r1',
      '15M-2s-224ms-lte-a-inj5ms-3spm-backhaul-auto-hls-r1',
    ]);
    // Both links, as every run before the option: the id it always had.
    const [both] = matrix({ ...base, scheme: 'auto', injectLateness: '2', injectStalls: '3' });
    expect(both!.injectLateness).toEqual({ p99Ms: 2, stallsPerMinute: 3 });
    expect(scenarioId(both!)).toBe('15M-2s-224ms-lte-a-inj2ms-3spm-auto-hls-r1');
    expect(() => matrix({ ...base, injectLateness: '2', injectLink: 'radio' })).toThrow(/--inject-link/);
  });

  it('a trace radio is named in the run id by its file, whatever directory it was read from', () => {
    const ids = ['/a/b/ATT.down', 'traces/ATT.down'].map((f) => scenarioId(matrix({ ...base, scheme: 'auto', ran: `trace:${f}` })[0]!));
    expect(ids[0]).toBe('15M-2s-224ms-trace_ATT.down-auto-hls-r1');
    expect(ids[1]).toBe(ids[0]);
  });

  it('--backhaul-loss: a percentage each way, in the run id; out of range refused', () => {
    const [s0] = matrix({ ...base, scheme: 'auto', backhaulLoss: '0.5' });
    expect(s0!.backhaulLossPct).toBe(0.5);
    expect(scenarioId(s0!)).toContain('-bhloss0.5-auto');
    for (const bad of ['0', '50', 'x', '-1']) expect(() => matrix({ ...base, backhaulLoss: bad })).toThrow(/--backhaul-loss/);
  });

  it('the full paper matrix is 4 RTTs × 6 streams × 4 schemes × repeats, with hold-paper', () => {
    const m = matrix({
      ...base,
      rtt: '137,224,302,334',
      stream: '15M-2s,15M-4s,15M-10s,50M-2s,50M-4s,50M-10s',
      scheme: 'e2e,hold-0,hold-paper,auto',
      repeats: 5,
      receiver: 'virtual',
    });
    expect(m).toHaveLength(4 * 6 * 4 * 5);
    expect(new Set(m.map(scenarioId)).size).toBe(m.length);
    expect(m.every((s) => s.receiver === 'virtual')).toBe(true);
  });

  it('--receivers N needs virtual receivers; join only varies with more than one', () => {
    expect(() => matrix({ ...base, receivers: '4' })).toThrow(/virtual/);
    const m = matrix({ ...base, receiver: 'virtual', receivers: '1,4', join: 'sync,spread', backhaulMbps: '300' });
    // N = 1: one join; N = 4: two — each × 2 schemes.
    expect(m).toHaveLength(2 + 4);
    expect(m.filter((s) => s.receivers === 4).map((s) => s.join)).toEqual(['sync', 'sync', 'spread', 'spread']);
    expect(scenarioId(m.at(-1)!)).toBe('15M-2s-224ms-lte-a-bh300-n4-per-user-spread-auto-hls-virtual-r1');
  });

  it('a Chromium run of one receiver keeps the id it always had (old results stay comparable)', () => {
    expect(scenarioId(matrix(base)[0]!)).toBe('15M-2s-224ms-lte-a-e2e-hls-r1');
  });

  it('rejects what it cannot run', () => {
    expect(() => matrix({ ...base, scheme: 'hold-x' })).toThrow(/unknown scheme/);
    expect(() => matrix({ ...base, scheme: 'e2e-w4' })).toThrow(/unknown scheme/);
    expect(() => matrix({ ...base, scheme: 'auto-cold' })).toThrow(
      /unknown scheme auto-cold \(e2e, auto, auto-measured, auto-warm, auto-learn, /,
    );
    expect(matrix({ ...base, scheme: 'auto-warm' }).map((s) => s.scheme)).toContain('auto-warm');
    expect(matrix({ ...base, scheme: 'auto-w4' })[0]!.scheme).toBe('auto-w4');
    expect(() => matrix({ ...base, receiver: 'virtual', cell: 'mixed' })).toThrow(/--cell/);
    expect(() => matrix({ ...base, backhaulMbps: '-3' })).toThrow(/backhaul/);
  });

  it('join offsets: evenly within 2 s (sync) or over one segment (spread)', () => {
    expect(joinOffsetsMs({ receivers: 4, join: 'sync' }, 4)).toEqual([0, 500, 1000, 1500]);
    expect(joinOffsetsMs({ receivers: 4, join: 'spread' }, 4)).toEqual([0, 1000, 2000, 3000]);
    expect(joinOffsetsMs({}, 2)).toEqual([0]);
  });
});

describe('scaleFigures', () => {
  it('origin fetches and copies per segment, backhaul windows and utilisation', () => {
    const f = scaleFigures({
      outcomes: [{ receiver: 0, error: 'refused' }],
      addresses: ['10.77.1.2'],
      offsetsMs: [0],
      originFetches: { '/a/1.m4s': 4, '/a/2.m4s': 2 },
      originBytes: 6_000_000,
      segmentBytes: 1_000_000,
      backhaulBytes: [0, 12_500_000, 25_000_000, 25_000_000],
      backhaulBytesTotal: 25_000_000,
      playedS: 2,
      backhaulCapMbps: 200,
    });
    expect(f.scale).toMatchObject({
      segments: 2,
      originFetchesPerSegment: 3,
      originFetchesPerSegmentMax: 4,
      copiesPerSegment: 3,
      played: 0,
      originRefetched: { '/a/1.m4s': 4, '/a/2.m4s': 2 },
    });
    expect(f.scale.backhaulMbps).toEqual({ mean: 100, p95: 100, max: 100 });
    expect(f.scale.backhaulUtilisation).toBe(0.5);
    expect(f.receivers[0]).toMatchObject({ error: 'refused', startupS: null });
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
  });
});

describe('scaleTable and its CDF rows', () => {
  const rec = (receiver: number, startupS: number | null, stallS = 0) => ({
    receiver,
    address: '',
    joinMs: 0,
    startupS,
    stalls: stallS > 0 ? 1 : 0,
    stallS,
    latencyS: 10,
  });
  const scale = (fetches: number) => ({
    receivers: 2,
    played: 2,
    segments: 10,
    originFetchesPerSegment: fetches,
    originFetchesPerSegmentMax: fetches,
    originRefetched: {},
    originBytesPerSegment: 1,
    copiesPerSegment: fetches,
    backhaulMbps: { mean: 50, p95: 80, max: 90 },
    backhaulCapMbps: 100,
    backhaulUtilisation: 0.5,
  });
  const sc = (scheme: string) => ({
    stream: '15M-2s',
    player: 'hls' as const,
    scheme,
    rttMs: 224,
    durationS: 60,
    receivers: 2,
    join: 'sync' as const,
  });
  const runs = [
    { id: 'e', scenario: sc('e2e'), receivers: [rec(0, 4, 2), rec(1, 6)], scale: scale(2) },
    { id: 'a', scenario: sc('auto'), receivers: [rec(0, 2), rec(1, 3)], scale: scale(1) },
    { id: 'bad', scenario: sc('auto'), receivers: [rec(0, 99), rec(1, 99)], scale: scale(1), invalid: 'relay late' },
  ];

  it('pools receivers per group, leaves invalid runs out but counts them', () => {
    const { markdown, receiverRows } = scaleTable(runs);
    const auto = markdown.split('\n').find((l) => l.includes('| auto |'))!;
    expect(auto).toContain('| 1 (1) | 2/2 |');
    expect(auto).toContain('| 2.0 (3.0) |'); // startup median (p90) of 2 and 3 — not the invalid 99s
    expect(markdown.split('\n').find((l) => l.includes('| e2e |'))).toContain('| 2.00 (2) | 2.00 |');
    expect(receiverRows).toHaveLength(4);
    expect(scaleTable(runs, { includeInvalid: true }).receiverRows).toHaveLength(6);
  });

  it('runs with another backhaul cap are another group', () => {
    const capped = { ...runs[1]!, id: 'a60', scenario: { ...sc('auto'), backhaulMbps: 60 } };
    const lines = scaleTable([runs[1]!, capped])
      .markdown.split('\n')
      .filter((l) => l.includes('| auto |'));
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.split(' | ')[5])).toEqual(['–', '60']);
  });

  it('CDF rows rise to 1 per group in value order', () => {
    const { receiverRows } = scaleTable(runs);
    const cdf = cdfRows(receiverRows, 'startup_s').filter((r) => r.scheme === 'e2e');
    expect(cdf.map((r) => [r.value, r.fraction])).toEqual([
      [4, 0.5],
      [6, 1],
    ]);
  });
});
