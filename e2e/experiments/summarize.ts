import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelHold } from '@ethle/core';
import { parseStreamName } from '@ethle/live-origin';
import type { ResultSet, RunResult } from '@ethle/player-demo';
import { summarizeRun, tableII } from '@ethle/player-demo';
import { schemeRank } from './paperHoldX.js';

export type StallCause = 'hit' | 'coalesced' | 'miss' | 'idle';

/**
 * Where each stall of a run through the edge came from: the media segment the player was
 * downloading when it stalled, and what the edge had of it when asked — `hit` (whole: the radio
 * leg was too slow), `coalesced` or `miss` (still coming over the backhaul), or `idle` (no segment
 * in flight: the player was waiting for its playlist). Undefined for runs without the edge's
 * segment log (E2E, runs before 2026-11-23).
 */
export function stallCauses(r: RunResult): Record<StallCause, number> | undefined {
  const log = r.edge?.segmentRequests;
  if (log === undefined || log.length === 0) return undefined;
  const firstResult = new Map<string, StallCause>();
  for (const e of log) if (!firstResult.has(e.path)) firstResult.set(e.path, e.result);
  const media = r.report.segments.list.filter((s) => s.kind === 'media');
  const out: Record<StallCause, number> = { hit: 0, coalesced: 0, miss: 0, idle: 0 };
  for (const stall of r.report.stalls.list) {
    const inFlight = media.filter((s) => s.requestStart <= stall.start && stall.start < s.lastByte).sort((a, b) => a.requestStart - b.requestStart)[0];
    out[inFlight === undefined ? 'idle' : (firstResult.get(new URL(inFlight.url).pathname) ?? 'miss')] += 1;
  }
  return out;
}

/** Table III: per stream and RTT, the model's backhaul throughput and x vs what the edge measured. */
export function tableIII(set: ResultSet) {
  const cells = new Map<string, RunResult[]>();
  for (const r of set.runs) {
    if (r.scenario.scheme === 'e2e' || r.scenario.rttMs === undefined) continue;
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
    const paperModel = modelHold({ rttSeconds: rttMs! / 1000, segmentBytes: bytes, segmentSeconds: seconds, ranBps: 60e6, initialWindowSegments: 1 });
    // Per scheme: hold-0 fetches each segment as it appears, while the previous one may still be
    // in flight; auto's prefetches run ahead of every receiver. Different flows, kept apart.
    const measuredOf = (scheme: string) => runs.filter((r) => r.scenario.scheme === scheme).map((r) => r.edge?.measuredBackhaulMbps).filter((x): x is number => x !== undefined);
    const fetchesOf = (scheme: string) => runs.filter((r) => r.scenario.scheme === scheme).reduce((a, r) => a + (r.edge?.measuredBackhaulFetches ?? 0), 0);
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
      measuredAutoSteadyMbps: steadyFetches ? autoSteady.reduce((a, r) => a + r.edge!.steadyBackhaulMbps! * r.edge!.steadyBackhaulFetches!, 0) / steadyFetches : null,
      measuredAutoSteadyFetches: steadyFetches,
      autoX: autoX.length ? autoX.join('/') : '–',
    };
  });
}

/**
 * The two tables as docs/experiments.md shows them: Table II per cell × scheme as mean (min–max)
 * over repeats, and Table III.
 */
export function markdownTables(runs: RunResult[], t3: ReturnType<typeof tableIII>): string {
  const rows = runs.map((r) => ({ r, m: summarizeRun(r) }));
  const groups = new Map<string, typeof rows>();
  for (const x of rows) groups.set(`${x.m.cell}|${x.m.scheme}`, [...(groups.get(`${x.m.cell}|${x.m.scheme}`) ?? []), x]);
  const streamRank = (cell: string) => {
    const s = parseStreamName(cell.split(' ')[0]!);
    return s ? s.bitrateMbps * 100 + s.segmentSeconds : 1e9;
  };
  const keys = [...groups.keys()].sort((a, b) => {
    const [ca, sa] = a.split('|') as [string, string];
    const [cb, sb] = b.split('|') as [string, string];
    return streamRank(ca) - streamRank(cb) || ca.localeCompare(cb) || schemeRank(sa) - schemeRank(sb);
  });
  const stat = (xs: (number | null)[], d = 1) => {
    const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
    if (!v.length) return '–';
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    const lo = Math.min(...v);
    const hi = Math.max(...v);
    return lo.toFixed(d) === hi.toFixed(d) ? mean.toFixed(d) : `${mean.toFixed(d)} (${lo.toFixed(d)}–${hi.toFixed(d)})`;
  };
  const out = [
    '| cell | scheme | runs | receiver throughput (Mbit/s) | initial delay (s) | buffering (s) | holding (s) | total live latency (s) | x |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const k of keys) {
    const g = groups.get(k)!;
    const [cell, scheme] = k.split('|');
    const xs = [...new Set(g.map(({ r }) => r.edge?.x).filter((x) => x !== undefined))].join('/') || '–';
    out.push(
      `| ${cell} | ${scheme} | ${g.length} | ${stat(g.map(({ m }) => m.throughputMbps))} | ${stat(g.map(({ m }) => m.startupS))} | ` +
        `${stat(g.map(({ m }) => m.stallS))} | ${stat(g.map(({ m }) => m.holdS), 0)} | ${stat(g.map(({ m }) => m.latencyS))} | ${scheme === 'e2e' ? '–' : xs} |`,
    );
  }
  out.push(
    '',
    "| stream | RTT (ms) | paper's model (IW 1, th_ran 60): Mbit/s, x | the edge's model (IW 10, + request RTT, its measured RTT): Mbit/s | measured backhaul, hold-0 (single-flow segment fetches): Mbit/s | measured backhaul, auto: Mbit/s | of which steady-state fetches (the edge's online check): Mbit/s | x chosen by `auto` (per run) |",
    '|---|---|---|---|---|---|---|---|',
  );
  const f = (v: number | null, d = 1) => (v === null ? '–' : v.toFixed(d));
  // With the fetch count when the runs recorded it (older runs hold one fetch per run).
  const measured = (v: number | null, n: number) => (v === null ? '–' : n > 0 ? `${v.toFixed(1)} (${n} fetches)` : v.toFixed(1));
  for (const r of [...t3].sort((a, b) => streamRank(a.stream) - streamRank(b.stream) || a.rttMs - b.rttMs)) {
    out.push(`| ${r.stream} | ${r.rttMs} | ${f(r.paperModelMbps)}, ${r.paperModelX ?? '–'} | ${f(r.edgeModelMbps)} | ${measured(r.measuredHold0Mbps, r.measuredHold0Fetches)} | ${measured(r.measuredAutoMbps, r.measuredAutoFetches)} | ${measured(r.measuredAutoSteadyMbps, r.measuredAutoSteadyFetches)} | ${r.autoX} |`);
  }
  return `${out.join('\n')}\n`;
}

/** Reads every run in `dir`, writes summary.json (a ResultSet), summary.csv (means per cell × scheme), runs.csv (one row per run), tableIII.json and tables.md. */
export function summarize(dir: string): ResultSet | undefined {
  if (!existsSync(dir)) return undefined;
  const runs = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !['summary.json', 'tableIII.json'].includes(f))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RunResult)
    .filter((r) => r.scenario && r.report);
  if (runs.length === 0) return undefined;
  const set: ResultSet = { v: 1, title: `ETHLE experiments (${runs.length} runs)`, runs };
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(set));
  const rows = tableII(set);
  const csv = ['cell,scheme,runs,throughput_mbps,startup_s,buffering_s,holding_s,total_latency_s'];
  const f = (v: number | null) => (v === null ? '' : v.toFixed(2));
  for (const r of rows) csv.push([r.cell, r.scheme, r.runs, f(r.throughputMbps), f(r.startupS), f(r.stallS), f(r.holdS), f(r.latencyS)].join(','));
  writeFileSync(join(dir, 'summary.csv'), `${csv.join('\n')}\n`);
  // The spread behind the means: one row per run (repeats, seeds and x visible).
  const perRun = ['id,cell,scheme,repeat,throughput_mbps,startup_s,buffering_s,stalls,holding_s,total_latency_s,x,measured_backhaul_mbps,steady_backhaul_mbps,x_changes,stall_segments,invalid'];
  for (const r of [...runs].sort((a, b) => a.id.localeCompare(b.id))) {
    const m = summarizeRun(r);
    perRun.push([m.id, m.cell, m.scheme, r.scenario.repeat ?? '', f(m.throughputMbps), f(m.startupS), f(m.stallS), m.stallCount, f(m.holdS), f(m.latencyS), r.edge?.x ?? '', f(r.edge?.measuredBackhaulMbps ?? null), f(r.edge?.steadyBackhaulMbps ?? null), (r.edge?.holdChanges ?? []).map((c) => `${c.hold}@${c.atS.toFixed(0)}s`).join(' '), Object.entries(stallCauses(r) ?? {}).filter(([, n]) => n > 0).map(([k, n]) => `${k}:${n}`).join(' '), ((r as { invalid?: string }).invalid ?? '').replace(/[,\n]/g, ';')].join(','));
  }
  writeFileSync(join(dir, 'runs.csv'), `${perRun.join('\n')}\n`);
  const t3 = tableIII(set);
  writeFileSync(join(dir, 'tableIII.json'), JSON.stringify(t3, null, 1));
  writeFileSync(join(dir, 'tables.md'), markdownTables(runs, t3));
  return set;
}
