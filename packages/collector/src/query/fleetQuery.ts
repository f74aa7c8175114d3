import type { Row, Store } from '../store/Store.js';
import { listOf } from '../store/toRow.js';
import { BUCKETS, dimensionWhere, groupExpr, Params, type FleetFilter } from './FleetFilter.js';

/** One group's QoE over the range, as Mux Data / Conviva summarise a fleet. */
export interface FleetGroup {
  group: string;
  sessions: number;
  /** Startup time (load request → first frame), ms, over the sessions that started in the range. */
  startupP50Ms: number | null;
  startupP95Ms: number | null;
  /** Time stalled ÷ time watched (rebuffering percentage / 100). */
  rebufferRatio: number | null;
  stalls: number;
  /** Stalls per hour watched (rebuffer frequency). */
  stallsPerHour: number | null;
  sessionsWithStalls: number;
  watchHours: number;
  /** True live latency, s, over every sample in the range. */
  latencyP50S: number | null;
  latencyP95S: number | null;
  latencyP99S: number | null;
  latencySamples: number;
}

export interface FleetSeriesPoint {
  /** Bucket start, epoch ms (collector clock). */
  t: number;
  group: string;
  sessions: number;
  rebufferRatio: number | null;
  stalls: number;
  watchHours: number;
}

export interface LatencyBin {
  group: string;
  /** Lower edge of the bin, s. */
  fromS: number;
  count: number;
}

export interface FleetView {
  filter: FleetFilter;
  groups: FleetGroup[];
  series: FleetSeriesPoint[];
  latencyBins: LatencyBin[];
  latencyBinS: number;
}

/** The batches in the range, each with the time watched it covers (WatchClock, at ingest). */
function batchesCte(f: FleetFilter, p: Params): string {
  return `b AS (
    SELECT session_id, seq, received_ms, startup_ms, stall_count, stall_ms,
      coalesce(watch_ms, greatest(0, sent_ms - first_at_ms)) AS watch_ms
    FROM batches WHERE received_ms >= ${p.add(f.fromMs)} AND received_ms < ${p.add(f.toMs)}
  )`;
}

/** Bins of the latency histogram, s: fine enough to see a 2 s hold step, and at most ~120 bins to 60 s. */
const LATENCY_BIN_S = 0.5;
/** Latencies above this go in the last bin (a stalled player's minutes-long latency would stretch the axis). */
const LATENCY_CAP_S = 60;

export async function fleetQuery(store: Store, f: FleetFilter): Promise<FleetView> {
  const groups = await (async () => {
    const p = new Params();
    const sql = `WITH ${batchesCte(f, p)},
      per AS (
        SELECT s.session_id, ${groupExpr(f)} AS grp, min(b.startup_ms) AS startup_ms, sum(b.stall_count) AS stalls, sum(b.stall_ms) AS stall_ms, sum(b.watch_ms) AS watch_ms
        FROM b JOIN sessions s ON s.session_id = b.session_id
        WHERE true${dimensionWhere(f, p)}
        GROUP BY s.session_id, grp
      )
      SELECT grp, count(*) AS sessions,
        percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY startup_ms) AS startup_ps,
        sum(stall_ms) / nullif(sum(watch_ms), 0) AS rebuffer_ratio,
        sum(stalls) AS stalls,
        sum(stalls) / nullif(sum(watch_ms) / 3600000.0, 0) AS stalls_per_hour,
        count(*) FILTER (WHERE stalls > 0) AS sessions_with_stalls,
        sum(watch_ms) / 3600000.0 AS watch_hours
      FROM per GROUP BY grp ORDER BY grp`;
    return store.all(sql, p.values);
  })();
  const latency = await (async () => {
    const p = new Params();
    const sql = `SELECT ${groupExpr(f)} AS grp, count(*) AS n,
        percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY l.true_latency_s) AS ps
      FROM latency l JOIN sessions s ON s.session_id = l.session_id
      WHERE l.true_latency_s IS NOT NULL AND l.received_ms >= ${p.add(f.fromMs)} AND l.received_ms < ${p.add(f.toMs)}${dimensionWhere(f, p)}
      GROUP BY grp`;
    return store.all(sql, p.values);
  })();
  const byGroup = new Map(latency.map((r) => [String(r['grp']), r]));
  const series = await (async () => {
    const p = new Params();
    const cte = batchesCte(f, p);
    const bucket = p.add(BUCKETS[f.bucket]);
    const sql = `WITH ${cte}
      SELECT floor(b.received_ms / ${bucket}) * ${bucket} AS t, ${groupExpr(f)} AS grp, count(DISTINCT b.session_id) AS sessions,
        sum(b.stall_ms) / nullif(sum(b.watch_ms), 0) AS rebuffer_ratio, sum(b.stall_count) AS stalls, sum(b.watch_ms) / 3600000.0 AS watch_hours
      FROM b JOIN sessions s ON s.session_id = b.session_id
      WHERE true${dimensionWhere(f, p)}
      GROUP BY t, grp ORDER BY t, grp`;
    return store.all(sql, p.values);
  })();
  const bins = await (async () => {
    const p = new Params();
    const w = p.add(LATENCY_BIN_S);
    const sql = `SELECT ${groupExpr(f)} AS grp, floor(least(l.true_latency_s, ${p.add(LATENCY_CAP_S)}) / ${w}) * ${w} AS bin, count(*) AS n
      FROM latency l JOIN sessions s ON s.session_id = l.session_id
      WHERE l.true_latency_s IS NOT NULL AND l.received_ms >= ${p.add(f.fromMs)} AND l.received_ms < ${p.add(f.toMs)}${dimensionWhere(f, p)}
      GROUP BY grp, bin ORDER BY grp, bin`;
    return store.all(sql, p.values);
  })();
  const n = (v: Row[string] | undefined) => (v === null || v === undefined ? null : Number(v));
  return {
    filter: f,
    groups: groups.map((r) => {
      const l = byGroup.get(String(r['grp']));
      // One sort per group for all its percentiles (an array of fractions), not one per percentile.
      const su = listOf(r['startup_ps']);
      const lp = listOf(l?.['ps']);
      return {
        group: String(r['grp']),
        sessions: Number(r['sessions']),
        startupP50Ms: su?.[0] ?? null,
        startupP95Ms: su?.[1] ?? null,
        rebufferRatio: n(r['rebuffer_ratio']),
        stalls: Number(r['stalls'] ?? 0),
        stallsPerHour: n(r['stalls_per_hour']),
        sessionsWithStalls: Number(r['sessions_with_stalls'] ?? 0),
        watchHours: Number(r['watch_hours'] ?? 0),
        latencyP50S: lp?.[0] ?? null,
        latencyP95S: lp?.[1] ?? null,
        latencyP99S: lp?.[2] ?? null,
        latencySamples: Number(l?.['n'] ?? 0),
      };
    }),
    series: series.map((r) => ({
      t: Number(r['t']),
      group: String(r['grp']),
      sessions: Number(r['sessions']),
      rebufferRatio: n(r['rebuffer_ratio']),
      stalls: Number(r['stalls'] ?? 0),
      watchHours: Number(r['watch_hours'] ?? 0),
    })),
    latencyBins: bins.map((r) => ({ group: String(r['grp']), fromS: Number(r['bin']), count: Number(r['n']) })),
    latencyBinS: LATENCY_BIN_S,
  };
}
