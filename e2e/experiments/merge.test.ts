import { describe, expect, it } from 'vitest';
import { formatMeanCi, meanCi, t95 } from './meanCi.js';
import { mergeRows, mergeRuns, readRunsCsv, rejudgeLateness, RUNS_COLUMNS, SUMMARY_COLUMNS, toCsv, type MergedRun } from './mergeRuns.js';
import { edgeHoldArgs, holdArg, paperHoldX, schemeRank } from './paperHoldX.js';
import { receiverPairs } from './receiverPairs.js';

function run(o: {
  id: string;
  scheme: string;
  startupS: number;
  stallS?: number;
  stalls?: number;
  latencyS?: number;
  rttMs?: number;
  stream?: string;
  invalid?: string;
  x?: number;
  receiver?: 'chromium' | 'virtual';
  startedAt?: string;
  player?: 'hls' | 'dash';
}): MergedRun {
  const stalls = o.stalls ?? 0;
  return {
    v: 1,
    id: o.id,
    startedAt: o.startedAt ?? '2026-11-23T00:00:00.000Z',
    scenario: {
      stream: o.stream ?? '15M-2s',
      player: o.player ?? 'hls',
      scheme: o.scheme,
      rttMs: o.rttMs ?? 224,
      durationS: 120,
      ran: 'lte-a',
      ...(o.receiver ? { receiver: o.receiver } : {}),
    },
    report: {
      startupMs: o.startupS * 1000,
      stalls: { count: stalls, totalMs: (o.stallS ?? 0) * 1000, list: [] },
      latency: { current: o.latencyS ?? 10, mean: o.latencyS ?? 10 },
      holdSeconds: 0,
      latencySeries: [],
      segments: { list: [] },
    } as unknown as MergedRun['report'],
    ...(o.x !== undefined ? { edge: { x: o.x } } : {}),
    ...(o.invalid ? { invalid: o.invalid } : {}),
  };
}

describe('meanCi: mean and 95 % interval (Student t)', () => {
  it('the textbook case: 1..5 → 3 ± 2.776 × √2.5 / √5', () => {
    const m = meanCi([1, 2, 3, 4, 5])!;
    expect(m.mean).toBe(3);
    expect(m.half).toBeCloseTo((2.776 * Math.sqrt(2.5)) / Math.sqrt(5), 10);
    expect(formatMeanCi(m)).toBe('3.00±1.96');
  });

  it('a constant sample has a zero-width interval; one value has none; none is empty', () => {
    expect(meanCi([4, 4, 4])).toEqual({ n: 3, mean: 4, half: 0 });
    expect(formatMeanCi(meanCi([2.5]))).toBe('2.50');
    expect(meanCi([null, undefined, Number.NaN])).toBeNull();
    expect(formatMeanCi(null)).toBe('');
  });

  it('more runs narrow the interval for the same spread; t falls towards 1.96 and is never below it', () => {
    const a = meanCi([1, 3, 1, 3])!.half!;
    const b = meanCi([1, 3, 1, 3, 1, 3, 1, 3])!.half!;
    expect(b).toBeLessThan(a);
    let last = Infinity;
    for (let df = 1; df <= 200; df++) {
      expect(t95(df)).toBeLessThanOrEqual(last);
      expect(t95(df)).toBeGreaterThanOrEqual(1.96);
      last = t95(df);
    }
    expect(t95(35)).toBe(t95(30)); // between table points: the smaller df's (wider) value
  });

  it('the interval is shift-invariant and scales with the data', () => {
    const base = meanCi([1, 2, 4, 8])!;
    const shifted = meanCi([11, 12, 14, 18])!;
    const scaled = meanCi([2, 4, 8, 16])!;
    expect(shifted.half).toBeCloseTo(base.half!, 12);
    expect(scaled.half).toBeCloseTo(2 * base.half!, 12);
  });
});

describe('mergeRuns: shards into summary.csv / runs.csv', () => {
  it('groups by cell × scheme over shards, leaves invalid runs out of the means but counts them', () => {
    const m = mergeRuns([
      { run: run({ id: 'a1', scheme: 'e2e', startupS: 4, stallS: 2, stalls: 1 }), source: 'shard1' },
      { run: run({ id: 'a2', scheme: 'e2e', startupS: 6, stallS: 4, stalls: 3 }), source: 'shard2' },
      { run: run({ id: 'a3', scheme: 'e2e', startupS: 100, invalid: 'relay late: ran down p99 3 ms' }), source: 'shard2' },
      { run: run({ id: 'b1', scheme: 'auto', startupS: 2, x: 2 }), source: 'shard1' },
      { run: run({ id: 'b2', scheme: 'auto', startupS: 2, x: 3 }), source: 'shard2' },
    ]);
    expect(m.summary).toHaveLength(2);
    const e2e = m.summary.find((r) => r.scheme === 'e2e')!;
    expect(e2e.runs).toBe(2);
    expect(e2e.startup_s).toBe(`5.00±${((12.706 * Math.SQRT2) / Math.SQRT2).toFixed(2)}`);
    expect(e2e.stalls).toBe(`2.00±${(12.706).toFixed(2)}`);
    expect(e2e.x).toBe('');
    expect(m.summary.find((r) => r.scheme === 'auto')!.x).toBe('2/3');
    expect(m.invalid).toBe(1);
    expect(m.counts.find((c) => c.scheme === 'e2e')).toMatchObject({ total: 3, valid: 2, invalid: 1 });
    expect(m.runs).toHaveLength(5);
    expect(m.runs.find((r) => r.id === 'a3')!.invalid).toMatch(/relay late/);
  });

  it('one row per run id: a run present in two shards counts once (the later start)', () => {
    const m = mergeRuns([
      { run: run({ id: 'a', scheme: 'e2e', startupS: 4, startedAt: '2026-11-23T01:00:00Z' }), source: 'x' },
      { run: run({ id: 'a', scheme: 'e2e', startupS: 8, startedAt: '2026-11-23T02:00:00Z' }), source: 'y' },
    ]);
    expect(m.duplicates).toEqual(['a']);
    expect(m.summary[0]!.startup_s).toBe('8.00');
    expect(m.runs[0]!.source).toBe('y');
  });

  it('hold-paper carries Table III x; Chromium and virtual runs of one cell stay apart; rows sort by RTT', () => {
    const m = mergeRuns([
      { run: run({ id: 'p', scheme: 'hold-paper', startupS: 3, rttMs: 334 }), source: 's' },
      { run: run({ id: 'v', scheme: 'e2e', startupS: 3, rttMs: 137, receiver: 'virtual' }), source: 's' },
      { run: run({ id: 'c', scheme: 'e2e', startupS: 3, rttMs: 137, receiver: 'chromium' }), source: 's' },
    ]);
    expect(m.summary.map((r) => [r.rtt_ms, r.cell])).toEqual([
      [137, '15M-2s @ 137 ms [chromium]'],
      [137, '15M-2s @ 137 ms [virtual]'],
      [334, '15M-2s @ 334 ms [chromium]'],
    ]);
    expect(m.summary[2]!.x).toBe('4');
    // A part hold is no x (the edge's whole-segment x, 1 here, is not what it held).
    expect(mergeRuns([{ run: run({ id: 'q', scheme: 'parts-2', startupS: 3, x: 1 }), source: 's' }]).summary[0]!.x).toBe('');
  });

  it('never averages two virtual receiver models: runs with an append gap are a cell of their own', () => {
    const v = (id: string, appendMs?: number): MergedRun => {
      const r = run({ id, scheme: 'e2e', startupS: 3, receiver: 'virtual' });
      return appendMs === undefined ? r : { ...r, report: { ...r.report, appendMs } as MergedRun['report'] };
    };
    const m = mergeRuns([v('a'), v('b', 0), v('c', 25)].map((run) => ({ run, source: 's' })));
    expect(m.summary.map((r) => [r.cell, r.runs])).toEqual([
      ['15M-2s @ 224 ms [virtual, append 25 ms]', 1],
      ['15M-2s @ 224 ms [virtual]', 2],
    ]);
  });

  it('names a trace radio by its file, not the directory of the machine that ran it', () => {
    const r = run({ id: 't', scheme: 'e2e', startupS: 2 });
    const traced = { ...r, scenario: { ...r.scenario, ran: 'trace:/some/machine/dir/ATT-LTE-driving-2016.down' } } as MergedRun;
    expect(mergeRuns([{ run: traced, source: 's' }]).summary[0]!.cell).toBe('15M-2s @ 224 ms, trace:ATT-LTE-driving-2016.down [chromium]');
  });

  it('never averages two players together: dash.js runs are a cell of their own', () => {
    const m = mergeRuns([
      { run: run({ id: 'h', scheme: 'e2e', startupS: 2 }), source: 's' },
      { run: run({ id: 'd', scheme: 'e2e', startupS: 4, player: 'dash' }), source: 's' },
    ]);
    expect(m.summary.map((r) => [r.cell, r.startup_s])).toEqual([
      ['15M-2s @ 224 ms [chromium, dash.js]', '4.00'],
      ['15M-2s @ 224 ms [chromium]', '2.00'],
    ]);
  });

  it('writes the issue’s summary columns (valid runs, invalid runs beside them, the declared hold), quoting what needs it', () => {
    const csv = toCsv(SUMMARY_COLUMNS, [
      {
        cell: 'a, b',
        rtt_ms: 224,
        stream: 's',
        scheme: 'e2e',
        runs: 1,
        invalid: 2,
        startup_s: '1.00',
        buffering_s: '',
        stalls: '0.00',
        latency_s: '9.00',
        x: '',
      },
    ]);
    expect(csv.split('\n')[0]).toBe(
      'cell,rtt_ms,stream,scheme,runs,invalid,throughput_mbps,startup_s,buffering_s,stalls,latency_s,x,hold_s,top_share,switches',
    );
    expect(csv.split('\n')[1]).toBe('"a, b",224,s,e2e,1,2,,1.00,,0.00,9.00,,,,');
  });

  it('a run says which bars it failed and what its links counted; an older run reads its bar from its invalid line', () => {
    const judged: MergedRun = {
      ...run({ id: 'j', scheme: 'auto', startupS: 3, invalid: "unmodelled drop: backhaul down lost 12 packets at the edge's socat" }),
      validity: { failed: ['unmodelled-drops'] },
      links: {
        ran: {
          up: { lateness: { p99Ms: 0.3 }, unmodelled: { tunTx: 0, socatSocket: 0 }, modelled: { loss: 0, queueFull: 0, pdcpDiscard: 4 } },
          down: { lateness: { p99Ms: 0.4 }, unmodelled: { tunTx: 0, socatSocket: 0 }, modelled: { loss: 0, queueFull: 1, pdcpDiscard: 0 } },
        },
        backhaul: {
          up: { lateness: { p99Ms: 0.2 }, unmodelled: { tunTx: 0, socatSocket: 0 }, modelled: {} },
          down: { lateness: { p99Ms: 0.9 }, unmodelled: { tunTx: 0, socatSocket: 12 }, modelled: {} },
        },
      } as unknown as MergedRun['links'],
      tcp: { origin: { TcpRetransSegs: 15 } },
      scenario: { ...run({ id: 'j', scheme: 'auto', startupS: 3 }).scenario, injectLateness: { p99Ms: 2, stallsPerMinute: 3 } },
    };
    const m = mergeRuns([
      { run: judged, source: 's' },
      { run: run({ id: 'o', scheme: 'e2e', startupS: 3, invalid: 'relay late: ran down p99 3 ms' }), source: 's' },
    ]);
    expect(m.runs.find((r) => r.id === 'j')).toMatchObject({
      failed_bars: 'unmodelled-drops',
      late_p99_ms: '0.90',
      unmodelled_drops: 12,
      modelled_drops: 5,
      origin_retrans: 15,
      inject: 'lateness p99 2 ms + 3 stalls/min',
    });
    expect(m.runs.find((r) => r.id === 'j')!.cell).toBe('15M-2s @ 224 ms (lateness p99 2 ms + 3 stalls/min) [chromium]');
    expect(m.runs.find((r) => r.id === 'o')).toMatchObject({ failed_bars: 'relay-late', unmodelled_drops: '', origin_retrans: '' });
    // Read back from runs.csv, the same.
    const back = readRunsCsv(toCsv(RUNS_COLUMNS, m.runs), 'runs.csv');
    expect(back.find((r) => r.id === 'j')).toMatchObject({
      failedBars: 'unmodelled-drops',
      unmodelledDrops: 12,
      modelledDrops: 5,
      originRetrans: 15,
      lateP99Ms: 0.9,
    });
    expect(
      mergeRows(back)
        .summary.map((r) => [r.scheme, r.runs, r.invalid])
        .sort(),
    ).toEqual([
      ['auto', 0, 1],
      ['e2e', 0, 1],
    ]);
  });
});

describe('rejudgeLateness: runs judged again against a moved lateness bar', () => {
  /** A run judged at 1 ms, with one direction's p99 (beyond any injected lateness) given. */
  const judgedAt1 = (p99Ms: number, natural?: number, drops = false): MergedRun => {
    const dir = (p: number, n?: number) => ({
      lateness: { p99Ms: p, maxMs: 9, count: 1000 },
      ...(n !== undefined ? { naturalLateness: { p99Ms: n, maxMs: 9, count: 1000 } } : {}),
    });
    const late = p99Ms >= 1 || (natural ?? 0) >= 1;
    const failed = [...(late ? ['relay-late'] : []), ...(drops ? ['unmodelled-drops'] : [])];
    const problems = [
      ...(late ? ['relay late (bar: p99 < 1 ms): backhaul down …'] : []),
      ...(drops ? ['unmodelled drop: backhaul down lost 3'] : []),
    ];
    return {
      ...run({ id: `r${p99Ms}`, scheme: 'auto', startupS: 3 }),
      links: {
        ran: { up: dir(0.5), down: dir(0.6) },
        backhaul: { up: dir(0.4), down: dir(p99Ms, natural) },
      } as unknown as MergedRun['links'],
      validity: { lateP99BarMs: 1, failed, problems },
      ...(failed.length ? { invalid: problems.join('; ') } : {}),
    };
  };

  it('a run late only against the old bar becomes valid; one late against the new bar stays invalid, with the new bar named', () => {
    const was = judgedAt1(1.6);
    expect(was.invalid).toBeDefined();
    const now = rejudgeLateness(was, 2);
    expect(now.invalid).toBeUndefined();
    expect(now.validity).toMatchObject({ lateP99BarMs: 2, failed: [], problems: [] });
    const still = rejudgeLateness(judgedAt1(2.7), 2);
    expect(still.validity?.failed).toEqual(['relay-late']);
    expect(still.invalid).toMatch(/^relay late \(bar: p99 < 2 ms, re-judged\): backhaul down p99 2\.70 ms/);
    // A lower bar makes a valid run invalid the same way.
    expect(rejudgeLateness(judgedAt1(0.9), 0.5).validity?.failed).toEqual(['relay-late']);
  });

  it('keeps every other bar, judges injected runs by the lateness beyond the injected, and leaves runs without lateness alone', () => {
    const dropped = rejudgeLateness(judgedAt1(1.6, undefined, true), 2);
    expect(dropped.validity?.failed).toEqual(['unmodelled-drops']);
    expect(dropped.invalid).toBe('unmodelled drop: backhaul down lost 3');
    // 3.1 ms in all, 1.2 beyond the injected freezes: valid at 2 ms, as judgeRun would say.
    expect(rejudgeLateness(judgedAt1(3.1, 1.2), 2).validity?.failed).toEqual([]);
    const old = run({ id: 'old', scheme: 'e2e', startupS: 3, invalid: 'relay late: ran down p99 3 ms' });
    expect(rejudgeLateness(old, 5)).toBe(old);
    // Merged, the re-judged run is in the means.
    const m = mergeRuns([{ run: rejudgeLateness(judgedAt1(1.6), 2), source: 's' }]);
    expect(m.summary.map((r) => [r.runs, r.invalid])).toEqual([[1, 0]]);
  });
});

describe("hold-paper: Table III's x", () => {
  it('resolves per cell, and refuses a cell the paper did not measure', () => {
    expect(paperHoldX('15M-2s', 334)).toBe(4);
    expect(paperHoldX('50M-10s', 302)).toBe(1);
    expect(holdArg('hold-paper', '50M-4s', 224)).toBe('1');
    expect(holdArg('hold-3', '50M-4s', 224)).toBe('3');
    expect(holdArg('auto', '50M-4s', 224)).toBe('auto');
    expect(holdArg('e2e', '50M-4s', 224)).toBeUndefined();
    expect(() => holdArg('hold-paper', '15M-2s', 450)).toThrow(/Table III/);
  });

  it('low latency: parts-N holds N parts, auto decides in parts, whole-segment schemes stay whole', () => {
    expect(edgeHoldArgs('parts-2', '15M-2s', 224, true)).toEqual(['--hold', '0', '--hold-parts', '2']);
    // `auto` is the edge as shipped: no pin beyond --hold auto (issue 38); the old pin is a variant.
    expect(edgeHoldArgs('auto', '15M-2s', 224, true)).toEqual(['--hold', 'auto', '--hold-parts', 'auto']);
    expect(edgeHoldArgs('auto', '15M-2s', 224, false)).toEqual(['--hold', 'auto']);
    expect(edgeHoldArgs('auto-slow-start', '15M-2s', 224, false)).toEqual(['--hold', 'auto', '--segment-start', 'slow-start']);
    expect(edgeHoldArgs('hold-1', '15M-2s', 224, true)).toEqual(['--hold', '1']);
    expect(edgeHoldArgs('e2e', '15M-2s', 224, true)).toBeUndefined();
    // -wN: a parent tier and N worker edges (LiveJack's parent + children on one box).
    expect(edgeHoldArgs('auto-w4', '15M-2s', 224, false)).toEqual(['--hold', 'auto', '--workers', '4']);
    expect(edgeHoldArgs('auto-measured', '15M-2s', 224, false)).toEqual(['--hold', 'auto', '--hold-floor', 'measured']);
    expect(holdArg('auto-measured', '15M-2s', 224)).toBe('auto');
    expect(edgeHoldArgs('auto-warm', '15M-2s', 224, false)).toEqual(['--hold', 'auto', '--segment-start', 'warm']);
    expect(holdArg('auto-warm', '50M-2s', 334)).toBe('auto');
    expect(edgeHoldArgs('auto-learn', '15M-2s', 224, false)).toEqual(['--hold', 'auto', '--segment-start', 'learn']);
    expect(edgeHoldArgs('hold-paper-w2', '50M-4s', 224, false)).toEqual(['--hold', '1', '--workers', '2']);
    expect(edgeHoldArgs('auto-warm', '15M-2s', 224, true)).toEqual(['--hold', 'auto', '--segment-start', 'warm', '--hold-parts', 'auto']);
  });

  it('one order for the schemes of a cell in every table: E2E, hold-N, hold-paper, parts-N, auto, its variants, the rest', () => {
    const order = [
      'auto-w4',
      'auto-learn',
      'auto-warm',
      'parts-2',
      'auto',
      'hold-paper',
      'hold-10',
      'auto-measured',
      'hold-2',
      'e2e',
      'hold-0',
    ];
    expect([...order].sort((a, b) => schemeRank(a) - schemeRank(b))).toEqual([
      'e2e',
      'hold-0',
      'hold-2',
      'hold-10',
      'hold-paper',
      'parts-2',
      'auto',
      'auto-measured',
      'auto-warm',
      'auto-learn',
      'auto-w4',
    ]);
    for (const s of order) expect(Number.isFinite(schemeRank(s))).toBe(true);
  });
});

describe('receiverPairs: Chromium vs virtual on the same seed', () => {
  it('pairs by scenario and repeat and checks the three criteria', () => {
    const pairs = receiverPairs([
      run({ id: '15M-2s-224ms-lte-a-e2e-hls-r1', scheme: 'e2e', startupS: 4, stallS: 0, stalls: 0 }),
      run({ id: '15M-2s-224ms-lte-a-e2e-hls-virtual-r1', scheme: 'e2e', startupS: 4.5, stallS: 0.9, stalls: 1, receiver: 'virtual' }),
      run({ id: '15M-2s-224ms-lte-a-auto-hls-r1', scheme: 'auto', startupS: 3, stallS: 10, stalls: 3 }),
      run({ id: '15M-2s-224ms-lte-a-auto-hls-virtual-r1', scheme: 'auto', startupS: 3.6, stallS: 8, stalls: 1, receiver: 'virtual' }),
      run({ id: '15M-2s-224ms-lte-a-auto-hls-r2', scheme: 'auto', startupS: 3 }), // no partner
    ]);
    expect(pairs.map((p) => [p.key, p.startupOk, p.bufferingOk, p.stallsOk])).toEqual([
      ['15M-2s-224ms-lte-a-auto-hls-r1', false, false, false], // +20 %, 2 s of 10 s = 20 % > max(1 s, 15 %), 3 vs 1
      ['15M-2s-224ms-lte-a-e2e-hls-r1', true, true, true], // +12.5 %, 0.9 s ≤ 1 s, 0 vs 1
    ]);
  });

  it("reports each side's median segment time and its segments on a new connection (null when unlabelled)", () => {
    const seg = (requestStart: number, lastByte: number, connection?: 'new' | 'reused') => ({
      kind: 'media',
      requestStart,
      lastByte,
      ...(connection === undefined ? {} : { connection }),
    });
    const withSegments = (r: MergedRun, list: object[]): MergedRun => ({
      ...r,
      report: { ...r.report, segments: { list } } as unknown as MergedRun['report'],
    });
    const [p] = receiverPairs([
      withSegments(run({ id: 'x-e2e-hls-r1', scheme: 'e2e', startupS: 4 }), [
        seg(0, 2000),
        seg(0, 3000),
        seg(0, 1000),
        { kind: 'manifest', requestStart: 0, lastByte: 9000 },
      ]),
      withSegments(run({ id: 'x-e2e-hls-virtual-r1', scheme: 'e2e', startupS: 4, receiver: 'virtual' }), [
        seg(0, 3400, 'new'),
        seg(0, 2800, 'reused'),
        seg(0, 3100, 'new'),
      ]),
    ]);
    expect(p!.chromium).toMatchObject({ segmentS: 2, freshFlowSegments: null, latencyS: 10 });
    expect(p!.virtual).toMatchObject({ segmentS: 3.1, freshFlowSegments: 2 });
  });

  it('reports the wait before the next request when the player wanted it at once, and segments that moved to a media-cold connection', () => {
    const seg = (requestStart: number, lastByte: number, connectionId?: number) => ({
      kind: 'media',
      track: 'main',
      requestStart,
      lastByte,
      ...(connectionId === undefined ? {} : { connectionId }),
    });
    const withSegments = (r: MergedRun, list: object[]): MergedRun => ({
      ...r,
      report: { ...r.report, segments: { list } } as unknown as MergedRun['report'],
    });
    // Chromium: 30 and 20 ms after the previous last byte; the 4 s wait (buffer full) is not the player's delay.
    const chromium = withSegments(run({ id: 'y-e2e-hls-r1', scheme: 'e2e', startupS: 4 }), [
      seg(0, 2000),
      seg(2030, 4000),
      seg(4020, 6000),
      seg(10_000, 12_000),
    ]);
    // Virtual: media on 1, then 2 (which had only carried playlists), back to 1 (it had carried media), then 3.
    const virtual = withSegments(run({ id: 'y-e2e-hls-virtual-r1', scheme: 'e2e', startupS: 4, receiver: 'virtual' }), [
      seg(0, 2000, 1),
      seg(2000, 4000, 2),
      seg(4000, 6000, 1),
      seg(6000, 8000, 3),
    ]);
    const [p] = receiverPairs([chromium, virtual]);
    expect(p!.chromium).toMatchObject({ nextRequestGapMs: 20, movedSegments: null }); // nearest rank of 20 and 30
    expect(p!.virtual).toMatchObject({ nextRequestGapMs: 0, movedSegments: 2 });
  });
});

describe('runs.csv as a merge input (shards merged in earlier sessions)', () => {
  it('a merge of the runs.csv it wrote gives the same summary, and rows meet new run files', () => {
    const first = mergeRuns([
      { run: run({ id: 'a1', scheme: 'e2e', startupS: 4, stallS: 2, stalls: 1, stream: '50M-2s' }), source: 'session1' },
      { run: run({ id: 'a2', scheme: 'e2e', startupS: 6, stallS: 4, stalls: 3, stream: '50M-2s' }), source: 'session1' },
      {
        run: run({ id: 'a3', scheme: 'e2e', startupS: 100, invalid: 'relay late: ran down p99 3 ms, "quoted"', stream: '50M-2s' }),
        source: 'session1',
      },
      { run: run({ id: 'b1', scheme: 'auto', startupS: 2, x: 2, player: 'dash' }), source: 'session1' },
    ]);
    const rows = readRunsCsv(toCsv(RUNS_COLUMNS, first.runs), 'runs.csv');
    expect(rows.find((r) => r.id === 'a3')!.invalid).toBe('relay late: ran down p99 3 ms, "quoted"');
    expect(rows.find((r) => r.id === 'b1')).toMatchObject({
      cell: '15M-2s @ 224 ms [chromium, dash.js]',
      x: 2,
      source: 'session1',
      startupS: 2,
    });
    const again = mergeRows(rows);
    expect(again.summary).toEqual(first.summary);
    expect(again.counts).toEqual(first.counts);
    // The next session's run files join the same cells.
    const next = mergeRuns(
      [{ run: run({ id: 'a4', scheme: 'e2e', startupS: 8, stallS: 0, stalls: 0, stream: '50M-2s' }), source: 'session2' }],
      rows,
    );
    expect(next.summary.find((r) => r.stream === '50M-2s')).toMatchObject({ runs: 3, startup_s: formatMeanCi(meanCi([4, 6, 8])) });
    expect(next.runs.map((r) => r.source)).toEqual(['session1', 'session1', 'session1', 'session2', 'session1']);
  });

  it('runs.csv keeps milliseconds, so a re-merge does not move an interval (two decimals did: ±0.08 → ±0.13)', () => {
    const first = mergeRuns([
      { run: run({ id: 'c1', scheme: 'e2e', startupS: 1.004, latencyS: 9.5 }), source: 's' },
      { run: run({ id: 'c2', scheme: 'e2e', startupS: 1.016, latencyS: 9.5 }), source: 's' },
    ]);
    expect(first.summary[0]!.startup_s).toBe('1.01±0.08');
    expect(first.runs.map((r) => [r.startup_s, r.latency_s])).toEqual([
      ['1.004', '9.50'],
      ['1.016', '9.50'],
    ]);
    const again = mergeRows(readRunsCsv(toCsv(RUNS_COLUMNS, first.runs), 'runs.csv'));
    expect(again.summary).toEqual(first.summary);
  });

  it('each run names the commit it ran at (-dirty when the tree differed); runs from before, without one, merge beside them', () => {
    const sha = 'a'.repeat(40);
    const m = mergeRuns([
      { run: { ...run({ id: 'n1', scheme: 'auto', startupS: 3, x: 2 }), commit: sha, dirty: false }, source: 's' },
      { run: { ...run({ id: 'n2', scheme: 'auto', startupS: 5, x: 2 }), commit: sha, dirty: true }, source: 's' },
      { run: run({ id: 'o1', scheme: 'auto', startupS: 4, x: 2 }), source: 's' },
    ]);
    expect(m.runs.map((r) => [r.id, r.commit])).toEqual([
      ['n1', sha],
      ['n2', `${sha}-dirty`],
      ['o1', ''],
    ]);
    // One cell: the commit tells the runs apart, it does not split the mean.
    expect(m.summary).toHaveLength(1);
    expect(m.summary[0]!.runs).toBe(3);
    const back = readRunsCsv(toCsv(RUNS_COLUMNS, m.runs), 'runs.csv');
    expect(back.map((r) => r.commit)).toEqual([sha, `${sha}-dirty`, '']);
    expect(mergeRows(back).summary).toEqual(m.summary);
  });

  it('an older runs.csv without the newer columns still reads; a CSV that is not runs.csv is refused', () => {
    const rows = readRunsCsv(
      'id,cell,rtt_ms,stream,scheme,receiver,repeat,startup_s,buffering_s,stalls,latency_s,x,hold_s,invalid,source\nr1,15M-2s @ 224 ms [virtual],224,15M-2s,auto,virtual,1,3.10,0.00,0,9.50,2,4.00,,old\n',
      'old.csv',
    );
    expect(rows).toEqual([
      expect.objectContaining({ id: 'r1', rttMs: 224, x: 2, holdS: 4, cpuPressure: null, startedAt: '', commit: '', source: 'old' }),
    ]);
    expect(() => readRunsCsv('cell,rtt_ms\na,1\n', 'summary.csv')).toThrow(/not a runs.csv/);
  });
});

describe('mergeRuns: ladder runs (the share at the top rendition, switches)', () => {
  const ladderRun = (
    id: string,
    scheme: string,
    abr: MergedRun['abr'],
    o: { invalid?: string; player?: 'hls' | 'dash' } = {},
  ): MergedRun => ({
    ...run({ id, scheme, startupS: 3, stream: '15M+50M-2s', receiver: 'chromium', ...o }),
    ...(abr ? { abr } : {}),
  });
  const abr = (topShare: number | null, switches: number, originFetches?: Record<string, number>): MergedRun['abr'] => ({
    topShare,
    switches,
    timeline: topShare === null ? [] : [{ atS: 0, bps: 15e6 }, ...(switches > 0 ? [{ atS: 12.4, bps: 50e6 }] : [])],
    ...(originFetches ? { originFetches } : {}),
  });

  it('means over the valid runs, the invalid one counted beside them; a single stream’s columns stay empty', () => {
    const m = mergeRuns([
      { run: ladderRun('a1', 'auto', abr(0.8, 1, { '15M-2s': 8, '50M-2s': 54 })), source: 's' },
      { run: ladderRun('a2', 'auto', abr(0.6, 3)), source: 's' },
      { run: ladderRun('a3', 'auto', abr(0, 9), { invalid: 'relay late: ran down p99 3 ms' }), source: 's' },
      { run: ladderRun('e1', 'e2e', abr(0, 0)), source: 's' },
      { run: run({ id: 's1', scheme: 'e2e', startupS: 2 }), source: 's' },
    ]);
    const auto = m.summary.find((r) => r.stream === '15M+50M-2s' && r.scheme === 'auto')!;
    expect(auto).toMatchObject({ cell: '15M+50M-2s @ 224 ms [chromium]', runs: 2, invalid: 1 });
    expect(auto.top_share).toBe(formatMeanCi(meanCi([0.8, 0.6])));
    expect(auto.switches).toBe(formatMeanCi(meanCi([1, 3])));
    expect(m.summary.find((r) => r.stream === '15M+50M-2s' && r.scheme === 'e2e')).toMatchObject({ top_share: '0.00', switches: '0.00' });
    expect(m.summary.find((r) => r.stream === '15M-2s')).toMatchObject({ top_share: '', switches: '' });
    expect(m.runs.find((r) => r.id === 'a1')).toMatchObject({
      top_share: '0.80',
      switches: 1,
      rendition_changes: '15@0s 50@12s',
      origin_renditions: '15M-2s:8 50M-2s:54',
    });
    // Read back from runs.csv (a later merge's input): the same rows and means.
    const back = readRunsCsv(toCsv(RUNS_COLUMNS, m.runs), 'runs.csv');
    expect(back.find((r) => r.id === 'a1')).toMatchObject({ topShare: 0.8, switches: 1, renditionChanges: '15@0s 50@12s' });
    expect(mergeRows(back).summary).toEqual(m.summary);
  });

  it('a player that never rendered gives no share (not 0) and its switches count as 0', () => {
    const m = mergeRuns([{ run: ladderRun('n', 'auto', abr(null, 0)), source: 's' }]);
    expect(m.runs[0]).toMatchObject({ top_share: '', switches: 0, rendition_changes: '' });
  });

  it('x changes name their stream when there are several (an HLS ladder’s variants each have an x)', () => {
    const r = ladderRun('x', 'auto', abr(0.5, 1));
    r.edge = {
      holdChanges: [
        { atS: 3.2, stream: 'origin/live/15M-2s/index.m3u8', hold: 1, backhaulMbps: 20, reason: 'join' },
        { atS: 14, stream: 'origin/live/50M-2s/index.m3u8', hold: 3, backhaulMbps: 20, reason: 'join' },
      ],
    };
    expect(mergeRuns([{ run: r, source: 's' }]).runs[0]!.x_changes).toBe('15M-2s:1@3s 50M-2s:3@14s');
    r.edge.holdChanges = r.edge.holdChanges!.slice(0, 1);
    expect(mergeRuns([{ run: r, source: 's' }]).runs[0]!.x_changes).toBe('1@3s');
  });
});
