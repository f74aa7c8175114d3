import { createIntervalIntersection } from '../clock/createIntervalIntersection.js';

/**
 * How long after a segment's production ended the manifest starts listing it — the "edge lag" L,
 * in ms of server time, pure. ≈ 0 at an origin that publishes each segment when it is complete;
 * the hold (plus the edge's own polling delay) behind an ETHLE edge.
 *
 * A manifest served at server time g (known to lie in [send, recv], server-synced) whose newest
 * segment k ends at production time end(k) says end(k) + L ≤ g (k is listed) and
 * end(k+1) + L > g (k+1 is not yet), so L ∈ (send − end(k+1), recv − end(k)]. Intervals from
 * several fetches are intersected; fetches timed by nextProbeAt() bisect it.
 * Distance to the live edge of the manifest, advancing continuously, is then trueLatency − L.
 */
export interface EdgeObservation {
  /** Server time the request was sent / the response arrived, ms. */
  sendMs: number;
  recvMs: number;
  /** Production end of the newest listed segment (its program date-time + duration), ms. */
  lastEndMs: number;
  /** Production end of the segment after it (lastEnd + its expected duration), ms. */
  nextEndMs: number;
}

export interface EdgeLagEstimator {
  add(o: EdgeObservation): void;
  /** { value: L ms, precision: ± ms } or null. */
  estimate(): { value: number; precision: number; samples: number } | null;
  /**
   * Server time (≥ nowMs) to fetch the manifest so that the next segment is predicted to appear
   * at the midpoint of the lag interval while the request is in flight. segEndMs: the production
   * end of some segment; segMs: segment duration.
   */
  nextProbeAt(nowMs: number, segEndMs: number, segMs: number): number | null;
}

export function createEdgeLagEstimator(maxSamples = 24): EdgeLagEstimator {
  const core = createIntervalIntersection(maxSamples);
  return {
    add({ sendMs, recvMs, lastEndMs, nextEndMs }) {
      if ([sendMs, recvMs, lastEndMs, nextEndMs].every(Number.isFinite) && recvMs >= sendMs && nextEndMs > lastEndMs)
        core.add(sendMs - nextEndMs, recvMs - lastEndMs);
    },
    estimate: core.estimate,
    nextProbeAt(nowMs, segEndMs, segMs) {
      const e = core.estimate();
      if (!e || !(segMs > 0)) return null;
      // Segments appear at segEnd + j·segMs + L; take the first such instant after now.
      const first = segEndMs + e.value;
      return first + Math.max(0, Math.ceil((nowMs - first) / segMs)) * segMs;
    },
  };
}
