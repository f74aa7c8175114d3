import type { ResultSet, RunResult } from './RunResult.js';

/** One run reduced to the paper's metrics (Section V-B; Table II, Fig. 9). Seconds and Mbit/s. */
export interface RunSummary {
  id: string;
  cell: string;
  scheme: string;
  /** Mean per-segment throughput seen by the receiver (media segments), Mbit/s. */
  throughputMbps: number | null;
  startupS: number | null;
  stallS: number;
  stallCount: number;
  /** Latency added by holding (the edge's declared hold). */
  holdS: number;
  /** True live latency at the end of the run. */
  latencyS: number | null;
}

export const cellOf = (r: RunResult) => {
  const s = r.scenario;
  const stream = s.ll ? `${s.stream} LL` : s.stream;
  if (s.rttMs === undefined) return stream;
  const net = [
    s.cc && s.cc !== 'bbr' ? s.cc : '',
    s.tcpBufferBytes ? `${Math.round(s.tcpBufferBytes / 2 ** 20)} MB buffers` : '',
    s.backhaulMbps ? `backhaul ${s.backhaulMbps} Mbit/s` : '',
    s.backhaulLossPct ? `backhaul loss ${s.backhaulLossPct} %` : '',
    s.injectLateness ? latenessLabel(s.injectLateness) : '',
    // Not named at the testbed's default (60, netlab DEFAULT_SENDER_PRIORITY; player-demo does not depend on netlab).
    s.senderPriority !== undefined && s.senderPriority !== 60 ? `senders at priority ${s.senderPriority}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `${stream} @ ${s.rttMs} ms${net ? ` (${net})` : ''}`;
};

/** `lateness p99 2 ms + 3 stalls/min [on ran]`: lateness injected into a run's links, as its cell names it. */
export function latenessLabel(l: { p99Ms: number; stallsPerMinute: number; link?: 'ran' | 'backhaul' }): string {
  const parts = [l.p99Ms > 0 ? `p99 ${l.p99Ms} ms` : '', l.stallsPerMinute > 0 ? `${l.stallsPerMinute} stalls/min` : ''].filter(Boolean);
  return `lateness ${parts.join(' + ') || 'none'}${l.link ? ` on ${l.link}` : ''}`;
}

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

export function summarizeRun(r: RunResult): RunSummary {
  const media = r.report.segments.list.filter((s) => s.kind === 'media' && s.throughputBps > 0);
  const lastLatency = [...r.report.latencySeries].reverse().find((s) => s.trueLatency !== null)?.trueLatency ?? r.report.latency.current;
  return {
    id: r.id,
    cell: cellOf(r),
    scheme: r.scenario.scheme,
    throughputMbps: mean(media.map((s) => s.throughputBps / 1e6)),
    startupS: r.report.startupMs === null ? null : r.report.startupMs / 1000,
    stallS: r.report.stalls.totalMs / 1000,
    stallCount: r.report.stalls.count,
    holdS: r.report.holdSeconds,
    latencyS: lastLatency ?? null,
  };
}

/** Table II row: per cell and scheme, means over the valid repeats. */
export interface TableRow {
  cell: string;
  scheme: string;
  /** Valid runs, the means' sample. */
  runs: number;
  /** Invalid runs of the cell and scheme (RunResult.invalid): counted, never averaged. */
  invalid: number;
  throughputMbps: number | null;
  startupS: number | null;
  stallS: number | null;
  holdS: number | null;
  latencyS: number | null;
}

export function tableII(set: ResultSet): TableRow[] {
  const groups = new Map<string, { valid: RunSummary[]; invalid: RunSummary[] }>();
  for (const r of set.runs) {
    const s = summarizeRun(r);
    const key = `${s.cell}\u0000${s.scheme}`;
    const g = groups.get(key) ?? { valid: [], invalid: [] };
    (r.invalid ? g.invalid : g.valid).push(s);
    groups.set(key, g);
  }
  const nums = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);
  return [...groups.values()]
    .map(({ valid: g, invalid }) => ({ g, invalid, first: g[0] ?? invalid[0]! }))
    .map(({ g, invalid, first }) => ({
      cell: first.cell,
      scheme: first.scheme,
      runs: g.length,
      invalid: invalid.length,
      throughputMbps: mean(nums(g.map((s) => s.throughputMbps))),
      startupS: mean(nums(g.map((s) => s.startupS))),
      stallS: mean(g.map((s) => s.stallS)),
      holdS: mean(g.map((s) => s.holdS)),
      latencyS: mean(nums(g.map((s) => s.latencyS))),
    }))
    .sort((a, b) => a.cell.localeCompare(b.cell) || schemeOrder(a.scheme) - schemeOrder(b.scheme) || a.scheme.localeCompare(b.scheme));
}

function schemeOrder(s: string): number {
  return s === 'e2e' ? 0 : s === 'hold-0' ? 1 : s === 'auto' ? 3 : 2;
}

/**
 * Fig. 9: live latency as startup + buffering + holding, per cell and scheme — plus what the paper's
 * bars leave implicit: the offset the player itself keeps behind the manifest's edge (hls.js starts
 * ~3 target durations back), so the stack adds up to the measured latency.
 */
export function latencyStack(
  set: ResultSet,
): { label: string; scheme: string; startupS: number; stallS: number; holdS: number; playerOffsetS: number }[] {
  // A cell whose runs were all invalid has no bar: nothing valid to stack.
  return tableII(set)
    .filter((r) => r.runs > 0)
    .map((r) => {
      const startupS = r.startupS ?? 0;
      const stallS = r.stallS ?? 0;
      const holdS = r.holdS ?? 0;
      const playerOffsetS = r.latencyS === null ? 0 : Math.max(0, r.latencyS - startupS - stallS - holdS);
      return { label: `${r.cell} ${r.scheme}`, scheme: r.scheme, startupS, stallS, holdS, playerOffsetS };
    });
}

/** Empirical CDF: sorted values with cumulative probability (i+1)/n. */
export function cdf(values: number[]): { x: number; p: number }[] {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.map((x, i) => ({ x, p: (i + 1) / sorted.length }));
}

/** Per-segment receiver throughput (Mbit/s) of every valid run of each scheme (Fig. 5/7/10). */
export function throughputByScheme(set: ResultSet): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of set.runs) {
    if (r.invalid) continue;
    const xs = r.report.segments.list.filter((s) => s.kind === 'media' && s.throughputBps > 0).map((s) => s.throughputBps / 1e6);
    out.set(r.scenario.scheme, [...(out.get(r.scenario.scheme) ?? []), ...xs]);
  }
  return out;
}

/** A run's true latency over time (seconds since its first sample) and its stalls on the same axis. */
export function latencyTimeline(r: RunResult): { points: { t: number; latency: number }[]; stalls: { t: number; durationS: number }[] } {
  const series = r.report.latencySeries.filter((s) => s.trueLatency !== null);
  const t0 = series[0]?.at ?? r.report.stalls.list[0]?.start ?? 0;
  return {
    points: series.map((s) => ({ t: (s.at - t0) / 1000, latency: s.trueLatency! })),
    stalls: r.report.stalls.list.map((s) => ({ t: (s.start - t0) / 1000, durationS: s.durationMs / 1000 })),
  };
}

/** Checks a parsed JSON value is a result set (or a single run), with a clear message if not. */
export function asResultSet(json: unknown): ResultSet {
  const o = json as Partial<ResultSet & RunResult>;
  if (o && Array.isArray(o.runs)) return o as ResultSet;
  if (o && o.scenario && o.report) return { v: 1, runs: [o as RunResult] };
  throw new Error('not a results file: expected {"runs": [...]} or one run with "scenario" and "report"');
}
