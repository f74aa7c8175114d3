import type { AdapterContext } from '../adapters/Adapter.js';
import { createEdgeLagEstimator } from './createEdgeLagEstimator.js';
import { parsePlaylistEdge, type PlaylistEdge } from './parsePlaylistEdge.js';

/** Lag this precise (ms, ±) replaces the player's own edge estimate. */
const LAG_USABLE_MS = 250;

export interface PlaylistLag {
  /** A media playlist the player (or a probe GET) read, with its request's client send/receive times. */
  loaded(edge: PlaylistEdge, sendMs: number, recvMs: number): void;
  /** A probe GET of the media playlist came back. */
  observe(sendMs: number, recvMs: number, body: string): void;
  /** Client time for the next probe GET that bisects the lag, or null if none is needed. */
  nextProbeAt(nowMs: number): number | null;
  manifestLag(): { ms: number; precisionMs: number } | null;
  /** trueLatency − L once L is known to ±LAG_USABLE_MS, else the player's own estimate (or null). */
  edgeDistance(trueLatency: number | null, playerOwn: number | null): number | null;
}

/**
 * The HLS manifest lag L (createEdgeLagEstimator) fed from the playlists a player loads, shared
 * by the hls.js and Shaka adapters: each fetch, timed on the synced clock, bounds how long after
 * production the newest segment was listed, and probe GETs timed for when the next segment
 * should appear bisect it.
 */
export function createPlaylistLag(ctx: AdapterContext): PlaylistLag {
  const lag = createEdgeLagEstimator();
  let newest: PlaylistEdge | null = null;
  const loaded = (edge: PlaylistEdge, send: number, recv: number) => {
    newest = edge;
    // The clock's own uncertainty widens each interval: L's bound holds whatever the true offset.
    const s = ctx.toServer(send, -1);
    const r = ctx.toServer(recv, 1);
    if (s !== null && r !== null) lag.add({ sendMs: s, recvMs: r, lastEndMs: edge.endMs, nextEndMs: edge.endMs + edge.segMs });
  };
  return {
    loaded,
    observe(send, recv, body) {
      const e = parsePlaylistEdge(body);
      if (e) loaded(e, send, recv);
    },
    nextProbeAt(now) {
      const e = lag.estimate();
      const s = ctx.toServer(now);
      // A GET can only narrow L to (its bound + the clock's + RTT/2) / 2: every interval is widened
      // by the clock's bound. It is spent while that cuts L's bound to at most 3/4 (as for a clock
      // GET) and L is over 20 ms; otherwise none is asked for, and the clock, L's floor, has the GET.
      // (Stopping at 20 ms only: with the clock at ±30 ms on a loaded page, L's GETs could never get
      // there and took every GET the clock had left, so the clock stayed at ±30 ms.)
      if (!e || !newest || s === null || e.precision <= Math.max(20, 2 * (ctx.toServer(now, 1)! - s) + ctx.rtt())) return null;
      // Have the request reach the server just as the next segment is predicted to appear.
      return lag.nextProbeAt(s + 20, newest.endMs, newest.segMs)! - (s - now) - ctx.rtt() / 2;
    },
    manifestLag() {
      const e = lag.estimate();
      return e && { ms: e.value, precisionMs: e.precision };
    },
    edgeDistance(trueLatency, playerOwn) {
      const e = lag.estimate();
      // The manifest's edge advancing continuously: production now − L. Until L is known, the
      // player's own estimate (hls.js: edge + time since *it* saw the playlist advance, off by
      // its polling phase).
      return trueLatency !== null && e && e.precision <= LAG_USABLE_MS ? trueLatency - e.value / 1000 : playerOwn;
    },
  };
}
