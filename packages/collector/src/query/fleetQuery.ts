import type { Row, Store } from '../store/Store.js';
import { listOf } from '../store/toRow.js';
import { binnedQuantiles, type ValueBin } from './binnedQuantiles.js';
import { BUCKETS, dimensionWhere, groupExpr, Params, type FleetFilter } from './FleetFilter.js';
import { BATCH_WATCH_MS, cutBy, wholeIn } from './sessionRange.js';

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
  /**
   * True live latency, s, over every sample in the range: percentile_cont within a sample bin's
   * width (LATENCY_BINS_SQL: 0.01 s below 60 s, 1 s below an hour), exact where a bin's samples
   * are equal.
   */
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

/** Bins of the latency histogram, s: fine enough to see a 2 s hold step, and at most ~120 bins to 60 s. */
const LATENCY_BIN_S = 0.5;
/** Latencies above this go in the last bin (a stalled player's minutes-long latency would stretch the axis). */
const LATENCY_CAP_S = 60;

/**
 * The bin of a latency sample, s → a whole number in value order: 0.01 s wide below 60 s (keys
 * 0–5999), 1 s wide to an hour (6000–9539), one bin above that and one below 0, so a group has at
 * most 9,542. One scan gives both the histogram and the percentiles (binnedQuantiles): an exact
 * percentile_cont sorted 1.8 M samples for 200 ms of the fleet view's 300 at 10,000 sessions.
 */
const latencyBinSql = (x: string) =>
  `CASE WHEN ${x} < 0 THEN -1 WHEN ${x} < 60 THEN floor(${x} * 100) WHEN ${x} < 3600 THEN 6000 + floor(${x} - 60) ELSE 9540 END`;

/** The histogram bin (LATENCY_BIN_S wide, capped) a sample bin falls in. */
function histogramBin(key: number, lo: number): number {
  if (key < 0) return Math.floor(lo / LATENCY_BIN_S) * LATENCY_BIN_S;
  if (key >= LATENCY_CAP_S * 100) return LATENCY_CAP_S;
  return Math.floor(key / (LATENCY_BIN_S * 100)) * LATENCY_BIN_S;
}

export async function fleetQuery(store: Store, f: FleetFilter): Promise<FleetView> {
  // Three statements, asked at once: the stores run them side by side (DuckDB's readers, a
  // PostgreSQL pool), so the view waits for the slowest, not for the sum.
  const [groups, latency, series] = await Promise.all([groupsRows(store, f), latencyRows(store, f), seriesRows(store, f)]);
  // Per group: its sample bins in value order, and the histogram's counts.
  const latencyOf = new Map<string, { bins: ValueBin[]; histogram: Map<number, number> }>();
  for (const r of latency) {
    const grp = String(r['grp']);
    let g = latencyOf.get(grp);
    if (g === undefined) latencyOf.set(grp, (g = { bins: [], histogram: new Map() }));
    const bin = { count: Number(r['n']), lo: Number(r['lo']), hi: Number(r['hi']) };
    g.bins.push(bin);
    const h = histogramBin(Number(r['k']), bin.lo);
    g.histogram.set(h, (g.histogram.get(h) ?? 0) + bin.count);
  }
  const n = (v: Row[string] | undefined) => (v === null || v === undefined ? null : Number(v));
  return {
    filter: f,
    groups: groups.map((r) => {
      const l = latencyOf.get(String(r['grp']));
      // One sort per group for all its percentiles (an array of fractions), not one per percentile.
      const su = listOf(r['startup_ps']);
      const lp = l ? binnedQuantiles(l.bins, [0.5, 0.95, 0.99]) : null;
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
        latencySamples: l ? l.bins.reduce((a, b) => a + b.count, 0) : 0,
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
    latencyBins: [...latencyOf].flatMap(([group, l]) =>
      [...l.histogram].sort((a, b) => a[0] - b[0]).map(([fromS, count]) => ({ group, fromS, count })),
    ),
    latencyBinS: LATENCY_BIN_S,
  };
}

/**
 * Per group over its sessions in the range: a session's startup (its first), stalls, time stalled
 * and watched — from its kept totals when the range holds all of its batches, else from its
 * batches in the range.
 */
function groupsRows(store: Store, f: FleetFilter): Promise<Row[]> {
  const p = new Params();
  const from = p.add(f.fromMs);
  const to = p.add(f.toMs);
  const dims = dimensionWhere(f, p);
  const sql = `WITH per AS (
      SELECT s.session_id, ${groupExpr(f)} AS grp, s.startup_ms, s.stall_count AS stalls, s.stall_ms, s.watch_ms
      FROM sessions s WHERE ${wholeIn(from, to)}${dims}
      UNION ALL
      SELECT s.session_id, ${groupExpr(f)} AS grp, min(b.startup_ms), sum(b.stall_count), sum(b.stall_ms), sum(${BATCH_WATCH_MS})
      FROM batches b JOIN sessions s ON s.session_id = b.session_id
      WHERE b.received_ms >= ${from} AND b.received_ms < ${to} AND ${cutBy(from, to)}${dims}
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
}

/** Every latency sample in the range, counted per group and sample bin (latencyBinSql). */
function latencyRows(store: Store, f: FleetFilter): Promise<Row[]> {
  const p = new Params();
  const sql = `SELECT ${groupExpr(f)} AS grp, ${latencyBinSql('l.true_latency_s')} AS k, count(*) AS n,
      min(l.true_latency_s) AS lo, max(l.true_latency_s) AS hi
    FROM latency l JOIN sessions s ON s.session_id = l.session_id
    WHERE l.true_latency_s IS NOT NULL AND l.received_ms >= ${p.add(f.fromMs)} AND l.received_ms < ${p.add(f.toMs)}${dimensionWhere(f, p)}
    GROUP BY grp, k ORDER BY grp, k`;
  return store.all(sql, p.values);
}

/**
 * Per bucket and group: sessions, stalls, time stalled and watched. One row per session and
 * bucket first — a session whose batches all fall in the range and in one bucket from its kept
 * totals, any other from its batches in the range — so a session counts once per bucket.
 */
function seriesRows(store: Store, f: FleetFilter): Promise<Row[]> {
  const p = new Params();
  const from = p.add(f.fromMs);
  const to = p.add(f.toMs);
  const bucket = p.add(BUCKETS[f.bucket]);
  const dims = dimensionWhere(f, p);
  const oneBucket = `${wholeIn(from, to)} AND floor(s.min_received_ms / ${bucket}) = floor(s.max_received_ms / ${bucket})`;
  const sql = `WITH per AS (
      SELECT floor(s.min_received_ms / ${bucket}) * ${bucket} AS t, ${groupExpr(f)} AS grp, s.session_id,
        s.stall_count AS stalls, s.stall_ms, s.watch_ms
      FROM sessions s WHERE ${oneBucket}${dims}
      UNION ALL
      SELECT floor(b.received_ms / ${bucket}) * ${bucket} AS t, ${groupExpr(f)} AS grp, s.session_id,
        sum(b.stall_count), sum(b.stall_ms), sum(${BATCH_WATCH_MS})
      FROM batches b JOIN sessions s ON s.session_id = b.session_id
      WHERE b.received_ms >= ${from} AND b.received_ms < ${to}
        AND s.max_received_ms >= ${from} AND s.min_received_ms < ${to} AND NOT (${oneBucket})${dims}
      GROUP BY t, grp, s.session_id
    )
    SELECT t, grp, count(*) AS sessions, sum(stall_ms) / nullif(sum(watch_ms), 0) AS rebuffer_ratio,
      sum(stalls) AS stalls, sum(watch_ms) / 3600000.0 AS watch_hours
    FROM per GROUP BY t, grp ORDER BY t, grp`;
  return store.all(sql, p.values);
}
