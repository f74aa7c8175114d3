/**
 * The X-Ethle-* response headers, in one table for every package that writes or reads them: the
 * live origin (production times), both edges (hold, session, cache result, stale, error) and the
 * QoE probe (hold). Lower case, as Node and fetch Headers hand them out.
 */
export const ETHLE_HEADERS = {
  /** x applied to a playlist / MPD response. */
  holdSegments: 'x-ethle-hold-segments',
  /** The latency the hold adds, seconds. */
  holdSeconds: 'x-ethle-hold-seconds',
  /** Low-latency streams held in parts (LL-HLS) or chunks (LL-DASH): how many. */
  holdParts: 'x-ethle-hold-parts',
  /**
   * An LL-HLS playlist held in whole segments: its low-latency features were removed, and players
   * fall back to standard latency — the seconds that adds (included in x-ethle-hold-seconds).
   */
  lowLatencyLost: 'x-ethle-low-latency-lost-seconds',
  /** The receiver session the edge used. */
  session: 'x-ethle-session',
  /**
   * A signed token of the receiver's session state (fleet handover): another edge of the fleet
   * that gets it back (`?ethle_session=`) goes on with the same group, x and request count.
   */
  sessionToken: 'x-ethle-session-token',
  /** hit | coalesced | miss (sw: from the worker's store). */
  cache: 'x-ethle-cache',
  /** Seconds since the last good origin version, when a stale one is served. */
  manifestStale: 'x-ethle-manifest-stale',
  /** The error code of an error response. */
  error: 'x-ethle-error',
  /** `parent` on the manifests of an edge that is another edge's origin (a tier that never holds). */
  role: 'x-ethle-role',
  /**
   * On a parent's manifests: its own backhaul RTT to its origin (ms, its upstream's included). An
   * edge behind it adds it to the RTT it measures to the parent: a segment the parent does not
   * have yet crosses both legs (one box's worker edges behind a loopback parent above all).
   */
  upstreamRtt: 'x-ethle-upstream-rtt-ms',
  /** When the segment's first frame was produced, and when it was complete (ISO 8601). */
  productionStart: 'x-ethle-production-start',
  productionEnd: 'x-ethle-production-end',
} as const;

/** Their names as a page may read them cross-origin (Access-Control-Expose-Headers). */
export const ETHLE_EXPOSED_HEADERS =
  'X-Ethle-Hold-Segments, X-Ethle-Hold-Seconds, X-Ethle-Hold-Parts, X-Ethle-Low-Latency-Lost-Seconds, X-Ethle-Session, X-Ethle-Session-Token, X-Ethle-Cache, X-Ethle-Manifest-Stale, X-Ethle-Error, X-Ethle-Production-Start, X-Ethle-Production-End';
