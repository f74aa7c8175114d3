/**
 * Catalogue of the edge's error codes. Each maps to one HTTP status for receivers and one metric
 * outcome label, so nothing downstream parses messages.
 */
export type EdgeErrorCode =
  /** The edge configuration is invalid (the message says which option and why). */
  | 'ERR_EDGE_CONFIG_INVALID'
  /** A config file cannot be read or is not JSON. */
  | 'ERR_EDGE_CONFIG_FILE'
  /** The origin did not answer (headers or body) within the configured timeout. */
  | 'ERR_EDGE_ORIGIN_TIMEOUT'
  /** The origin answered with a status other than 200 (404, 410, 5xx, …). */
  | 'ERR_EDGE_ORIGIN_STATUS'
  /** The origin's body ended before its Content-Length, or the connection reset mid-body. */
  | 'ERR_EDGE_ORIGIN_TRUNCATED'
  /** The origin could not be reached (refused, DNS, reset before headers). */
  | 'ERR_EDGE_ORIGIN_UNREACHABLE'
  /** The origin's manifest cannot be parsed or held by the core. */
  | 'ERR_EDGE_MANIFEST_UNPARSABLE'
  /** The origin response is larger than the edge accepts for its kind (e.g. a 100 MB manifest). */
  | 'ERR_EDGE_ORIGIN_TOO_LARGE'
  /** The origin redirected to another host (the edge fetches only from configured origins). */
  | 'ERR_EDGE_ORIGIN_REDIRECT'
  /** Parallel byte ranges of one object came from different versions of it (validators differ). */
  | 'ERR_EDGE_ORIGIN_INCONSISTENT'
  /** The fetch was cancelled: nobody waits for it any more (the receiver left, the stream ended). */
  | 'ERR_EDGE_CANCELLED'
  /** A prefetch did not fit the cache without evicting segments receivers still need. */
  | 'ERR_EDGE_CACHE_FULL'
  /** Too much queued at the edge (origin fetch queue, streams, sessions): try again later. */
  | 'ERR_EDGE_OVERLOADED'
  /** An LL-HLS blocking reload asked for more than RFC 8216bis §6.2.5.2 allows (bad directive, too far ahead): 400. */
  | 'ERR_EDGE_BLOCKING_BAD_REQUEST'
  /** An LL-HLS blocking reload was not satisfied within 3 target durations (§6.2.5.2): 503. */
  | 'ERR_EDGE_BLOCKING_TIMEOUT'
  /** A stream already has maxBlockedPerStream blocking reloads parked: 503. */
  | 'ERR_EDGE_BLOCKED_FULL'
  /** `/_ethle/timeline?stream=` names a stream that has not been played through this edge: 404. */
  | 'ERR_EDGE_TIMELINE_UNKNOWN_STREAM'
  /** The edge was closed while the operation was pending. */
  | 'ERR_EDGE_CLOSED'
  /**
   * A bug in the edge, caught at the boundary of one request or one origin fetch: that request
   * answers 500 (or its transfer is cut) and that fetch fails; logged with its stack and counted
   * (ethle_internal_errors_total), never the end of the process.
   */
  | 'ERR_EDGE_INTERNAL';
