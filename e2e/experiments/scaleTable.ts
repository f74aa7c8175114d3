import type { ExperimentRun } from './runScenario.js';
import { quantile } from './scaleFigures.js';

/** A scale run as read back from its file. */
export type ScaleRun = Pick<ExperimentRun, 'id' | 'scenario' | 'receivers' | 'scale' | 'invalid'>;

const groupOf = (r: ScaleRun) => {
  const s = r.scenario;
  return {
    stream: s.stream,
    rttMs: s.rttMs ?? 0,
    n: s.receivers ?? 1,
    join: (s.receivers ?? 1) > 1 ? (s.join ?? 'sync') : '–',
    cell: s.cell ?? 'per-user',
    cap: s.backhaulMbps,
    scheme: s.scheme,
  };
};
const keyOf = (g: ReturnType<typeof groupOf>) => `${g.stream}|${g.rttMs}|${g.cap ?? ''}|${g.join}|${g.n}|${g.cell}|${g.scheme}`;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const f = (v: number | null | undefined, d = 1) => (v === null || v === undefined ? '–' : v.toFixed(d));

/**
 * The scale experiment's table (issue 16 item 5): per stream × join × N × scheme, over its valid
 * runs — origin fetches and copies per segment, backhaul rate and utilisation, and every
 * receiver's startup and stalls pooled (median and 90th percentile across receivers). Also the
 * per-receiver rows behind the CDFs. Invalid runs (relay timing) are counted and left out unless
 * `includeInvalid` (then "runs (invalid)" says how many of the runs shown are).
 */
export function scaleTable(runs: ScaleRun[], o: { includeInvalid?: boolean } = {}) {
  const groups = new Map<string, { g: ReturnType<typeof groupOf>; runs: ScaleRun[]; invalid: number }>();
  for (const r of runs) {
    if (!r.scale || !r.receivers) continue;
    const g = groupOf(r);
    const k = keyOf(g);
    const e = groups.get(k) ?? { g, runs: [], invalid: 0 };
    if (r.invalid) e.invalid += 1;
    if (!r.invalid || o.includeInvalid) e.runs.push(r);
    groups.set(k, e);
  }
  const order = [...groups.values()].sort(
    (a, b) =>
      a.g.stream.localeCompare(b.g.stream) ||
      (b.g.cap ?? Infinity) - (a.g.cap ?? Infinity) ||
      a.g.n - b.g.n ||
      a.g.cell.localeCompare(b.g.cell) ||
      a.g.join.localeCompare(b.g.join) ||
      a.g.scheme.localeCompare(b.g.scheme),
  );
  const md = [
    '| stream | RTT (ms) | join | N | cell | backhaul cap (Mbit/s) | scheme | runs (invalid) | receivers played | origin fetches / segment (max) | copies / segment | backhaul Mbit/s mean (p95 of 1 s) | utilisation | startup s median (p90) | stalls / receiver | buffering s / receiver (p90) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const receiverRows: Record<string, unknown>[] = [];
  for (const { g, runs: rs, invalid } of order) {
    const recs = rs.flatMap((r) => r.receivers!);
    const started = recs.filter((x) => x.startupS !== null);
    const startups = started.map((x) => x.startupS!);
    const stallS = started.map((x) => x.stallS ?? 0);
    for (const r of rs)
      for (const x of r.receivers!)
        receiverRows.push({
          run: r.id,
          stream: g.stream,
          rtt_ms: g.rttMs,
          backhaul_mbps: g.cap ?? '',
          join: g.join,
          n: g.n,
          cell: g.cell,
          scheme: g.scheme,
          receiver: x.receiver,
          join_ms: x.joinMs,
          startup_s: x.startupS ?? '',
          stalls: x.stalls ?? '',
          buffering_s: x.stallS ?? '',
          latency_s: x.latencyS ?? '',
          error: x.error ?? '',
        });
    const sc = rs.map((r) => r.scale!);
    const maxFetch = sc.length ? Math.max(...sc.map((s) => s.originFetchesPerSegmentMax ?? 0)) : '–';
    const util = mean(sc.map((s) => s.backhaulUtilisation).filter((u): u is number => u !== undefined));
    md.push(
      `| ${g.stream} | ${g.rttMs} | ${g.join} | ${g.n} | ${g.n > 1 ? g.cell : '–'} | ${g.cap ?? '–'} | ${g.scheme} | ${rs.length}${invalid ? ` (${invalid})` : ''} | ${started.length}/${recs.length} | ` +
        `${f(mean(sc.map((s) => s.originFetchesPerSegment ?? NaN).filter(Number.isFinite)), 2)} (${maxFetch}) | ${f(mean(sc.map((s) => s.copiesPerSegment ?? NaN).filter(Number.isFinite)), 2)} | ` +
        `${f(mean(sc.map((s) => s.backhaulMbps.mean)), 0)} (${f(mean(sc.map((s) => s.backhaulMbps.p95 ?? NaN).filter(Number.isFinite)), 0)}) | ${util === null ? '–' : `${(util * 100).toFixed(0)} %`} | ` +
        `${f(quantile(startups, 0.5))} (${f(quantile(startups, 0.9))}) | ${f(mean(started.map((x) => x.stalls ?? 0)), 2)} | ${f(mean(stallS))} (${f(quantile(stallS, 0.9))}) |`,
    );
  }
  return { markdown: `${md.join('\n')}\n`, receiverRows };
}

/** Empirical CDF points (value, fraction ≤ value) of each group's per-receiver metric. */
export function cdfRows(rows: Record<string, unknown>[], metric: 'startup_s' | 'buffering_s'): Record<string, unknown>[] {
  const by = new Map<string, number[]>();
  for (const r of rows) {
    const v = r[metric];
    if (typeof v !== 'number') continue;
    const k = `${r.stream}|${r.rtt_ms}|${r.backhaul_mbps ?? ''}|${r.cell ?? ''}|${r.join}|${r.n}|${r.scheme}`;
    by.set(k, [...(by.get(k) ?? []), v]);
  }
  const out: Record<string, unknown>[] = [];
  for (const [k, vs] of by) {
    const [stream, rtt, cap, cell, join, n, scheme] = k.split('|');
    const s = [...vs].sort((a, b) => a - b);
    s.forEach((v, i) =>
      out.push({ stream, rtt_ms: rtt, backhaul_mbps: cap, cell, join, n, scheme, metric, value: v, fraction: (i + 1) / s.length }),
    );
  }
  return out;
}
