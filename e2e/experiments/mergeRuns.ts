import { lateRelays } from '@ethle/netlab';
import { cellOf, latenessLabel, summarizeRun, type RunResult } from '@ethle/player-demo';
import { parseStreamName } from '@ethle/live-origin';
import { renditionChanges, type AbrFigures } from './abrFigures.js';
import { formatMeanCi, meanCi } from './meanCi.js';
import { paperHoldX, schemeRank } from './paperHoldX.js';
import { ranLabel } from './Scenario.js';
import { commitLabel } from './sourceCommit.js';
import { stallCauses } from './stallCauses.js';

/** A run file as the experiments write it (runScenario's ExperimentRun, as far as merging reads it). */
export type MergedRun = RunResult & {
  /** The commit the run ran at, and whether the tree differed from it (runs written before have neither). */
  commit?: string;
  dirty?: boolean;
  invalid?: string;
  box?: { cpuPressure?: number };
  validity?: { failed: string[]; lateP99BarMs?: number; problems?: string[] };
  tcp?: Record<string, { TcpRetransSegs?: number }>;
  abr?: Pick<AbrFigures, 'topShare' | 'switches' | 'timeline' | 'originFetches'>;
};

/**
 * The figures a run gives, in summary.csv (means) and runs.csv (each run) alike. `top_share` and
 * `switches` are a ladder run's (abrFigures: the share of playing time at the top rendition, and
 * how often the rendered rendition changed); empty for a single stream.
 */
const RUN_METRICS = ['throughput_mbps', 'startup_s', 'buffering_s', 'stalls', 'latency_s', 'x', 'hold_s', 'top_share', 'switches'] as const;

/**
 * summary.csv's columns, in order (issue 16 item 4): per cell × scheme, `runs` valid runs — the
 * means' sample — and `invalid` runs counted beside them. The one summary format: the experiment
 * run's own summary, a merge and the report all give these.
 */
export const SUMMARY_COLUMNS = ['cell', 'rtt_ms', 'stream', 'scheme', 'runs', 'invalid', ...RUN_METRICS] as const;
/**
 * runs.csv's columns: one run each, everything the summary is made of — so a runs.csv committed
 * by one session is itself an input of the next merge (shards of a matrix run in different
 * sessions or on different machines meet in one summary without keeping the run files). With
 * each run, what judges it: the relays' worst p99 lateness, the links' unmodelled and modelled
 * drops, the origin's retransmissions, and the bars it failed.
 */
export const RUNS_COLUMNS = [
  'id',
  'cell',
  'rtt_ms',
  'stream',
  'scheme',
  'receiver',
  'repeat',
  ...RUN_METRICS,
  'cpu_pressure',
  'measured_backhaul_mbps',
  'steady_backhaul_mbps',
  'x_changes',
  'stall_causes',
  'rendition_changes',
  'origin_renditions',
  'late_p99_ms',
  'unmodelled_drops',
  'modelled_drops',
  'origin_retrans',
  'inject',
  'started_at',
  'commit',
  'failed_bars',
  'invalid',
  'source',
] as const;
export const COUNTS_COLUMNS = ['cell', 'scheme', 'total', 'valid', 'invalid'] as const;

/** One run as runs.csv has it: text fields as written, numbers parsed (null when empty). */
export interface RunRow {
  id: string;
  cell: string;
  rttMs: number | null;
  stream: string;
  scheme: string;
  receiver: string;
  repeat: number | null;
  /** Mean per-segment receiver throughput, Mbit/s (Table II). */
  throughputMbps: number | null;
  startupS: number | null;
  bufferingS: number | null;
  stalls: number | null;
  latencyS: number | null;
  x: number | null;
  holdS: number | null;
  /** A ladder run's share of playing time at the top rendition (0–1) and its rendition changes; null for a single stream. */
  topShare: number | null;
  switches: number | null;
  /** A ladder run's rendered renditions (`15@0s 50@14s`: Mbit/s at s after the first) and the origin's segment fetches per rendition (`15M-2s:58 50M-2s:12`). */
  renditionChanges: string;
  originRenditions: string;
  /** Share of the run's time some task waited for a CPU (/proc/pressure/cpu "some"): how busy the box was. */
  cpuPressure: number | null;
  /** The edge's mean single-flow origin fetch rate, and over its steady-state fetches, Mbit/s. */
  measuredBackhaulMbps: number | null;
  steadyBackhaulMbps: number | null;
  /** auto's changes of x, `3@12s 2@40s`, and where the stalls came from (`hit:1 miss:2`, stallCauses). */
  xChanges: string;
  stallCauses: string;
  /** The worst p99 departure lateness of the run's relay directions (injected lateness included), ms. */
  lateP99Ms: number | null;
  /** Packets the links lost that they do not model (any: invalid), and the ones they do; null: a run from before the accounting. */
  unmodelledDrops: number | null;
  modelledDrops: number | null;
  /** The origin host's TCP retransmissions (TcpRetransSegs). */
  originRetrans: number | null;
  /** Lateness injected on purpose (`lateness p99 2 ms + 3 stalls/min`), empty: none. */
  inject: string;
  startedAt: string;
  /** The commit the run ran at, `-dirty` after it when tracked files differed; empty for a run that did not record it. */
  commit: string;
  /** The validity bars the run failed (`relay-late unmodelled-drops`), empty when valid. */
  failedBars: string;
  invalid: string;
  source: string;
}

/** Chromium or virtual: the scenario says (runs since issue 16), else the virtual report's own mark. */
export const receiverOf = (r: MergedRun): string =>
  r.scenario.receiver ?? ((r.report as { receiver?: string }).receiver === 'virtual' ? 'virtual' : 'chromium');

/**
 * The merged cell of a run: stream @ RTT (with non-default network settings), the receiver kind
 * and dash.js when it played (hls.js is the default), e.g. `15M-2s @ 224 ms [virtual]`,
 * `15M-2s LL @ 224 ms [chromium, dash.js]`: runs of two players are never averaged together.
 */
export function mergedCell(r: MergedRun): string {
  const ran = r.scenario.ran && r.scenario.ran !== 'lte-a' ? `, ${ranLabel(r.scenario.ran)}` : '';
  // A virtual receiver that waits for an append before its next request (VirtualPlayerConfig.appendMs)
  // is another receiver model: its runs are not averaged with those of one that did not (the BBR paper matrix's runs did not wait).
  const appendMs = receiverOf(r) === 'virtual' ? (r.report as { appendMs?: number }).appendMs : undefined;
  const model = appendMs ? `, append ${appendMs} ms` : '';
  return `${cellOf(r)}${ran} [${receiverOf(r)}${model}${r.scenario.player === 'dash' ? ', dash.js' : ''}]`;
}

/** What the edge declared it held (X-Ethle-Hold-Seconds as the player's probe read it), s; 0 for E2E. */
const holdSecondsOf = (r: MergedRun): number | null => (typeof r.report.holdSeconds === 'number' ? r.report.holdSeconds : null);

/** The x a run held: hold-N's N, hold-paper's Table III x, what auto ended with; undefined for E2E. */
export function runX(r: MergedRun): number | undefined {
  const s = r.scenario.scheme;
  // parts-N holds in parts (hold_s says how long); the edge's whole-segment x means nothing there.
  if (s === 'e2e' || s.startsWith('parts-')) return undefined;
  if (s === 'hold-paper') return r.scenario.rttMs === undefined ? undefined : paperHoldX(r.scenario.stream, r.scenario.rttMs);
  if (s.startsWith('hold-')) return Number(s.slice(5));
  return r.edge?.x;
}

const csvCell = (v: unknown) => {
  const s = v === undefined || v === null ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
export const toCsv = (columns: readonly string[], rows: Record<string, unknown>[]) =>
  `${[columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\n')}\n`;

/**
 * The bars a run failed: as it recorded them (runs since the packet accounting), else read from
 * its `invalid` line (before, the relays' lateness was the only bar).
 */
export function failedBars(run: Pick<MergedRun, 'validity' | 'invalid'>): string[] {
  if (run.validity) return run.validity.failed;
  return run.invalid ? [run.invalid.startsWith('relay late') ? 'relay-late' : 'other'] : [];
}

/**
 * A run judged again against another lateness bar (merge's `--late-bar MS`), so runs made before the
 * bar moved count by the bar in force: the relay-late bar recomputed from the lateness each relay
 * direction recorded (beyond the injected lateness, as judgeRun does), every other bar as the run
 * recorded it. A run without per-direction lateness (before the packet accounting) is unchanged.
 */
export function rejudgeLateness(run: MergedRun, barMs: number): MergedRun {
  type Timed = Parameters<typeof lateRelays>[0];
  const links = run.links as unknown as Timed | undefined;
  const directions = links ? Object.values(links).flatMap((l) => [l.up, l.down]) : [];
  if (!run.validity || directions.length === 0 || directions.some((d) => d?.lateness?.p99Ms === undefined)) return run;
  const late = lateRelays(links!, barMs);
  const others = run.validity.failed.filter((b) => b !== 'relay-late');
  const otherProblems = (run.validity.problems ?? []).filter((p) => !p.startsWith('relay late'));
  const problems = [...(late.length ? [`relay late (bar: p99 < ${barMs} ms, re-judged): ${late.join('; ')}`] : []), ...otherProblems];
  const failed = [...(late.length ? ['relay-late'] : []), ...others];
  const { invalid: _, ...rest } = run;
  return {
    ...rest,
    validity: { ...run.validity, lateP99BarMs: barMs, failed, problems },
    ...(failed.length > 0 ? { invalid: problems.join('; ') } : {}),
  };
}

/**
 * auto's changes of x, `3@12s 2@40s`; with more than one stream (an HLS ladder's variants, each
 * its own x) each named by its directory: `50M-2s:3@12s 15M-2s:2@12s`.
 */
function xChanges(changes: NonNullable<NonNullable<MergedRun['edge']>['holdChanges']>): string {
  const many = new Set(changes.map((c) => c.stream)).size > 1;
  const label = (stream: string | undefined) => (many && stream ? `${stream.split('/').at(-2) ?? stream}:` : '');
  return changes.map((c) => `${label(c.stream)}${c.hold}@${c.atS.toFixed(0)}s`).join(' ');
}

const sumOf = (o: Record<string, number> | undefined) => (o ? Object.values(o).reduce((a, b) => a + b, 0) : 0);

/** A run file reduced to its runs.csv row. */
export function runRow(run: MergedRun, source: string): RunRow {
  const s = summarizeRun(run);
  type Dir = { lateness?: { p99Ms: number }; unmodelled?: Record<string, number>; modelled?: Record<string, number> };
  const dirs: Dir[] = run.links
    ? Object.values(run.links as Record<string, Record<'up' | 'down', Dir>>).flatMap((l) => [l.up, l.down])
    : [];
  const accounted = dirs.length > 0 && dirs.every((d) => d.unmodelled !== undefined);
  const p99s = dirs.map((d) => d.lateness?.p99Ms).filter((x): x is number => typeof x === 'number');
  return {
    id: run.id,
    cell: mergedCell(run),
    rttMs: run.scenario.rttMs ?? null,
    stream: run.scenario.stream,
    scheme: run.scenario.scheme,
    receiver: receiverOf(run),
    repeat: run.scenario.repeat ?? null,
    throughputMbps: s.throughputMbps,
    startupS: s.startupS,
    bufferingS: s.stallS,
    stalls: s.stallCount,
    latencyS: s.latencyS,
    x: runX(run) ?? null,
    holdS: holdSecondsOf(run),
    topShare: run.abr?.topShare ?? null,
    switches: run.abr ? run.abr.switches : null,
    renditionChanges: renditionChanges(run.abr),
    originRenditions: Object.entries(run.abr?.originFetches ?? {})
      .map(([r, k]) => `${r}:${k}`)
      .join(' '),
    cpuPressure: run.box?.cpuPressure ?? null,
    measuredBackhaulMbps: run.edge?.measuredBackhaulMbps ?? null,
    steadyBackhaulMbps: run.edge?.steadyBackhaulMbps ?? null,
    xChanges: xChanges(run.edge?.holdChanges ?? []),
    stallCauses: Object.entries(stallCauses(run) ?? {})
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k}:${n}`)
      .join(' '),
    lateP99Ms: p99s.length ? Math.max(...p99s) : null,
    unmodelledDrops: accounted ? dirs.reduce((a, d) => a + sumOf(d.unmodelled), 0) : null,
    modelledDrops: accounted ? dirs.reduce((a, d) => a + sumOf(d.modelled), 0) : null,
    originRetrans: run.tcp?.origin?.TcpRetransSegs ?? null,
    inject: run.scenario.injectLateness ? latenessLabel(run.scenario.injectLateness) : '',
    startedAt: run.startedAt,
    commit: commitLabel(run),
    failedBars: failedBars(run).join(' '),
    invalid: run.invalid ?? '',
    source,
  };
}

/** Splits CSV text as toCsv writes it (quoted fields with doubled quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (c !== '\r') field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * Reads a runs.csv back into rows (one a merge wrote, now or in an earlier round: columns are
 * found by name, and one it lacks is empty). `source` keeps the row's own when it has one.
 */
export function readRunsCsv(text: string, source: string): RunRow[] {
  const [head, ...body] = parseCsv(text);
  if (!head || !head.includes('id') || !head.includes('cell') || !head.includes('scheme'))
    throw new Error(`${source}: not a runs.csv (no id, cell and scheme columns)`);
  const col = (r: string[], name: string) => r[head.indexOf(name)] ?? '';
  const num = (v: string) => (v === '' || !Number.isFinite(Number(v)) ? null : Number(v));
  return body
    .filter((r) => r.length > 1)
    .map((r) => ({
      id: col(r, 'id'),
      cell: col(r, 'cell'),
      rttMs: num(col(r, 'rtt_ms')),
      stream: col(r, 'stream'),
      scheme: col(r, 'scheme'),
      receiver: col(r, 'receiver'),
      repeat: num(col(r, 'repeat')),
      throughputMbps: num(col(r, 'throughput_mbps')),
      startupS: num(col(r, 'startup_s')),
      bufferingS: num(col(r, 'buffering_s')),
      stalls: num(col(r, 'stalls')),
      latencyS: num(col(r, 'latency_s')),
      x: num(col(r, 'x')),
      holdS: num(col(r, 'hold_s')),
      topShare: num(col(r, 'top_share')),
      switches: num(col(r, 'switches')),
      renditionChanges: col(r, 'rendition_changes'),
      originRenditions: col(r, 'origin_renditions'),
      cpuPressure: num(col(r, 'cpu_pressure')),
      measuredBackhaulMbps: num(col(r, 'measured_backhaul_mbps')),
      steadyBackhaulMbps: num(col(r, 'steady_backhaul_mbps')),
      xChanges: col(r, 'x_changes'),
      stallCauses: col(r, 'stall_causes'),
      lateP99Ms: num(col(r, 'late_p99_ms')),
      unmodelledDrops: num(col(r, 'unmodelled_drops')),
      modelledDrops: num(col(r, 'modelled_drops')),
      originRetrans: num(col(r, 'origin_retrans')),
      inject: col(r, 'inject'),
      startedAt: col(r, 'started_at'),
      commit: col(r, 'commit'),
      // Rows of a runs.csv from before the column: the bar read from the invalid line, as for a run file.
      failedBars: head.includes('failed_bars') ? col(r, 'failed_bars') : failedBars({ invalid: col(r, 'invalid') }).join(' '),
      invalid: col(r, 'invalid'),
      source: col(r, 'source') || source,
    }));
}

/**
 * Joins runs from several shards: one run per id (a repeated id keeps the later start and is
 * reported), grouped by cell × scheme. Invalid runs (relay timing, `invalid` set) stay in runs.csv
 * and are counted, but no mean includes them. Metrics are `mean±half` of the 95 % interval
 * (Student's t over the valid runs); x is the held x, or auto's values joined by `/`. Run files
 * and rows of earlier runs.csv files merge alike.
 */
export function mergeRuns(inputs: { run: MergedRun; source: string }[], earlier: RunRow[] = []) {
  return mergeRows([...earlier, ...inputs.map((x) => runRow(x.run, x.source))]);
}

export function mergeRows(rows: RunRow[]) {
  const byId = new Map<string, RunRow>();
  const duplicates: string[] = [];
  for (const r of rows) {
    const had = byId.get(r.id);
    if (had) {
      duplicates.push(r.id);
      if (had.startedAt >= r.startedAt) continue;
    }
    byId.set(r.id, r);
  }
  const all = [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  const groups = new Map<string, RunRow[]>();
  for (const r of all) {
    const k = `${r.cell}\u0000${r.scheme}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const streamRank = (st: string) => {
    const p = parseStreamName(st);
    return p ? p.bitrateMbps * 100 + p.segmentSeconds : 1e9;
  };
  const keys = [...groups.keys()].sort((a, b) => {
    const [ra, rb] = [groups.get(a)![0]!, groups.get(b)![0]!];
    return (
      (ra.rttMs ?? 0) - (rb.rttMs ?? 0) ||
      streamRank(ra.stream) - streamRank(rb.stream) ||
      ra.cell.localeCompare(rb.cell) ||
      schemeRank(ra.scheme) - schemeRank(rb.scheme)
    );
  });
  const summary: Record<string, unknown>[] = [];
  const counts: Record<string, unknown>[] = [];
  for (const k of keys) {
    const g = groups.get(k)!;
    const r0 = g[0]!;
    const valid = g.filter((r) => !r.invalid);
    const xs = [...new Set(valid.map((r) => r.x).filter((v): v is number => v !== null))].sort((a, b) => a - b);
    summary.push({
      cell: r0.cell,
      rtt_ms: r0.rttMs ?? '',
      stream: r0.stream,
      scheme: r0.scheme,
      runs: valid.length,
      invalid: g.length - valid.length,
      throughput_mbps: formatMeanCi(meanCi(valid.map((r) => r.throughputMbps))),
      startup_s: formatMeanCi(meanCi(valid.map((r) => r.startupS))),
      buffering_s: formatMeanCi(meanCi(valid.map((r) => r.bufferingS))),
      stalls: formatMeanCi(meanCi(valid.map((r) => r.stalls))),
      latency_s: formatMeanCi(meanCi(valid.map((r) => r.latencyS))),
      x: xs.join('/'),
      hold_s: formatMeanCi(meanCi(valid.map((r) => r.holdS))),
      top_share: formatMeanCi(meanCi(valid.map((r) => r.topShare))),
      switches: formatMeanCi(meanCi(valid.map((r) => r.switches))),
    });
    counts.push({ cell: r0.cell, scheme: r0.scheme, total: g.length, valid: valid.length, invalid: g.length - valid.length });
  }
  // Runs are kept to the millisecond (the run files' own precision) so that a later merge, which
  // reads this file back, computes the same means and intervals; a trailing third zero is dropped so
  // the rows written at two decimals before stay byte-identical.
  const f = (v: number | null) => (v === null ? '' : v.toFixed(3).replace(/(\.\d\d)0$/, '$1'));
  const runs = all.map((r) => ({
    id: r.id,
    cell: r.cell,
    rtt_ms: r.rttMs ?? '',
    stream: r.stream,
    scheme: r.scheme,
    receiver: r.receiver,
    repeat: r.repeat ?? '',
    throughput_mbps: f(r.throughputMbps),
    startup_s: f(r.startupS),
    buffering_s: f(r.bufferingS),
    stalls: r.stalls ?? '',
    latency_s: f(r.latencyS),
    x: r.x ?? '',
    hold_s: f(r.holdS),
    top_share: f(r.topShare),
    switches: r.switches ?? '',
    cpu_pressure: r.cpuPressure === null ? '' : r.cpuPressure.toFixed(3),
    measured_backhaul_mbps: f(r.measuredBackhaulMbps),
    steady_backhaul_mbps: f(r.steadyBackhaulMbps),
    x_changes: r.xChanges,
    stall_causes: r.stallCauses,
    rendition_changes: r.renditionChanges,
    origin_renditions: r.originRenditions,
    late_p99_ms: f(r.lateP99Ms),
    unmodelled_drops: r.unmodelledDrops ?? '',
    modelled_drops: r.modelledDrops ?? '',
    origin_retrans: r.originRetrans ?? '',
    inject: r.inject,
    started_at: r.startedAt,
    commit: r.commit,
    failed_bars: r.failedBars,
    invalid: r.invalid,
    source: r.source,
  }));
  return { summary, runs, rows: all, counts, duplicates, invalid: all.filter((r) => r.invalid).length };
}
