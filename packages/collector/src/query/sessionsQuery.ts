import type { Store } from '../store/Store.js';
import { dimensionWhere, Params, type FleetFilter } from './FleetFilter.js';

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

/** The newest sessions (by their last batch) in the range and filter, `limit` from `offset`. */
export async function sessionsQuery(store: Store, f: FleetFilter, limit: number, offset: number): Promise<SessionSummary[]> {
  const p = new Params();
  const sql = `SELECT s.session_id, s.target, s.player, s.stream, s.scheme, s.edge, s.first_received_ms,
      max(b.received_ms) AS last_received_ms, count(*) AS batches, max(b.seq) AS max_seq, min(b.startup_ms) AS startup_ms,
      sum(b.stall_count) AS stalls, sum(b.stall_ms) AS stall_ms, sum(b.segments) AS segments, bool_or(b.final) AS ended
    FROM batches b JOIN sessions s ON s.session_id = b.session_id
    WHERE b.received_ms >= ${p.add(f.fromMs)} AND b.received_ms < ${p.add(f.toMs)}${dimensionWhere(f, p)}
    GROUP BY s.session_id, s.target, s.player, s.stream, s.scheme, s.edge, s.first_received_ms
    ORDER BY last_received_ms DESC, s.session_id
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
