import type { EdgeFactRow } from '../beacon/parseEdgeReport.js';
import type { SegmentRow } from '../beacon/ValidBatch.js';
import type { Store } from '../store/Store.js';

export interface SessionDetail {
  session: string;
  target: string;
  player: string;
  stream: string;
  scheme: string;
  edge: string;
  meta: Record<string, string>;
  firstReceivedMs: number;
  batches: { seq: number; receivedMs: number; sentMs: number; events: number; final: boolean }[];
  /** Every event in time order (the newest `limit` when there are more), data parsed. */
  events: { seq: number; type: string; atMs: number; data: unknown }[];
  eventsTruncated: boolean;
  latency: { atMs: number; trueLatencyS: number | null; edgeDistanceS: number | null; holdS: number }[];
  stalls: { startMs: number; endMs: number; durationMs: number; interruptedBy: string | null }[];
  segments: Pick<
    SegmentRow,
    'kind' | 'url' | 'track' | 'requestMs' | 'firstByteMs' | 'lastByteMs' | 'bytes' | 'throughputBps' | 'connection'
  >[];
  /** The probe's final report, when its last batch arrived. */
  report: unknown;
  /**
   * What the edges it played through did for it (their reports, joined by the CMCD sid = this
   * session id): per edge and stream the newest report — x held, policy group, a redirect to the
   * origin, manifests served, segment requests by cache result.
   */
  edges: Omit<EdgeFactRow, 'session'>[];
}

/** One session's timeline: its batches, events, latency samples, stalls and segments. Null: unknown session. */
export async function sessionQuery(store: Store, session: string, limit: number): Promise<SessionDetail | null> {
  const [s] = await store.all('SELECT * FROM sessions WHERE session_id = $1', [session]);
  if (s === undefined) return null;
  const batches = await store.all('SELECT seq, received_ms, sent_ms, events, final FROM batches WHERE session_id = $1 ORDER BY seq', [
    session,
  ]);
  // The newest `limit` of each list, returned oldest first.
  const newest = (table: string, cols: string, order: string) =>
    store.all(`SELECT * FROM (SELECT ${cols} FROM ${table} WHERE session_id = $1 ORDER BY ${order} DESC LIMIT $2) t ORDER BY ${order}`, [
      session,
      limit + 1,
    ]);
  const events = await newest('events', 'seq, idx, type, at_ms, data', 'at_ms');
  const latency = await newest('latency', 'at_ms, true_latency_s, edge_distance_s, hold_s', 'at_ms');
  const stalls = await newest('stalls', 'start_ms, end_ms, duration_ms, interrupted_by', 'start_ms');
  const segments = await newest(
    'segments',
    'kind, url, track, request_ms, first_byte_ms, last_byte_ms, bytes, throughput_bps, connection',
    'request_ms',
  );
  const [report] = await store.all('SELECT report FROM reports WHERE session_id = $1 ORDER BY seq DESC LIMIT 1', [session]);
  const edgeRows = await store.all('SELECT * FROM edge_sessions WHERE session_id = $1 ORDER BY received_ms', [session]);
  const newestPerEdge = new Map<string, (typeof edgeRows)[number]>();
  for (const r of edgeRows) newestPerEdge.set(`${String(r['edge'])}\u0000${String(r['stream'])}`, r);
  const trim = <T>(xs: T[]) => (xs.length > limit ? xs.slice(xs.length - limit) : xs);
  return {
    session,
    target: String(s['target']),
    player: String(s['player']),
    stream: String(s['stream']),
    scheme: String(s['scheme']),
    edge: String(s['edge']),
    meta: JSON.parse(String(s['meta'])) as Record<string, string>,
    firstReceivedMs: Number(s['first_received_ms']),
    batches: batches.map((b) => ({
      seq: Number(b['seq']),
      receivedMs: Number(b['received_ms']),
      sentMs: Number(b['sent_ms']),
      events: Number(b['events']),
      final: Boolean(b['final']),
    })),
    events: trim(events).map((e) => ({
      seq: Number(e['seq']),
      type: String(e['type']),
      atMs: Number(e['at_ms']),
      data: JSON.parse(String(e['data'])) as unknown,
    })),
    eventsTruncated: events.length > limit,
    latency: trim(latency).map((l) => ({
      atMs: Number(l['at_ms']),
      trueLatencyS: l['true_latency_s'] === null ? null : Number(l['true_latency_s']),
      edgeDistanceS: l['edge_distance_s'] === null ? null : Number(l['edge_distance_s']),
      holdS: Number(l['hold_s']),
    })),
    stalls: trim(stalls).map((x) => ({
      startMs: Number(x['start_ms']),
      endMs: Number(x['end_ms']),
      durationMs: Number(x['duration_ms']),
      interruptedBy: x['interrupted_by'] === null ? null : String(x['interrupted_by']),
    })),
    segments: trim(segments).map((x) => ({
      kind: String(x['kind']),
      url: String(x['url']),
      track: String(x['track']),
      requestMs: Number(x['request_ms']),
      firstByteMs: Number(x['first_byte_ms']),
      lastByteMs: Number(x['last_byte_ms']),
      bytes: Number(x['bytes']),
      throughputBps: Number(x['throughput_bps']),
      connection: x['connection'] === null ? null : String(x['connection']),
    })),
    report: report === undefined ? null : (JSON.parse(String(report['report'])) as unknown),
    edges: [...newestPerEdge.values()].map((r) => ({
      edge: String(r['edge']),
      stream: String(r['stream']),
      receivedMs: Number(r['received_ms']),
      hold: Number(r['hold']),
      group: r['policy_group'] === null ? null : String(r['policy_group']),
      redirectLocation: r['redirect_location'] === null ? null : String(r['redirect_location']),
      manifests: Number(r['manifests']),
      hits: Number(r['hits']),
      coalesced: Number(r['coalesced']),
      misses: Number(r['misses']),
      firstAtMs: Number(r['first_at_ms']),
      lastAtMs: Number(r['last_at_ms']),
    })),
  };
}
