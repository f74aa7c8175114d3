import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelHold } from '@ethle/core';
import type { ResultSet, RunResult } from '../../packages/player-demo/src/data/RunResult.js';
import { summarizeRun, tableII } from '../../packages/player-demo/src/data/summarize.js';

const TABLE_I: Record<string, number> = { '15M-2s': 3.7e6, '15M-4s': 7.2e6, '15M-10s': 18.3e6, '50M-2s': 12.2e6, '50M-4s': 24.4e6, '50M-10s': 61.1e6 };

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
    const seconds = Number(/-(\d+)s$/.exec(stream)![1]);
    const bytes = TABLE_I[stream] ?? (Number(/^(\d+)M/.exec(stream)![1]) * 1e6 * seconds) / 8;
    // The edge's own prediction (IW 10, request RTT) is in its metrics; this column is the paper's setting (IW 1).
    const paperModel = modelHold({ rttSeconds: rttMs! / 1000, segmentBytes: bytes, segmentSeconds: seconds, ranBps: 60e6, initialWindowSegments: 1 });
    const measured = runs.map((r) => r.edge?.measuredBackhaulMbps).filter((x): x is number => x !== undefined);
    const edgeModel = runs.map((r) => r.edge?.modelBackhaulMbps).filter((x): x is number => x !== undefined);
    const autoX = runs.filter((r) => r.scenario.scheme === 'auto').map((r) => r.edge?.x ?? r.scenario.hold);
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    return {
      stream,
      rttMs: rttMs!,
      paperModelMbps: paperModel.backhaul.bps / 1e6,
      paperModelX: paperModel.hold,
      edgeModelMbps: mean(edgeModel),
      measuredMbps: mean(measured),
      autoX: autoX.length ? autoX.join('/') : '–',
    };
  });
}

/** Reads every run in `dir`, writes summary.json (a ResultSet), summary.csv (means per cell × scheme), runs.csv (one row per run) and tableIII.json. */
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
  const perRun = ['id,cell,scheme,repeat,throughput_mbps,startup_s,buffering_s,stalls,holding_s,total_latency_s,x,measured_backhaul_mbps'];
  for (const r of [...runs].sort((a, b) => a.id.localeCompare(b.id))) {
    const m = summarizeRun(r);
    perRun.push([m.id, m.cell, m.scheme, r.scenario.repeat ?? '', f(m.throughputMbps), f(m.startupS), f(m.stallS), m.stallCount, f(m.holdS), f(m.latencyS), r.edge?.x ?? '', f(r.edge?.measuredBackhaulMbps ?? null)].join(','));
  }
  writeFileSync(join(dir, 'runs.csv'), `${perRun.join('\n')}\n`);
  writeFileSync(join(dir, 'tableIII.json'), JSON.stringify(tableIII(set), null, 1));
  return set;
}
