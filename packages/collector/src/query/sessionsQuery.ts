import type { Store } from '../store/Store.js';
import { dimensionWhere, Params, type FleetFilter } from './FleetFilter.js';
import { cutBy, wholeIn } from './sessionRange.js';

export interface SessionSummary {
  session: string;
  target: string;
  player: string;
  stream: string;
  scheme: string;
  edge: string;
  firstReceivedMs: number;
  lastReceivedMs: number;
  batches: number;
  /** Batches the probe numbered but the collector never got (gaps in seq below the highest seen). */
  missingBatches: number;
  startupMs: number | null;
  stalls: number;
  stallMs: number;
  segments: number;
  /** The probe's final batch (pagehide / destroy) arrived. */
  ended: boolean;
}

/**
 * The newest sessions (by their last batch) in the range and filter, `limit` from `offset`: a
 * session the range holds whole from its kept totals, one the range cuts from its batches in it.
 */
export async function sessionsQuery(store: Store, f: FleetFilter, limit: number, offset: number): Promise<SessionSummary[]> {
  const p = new Params();
  const from = p.add(f.fromMs);
  const to = p.add(f.toMs);
  const dims = dimensionWhere(f, p);
  const sql = `WITH per AS (
      SELECT s.session_id, s.max_received_ms AS last_received_ms, s.batches, s.max_seq, s.startup_ms,
        s.stall_count AS stalls, s.stall_ms, s.segments, s.ended
      FROM sessions s WHERE ${wholeIn(from, to)}${dims}
      UNION ALL
      SELECT s.session_id, max(b.received_ms), count(*), max(b.seq), min(b.startup_ms),
        sum(b.stall_count), sum(b.stall_ms), sum(b.segments), bool_or(b.final)
      FROM batches b JOIN sessions s ON s.session_id = b.session_id
      WHERE b.received_ms >= ${from} AND b.received_ms < ${to} AND ${cutBy(from, to)}${dims}
      GROUP BY s.session_id
    )
    SELECT s.session_id, s.target, s.player, s.stream, s.scheme, s.edge, s.first_received_ms, per.last_received_ms,
      per.batches, per.max_seq, per.startup_ms, per.stalls, per.stall_ms, per.segments, per.ended
    FROM per JOIN sessions s ON s.session_id = per.session_id
    ORDER BY per.last_received_ms DESC, s.session_id
    LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`;
  const rows = await store.all(sql, p.values);
  return rows.map((r) => ({
    session: String(r['session_id']),
    target: String(r['target']),
    player: String(r['player']),
    stream: String(r['stream']),
    scheme: String(r['scheme']),
    edge: String(r['edge']),
    firstReceivedMs: Number(r['first_received_ms']),
    lastReceivedMs: Number(r['last_received_ms']),
    batches: Number(r['batches']),
    missingBatches: Number(r['max_seq']) + 1 - Number(r['batches']),
    startupMs: r['startup_ms'] === null ? null : Number(r['startup_ms']),
    stalls: Number(r['stalls']),
    stallMs: Number(r['stall_ms']),
    segments: Number(r['segments']),
    ended: Boolean(r['ended']),
  }));
}

/** Distinct values of each dimension, for the dashboard's filter choices (at most `max` each). */
export async function dimensionsQuery(store: Store, max: number): Promise<Record<string, string[]>> {
  const dims = ['edge', 'scheme', 'player', 'stream'];
  const values = await Promise.all(dims.map((d) => store.all(`SELECT DISTINCT ${d} AS v FROM sessions ORDER BY v LIMIT $1`, [max])));
  return Object.fromEntries(dims.map((d, i) => [d, values[i]!.map((r) => String(r['v']))]));
}
