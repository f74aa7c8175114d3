import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { modelHold } from '@ethle/core';
import { parseStreamName } from '@ethle/live-origin';
import type { ResultSet, RunResult } from '@ethle/player-demo';
import { latenessEffect, latenessEffectMarkdown } from './latenessEffect.js';
import { COUNTS_COLUMNS, mergeRuns, RUNS_COLUMNS, SUMMARY_COLUMNS, toCsv, type MergedRun } from './mergeRuns.js';
import { readRunFiles } from './readRunFiles.js';

export { stallCauses, type StallCause } from './stallCauses.js';

/**
 * Table III: per stream and RTT, the model's backhaul throughput and x vs what the edge measured.
 * Only the origin's single streams: a ladder (`15M+50M-2s`) has no one segment size to model, and
 * a user's source (`--source`) none of Table I's.
 */
export function tableIII(set: ResultSet) {
  const cells = new Map<string, RunResult[]>();
  for (const r of set.runs) {
    if (r.scenario.scheme === 'e2e' || r.scenario.rttMs === undefined || !parseStreamName(r.scenario.stream)) continue;
    const k = `${r.scenario.stream}@${r.scenario.rttMs}`;
    cells.set(k, [...(cells.get(k) ?? []), r]);
  }
  return [...cells.values()].map((runs) => {
    const { stream, rttMs } = runs[0]!.scenario;
    const spec = parseStreamName(stream);
    if (!spec) throw new Error(`unknown stream ${stream}`);
    const seconds = spec.segmentSeconds;
    const bytes = spec.segmentBytes;
    // The edge's own prediction (IW 10, request RTT) is in its metrics; this column is the paper's setting (IW 1).
    const paperModel = modelHold({
      rttSeconds: rttMs! / 1000,
      segmentBytes: bytes,
      segmentSeconds: seconds,
      ranBps: 60e6,
      initialWindowSegments: 1,
    });
    // Per scheme: hold-0 fetches each segment as it appears, while the previous one may still be
    // in flight; auto's prefetches run ahead of every receiver. Different flows, kept apart.
    const measuredOf = (scheme: string) =>
      runs
        .filter((r) => r.scenario.scheme === scheme)
        .map((r) => r.edge?.measuredBackhaulMbps)
        .filter((x): x is number => x !== undefined);
    const fetchesOf = (scheme: string) =>
      runs.filter((r) => r.scenario.scheme === scheme).reduce((a, r) => a + (r.edge?.measuredBackhaulFetches ?? 0), 0);
    // The fetches made in steady state, not in a burst (what the edge's online check uses): a
    // fetch-weighted mean over the runs that recorded them.
    const autoSteady = runs.filter((r) => r.scenario.scheme === 'auto' && (r.edge?.steadyBackhaulFetches ?? 0) > 0);
    const steadyFetches = autoSteady.reduce((a, r) => a + r.edge!.steadyBackhaulFetches!, 0);
    const edgeModel = runs.map((r) => r.edge?.modelBackhaulMbps).filter((x): x is number => x !== undefined);
    const autoX = runs.filter((r) => r.scenario.scheme === 'auto').map((r) => r.edge?.x ?? r.scenario.hold);
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    return {
      stream,
      rttMs: rttMs!,
      paperModelMbps: paperModel.backhaul.bps / 1e6,
      paperModelX: paperModel.hold,
      edgeModelMbps: mean(edgeModel),
      measuredHold0Mbps: mean(measuredOf('hold-0')),
      measuredHold0Fetches: fetchesOf('hold-0'),
      measuredAutoMbps: mean(measuredOf('auto')),
      measuredAutoFetches: fetchesOf('auto'),
      measuredAutoSteadyMbps: steadyFetches
        ? autoSteady.reduce((a, r) => a + r.edge!.steadyBackhaulMbps! * r.edge!.steadyBackhaulFetches!, 0) / steadyFetches
        : null,
      measuredAutoSteadyFetches: steadyFetches,
      autoX: autoX.length ? autoX.join('/') : '–',
    };
  });
}

/** Table II in the summary format (SUMMARY_COLUMNS): the rows summary.csv has, as markdown. */
export function tableIIMarkdown(summary: Record<string, unknown>[]): string {
  const md = [
    `| ${SUMMARY_COLUMNS.join(' | ')} |`,
    `|${SUMMARY_COLUMNS.map(() => '---').join('|')}|`,
    ...summary.map((r) => `| ${SUMMARY_COLUMNS.map((c) => String(r[c] ?? '')).join(' | ')} |`),
  ];
  return `${md.join('\n')}\n`;
}

/** Table III as markdown: the model's backhaul rate and x against what the edge measured (valid runs). */
export function tableIIIMarkdown(t3: ReturnType<typeof tableIII>): string {
  const streamRank = (stream: string) => {
    const s = parseStreamName(stream);
    return s ? s.bitrateMbps * 100 + s.segmentSeconds : 1e9;
  };
  const out = [
    "| stream | RTT (ms) | paper's model (IW 1, th_ran 60): Mbit/s, x | the edge's model (IW 10, + request RTT, its measured RTT): Mbit/s | measured backhaul, hold-0 (single-flow segment fetches): Mbit/s | measured backhaul, auto: Mbit/s | of which steady-state fetches (the edge's online check): Mbit/s | x chosen by `auto` (per run) |",
    '|---|---|---|---|---|---|---|---|',
  ];
  const f = (v: number | null, d = 1) => (v === null ? '–' : v.toFixed(d));
  // With the fetch count when the runs recorded it (older runs hold one fetch per run).
  const measured = (v: number | null, n: number) => (v === null ? '–' : n > 0 ? `${v.toFixed(1)} (${n} fetches)` : v.toFixed(1));
  for (const r of [...t3].sort((a, b) => streamRank(a.stream) - streamRank(b.stream) || a.rttMs - b.rttMs)) {
    out.push(
      `| ${r.stream} | ${r.rttMs} | ${f(r.paperModelMbps)}, ${r.paperModelX ?? '–'} | ${f(r.edgeModelMbps)} | ${measured(r.measuredHold0Mbps, r.measuredHold0Fetches)} | ${measured(r.measuredAutoMbps, r.measuredAutoFetches)} | ${measured(r.measuredAutoSteadyMbps, r.measuredAutoSteadyFetches)} | ${r.autoX} |`,
    );
  }
  return `${out.join('\n')}\n`;
}

/**
 * Writes a merge's tables into `out` — summary.csv (per cell × scheme: valid runs, invalid runs,
 * mean±95 % half-width over the valid ones), runs.csv (every run, with what judged it), counts.csv
 * — and, when the runs injected lateness, latenessEffect.md. The one summary format: the
 * experiment's own results directory and `npm run experiment:merge` both write it.
 */
export function writeSummary(out: string, m: ReturnType<typeof mergeRuns>): void {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'summary.csv'), toCsv(SUMMARY_COLUMNS, m.summary));
  writeFileSync(join(out, 'runs.csv'), toCsv(RUNS_COLUMNS, m.runs));
  writeFileSync(join(out, 'counts.csv'), toCsv(COUNTS_COLUMNS, m.counts));
  if (m.rows.some((r) => r.inject !== '')) writeFileSync(join(out, 'latenessEffect.md'), latenessEffectMarkdown(latenessEffect(m.rows)));
}

/**
 * Reads every run in `dir` and writes, beside them, summary.json (the runs as a ResultSet, for the
 * HTML report), the summary format (writeSummary), tableIII.json and tables.md (Table II as in
 * summary.csv, and Table III over the valid runs). An invalid run is counted, never averaged.
 */
export function summarize(dir: string): ResultSet | undefined {
  if (!existsSync(dir)) return undefined;
  const runs = readRunFiles<MergedRun>(dir).filter((r) => r.scenario && r.report);
  if (runs.length === 0) return undefined;
  const invalid = runs.filter((r) => r.invalid).length;
  const set: ResultSet = {
    v: 1,
    title: `ETHLE experiments (${runs.length} runs${invalid ? `, ${invalid} invalid: not averaged` : ''})`,
    runs,
  };
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(set));
  const m = mergeRuns(runs.map((run) => ({ run, source: basename(dir) })));
  writeSummary(dir, m);
  const t3 = tableIII({ ...set, runs: runs.filter((r) => !r.invalid) });
  writeFileSync(join(dir, 'tableIII.json'), JSON.stringify(t3, null, 1));
  writeFileSync(join(dir, 'tables.md'), `${tableIIMarkdown(m.summary)}\n${tableIIIMarkdown(t3)}`);
  return set;
}
