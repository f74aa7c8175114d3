import { cellOf, summarizeRun, type RunResult } from '@ethle/player-demo';
import { parseStreamName } from '@ethle/live-origin';
import { formatMeanCi, meanCi } from './meanCi.js';
import { paperHoldX } from './paperHoldX.js';

/** A run file as the experiments write it (runScenario's ExperimentRun, as far as merging reads it). */
export type MergedRun = RunResult & { invalid?: string };

/** summary.csv's columns, in order (issue 16 item 4). */
export const SUMMARY_COLUMNS = ['cell', 'rtt_ms', 'stream', 'scheme', 'runs', 'startup_s', 'buffering_s', 'stalls', 'latency_s', 'x', 'hold_s'] as const;
export const RUNS_COLUMNS = ['id', 'cell', 'rtt_ms', 'stream', 'scheme', 'receiver', 'repeat', 'startup_s', 'buffering_s', 'stalls', 'latency_s', 'x', 'hold_s', 'invalid', 'source'] as const;
export const COUNTS_COLUMNS = ['cell', 'scheme', 'total', 'valid', 'invalid'] as const;

/** Chromium or virtual: the scenario says (runs since issue 16), else the virtual report's own mark. */
export const receiverOf = (r: MergedRun): string => r.scenario.receiver ?? ((r.report as { receiver?: string }).receiver === 'virtual' ? 'virtual' : 'chromium');

/**
 * The merged cell of a run: stream @ RTT (with non-default network settings), the receiver kind
 * and dash.js when it played (hls.js is the default), e.g. `15M-2s @ 224 ms [virtual]`,
 * `15M-2s LL @ 224 ms [chromium, dash.js]`: runs of two players are never averaged together.
 */
export function mergedCell(r: MergedRun): string {
  const ran = r.scenario.ran && r.scenario.ran !== 'lte-a' ? `, ${r.scenario.ran}` : '';
  return `${cellOf(r)}${ran} [${receiverOf(r)}${r.scenario.player === 'dash' ? ', dash.js' : ''}]`;
}

/** What the edge declared it held (X-Ethle-Hold-Seconds as the player's probe read it), s; 0 for E2E. */
const holdSecondsOf = (r: MergedRun): number | null => (typeof r.report.holdSeconds === 'number' ? r.report.holdSeconds : null);

/** The x a run held: hold-N's N, hold-paper's Table III x, what auto ended with; undefined for E2E. */
export function runX(r: MergedRun): number | undefined {
  const s = r.scenario.scheme;
  if (s === 'e2e') return undefined;
  if (s === 'hold-paper') return r.scenario.rttMs === undefined ? undefined : paperHoldX(r.scenario.stream, r.scenario.rttMs);
  if (s.startsWith('hold-')) return Number(s.slice(5));
  return r.edge?.x;
}

const csvCell = (v: unknown) => {
  const s = v === undefined || v === null ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
export const toCsv = (columns: readonly string[], rows: Record<string, unknown>[]) => `${[columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\n')}\n`;

/**
 * Joins runs from several shards: one run per id (a repeated id keeps the later start and is
 * reported), grouped by cell × scheme. Invalid runs (relay timing, `invalid` set) stay in runs.csv
 * and are counted, but no mean includes them. Metrics are `mean±half` of the 95 % interval
 * (Student's t over the valid runs); x is the held x, or auto's values joined by `/`.
 */
export function mergeRuns(inputs: { run: MergedRun; source: string }[]) {
  const byId = new Map<string, { run: MergedRun; source: string }>();
  const duplicates: string[] = [];
  for (const x of inputs) {
    const had = byId.get(x.run.id);
    if (had) {
      duplicates.push(x.run.id);
      if (had.run.startedAt >= x.run.startedAt) continue;
    }
    byId.set(x.run.id, x);
  }
  const all = [...byId.values()].sort((a, b) => a.run.id.localeCompare(b.run.id));
  const groups = new Map<string, typeof all>();
  for (const x of all) {
    const k = `${mergedCell(x.run)}\u0000${x.run.scenario.scheme}`;
    groups.set(k, [...(groups.get(k) ?? []), x]);
  }
  const schemeRank = (s: string) => (s === 'e2e' ? 0 : s === 'hold-paper' ? 50 : s === 'auto' ? 100 : s.startsWith('hold-') ? 1 + Number(s.slice(5)) : 200);
  const streamRank = (st: string) => {
    const p = parseStreamName(st);
    return p ? p.bitrateMbps * 100 + p.segmentSeconds : 1e9;
  };
  const keys = [...groups.keys()].sort((a, b) => {
    const [ra, rb] = [groups.get(a)![0]!.run, groups.get(b)![0]!.run];
    return (
      (ra.scenario.rttMs ?? 0) - (rb.scenario.rttMs ?? 0) ||
      streamRank(ra.scenario.stream) - streamRank(rb.scenario.stream) ||
      mergedCell(ra).localeCompare(mergedCell(rb)) ||
      schemeRank(ra.scenario.scheme) - schemeRank(rb.scenario.scheme)
    );
  });
  const summary: Record<string, unknown>[] = [];
  const counts: Record<string, unknown>[] = [];
  for (const k of keys) {
    const g = groups.get(k)!;
    const r0 = g[0]!.run;
    const valid = g.filter((x) => !x.run.invalid);
    const m = valid.map((x) => summarizeRun(x.run));
    const xs = [...new Set(valid.map((x) => runX(x.run)).filter((v): v is number => v !== undefined))].sort((a, b) => a - b);
    summary.push({
      cell: mergedCell(r0),
      rtt_ms: r0.scenario.rttMs ?? '',
      stream: r0.scenario.stream,
      scheme: r0.scenario.scheme,
      runs: valid.length,
      startup_s: formatMeanCi(meanCi(m.map((s) => s.startupS))),
      buffering_s: formatMeanCi(meanCi(m.map((s) => s.stallS))),
      stalls: formatMeanCi(meanCi(m.map((s) => s.stallCount))),
      latency_s: formatMeanCi(meanCi(m.map((s) => s.latencyS))),
      x: xs.join('/'),
      hold_s: formatMeanCi(meanCi(valid.map((x) => holdSecondsOf(x.run)))),
    });
    counts.push({ cell: mergedCell(r0), scheme: r0.scenario.scheme, total: g.length, valid: valid.length, invalid: g.length - valid.length });
  }
  const f = (v: number | null) => (v === null ? '' : v.toFixed(2));
  const runs = all.map(({ run, source }) => {
    const s = summarizeRun(run);
    return {
      id: run.id,
      cell: mergedCell(run),
      rtt_ms: run.scenario.rttMs ?? '',
      stream: run.scenario.stream,
      scheme: run.scenario.scheme,
      receiver: receiverOf(run),
      repeat: run.scenario.repeat ?? '',
      startup_s: f(s.startupS),
      buffering_s: f(s.stallS),
      stalls: s.stallCount,
      latency_s: f(s.latencyS),
      x: runX(run) ?? '',
      hold_s: f(holdSecondsOf(run)),
      invalid: run.invalid ?? '',
      source,
    };
  });
  return { summary, runs, counts, duplicates, invalid: all.filter((x) => x.run.invalid).length };
}
