/**
 * Catalogue of the core's error codes. Add a code here (with a line saying when it is thrown)
 * rather than inventing strings at throw sites.
 */
export type EthleErrorCode =
  /** A model or policy input is missing, not finite, negative, or absurd (e.g. RTT of a day). */
  | 'ERR_MODEL_INVALID_INPUT'
  /** The text is not an HLS playlist (no #EXTM3U header). */
  | 'ERR_HLS_NOT_A_PLAYLIST'
  /** A playlist tag or attribute list cannot be parsed, or the playlist is internally inconsistent. */
  | 'ERR_HLS_MALFORMED'
  /** Options to an HLS rewrite or plan are invalid (hold not an integer 0…100, holdParts 0…1000 or with hold > 0 or strip, route not a function, history not from createHlsHistory, planBlockingReload positions not integers ≥ 0, skip not YES/v2). */
  | 'ERR_HLS_INVALID_OPTIONS'
  /** The text is not a DASH MPD (no MPD root element). */
  | 'ERR_DASH_NOT_AN_MPD'
  /** The MPD is not well-formed XML, is truncated, or has inconsistent timing. */
  | 'ERR_DASH_MALFORMED'
  /** holdMpd options are out of range (hold not an integer in [0, 100], r=-1 timeline without nowMs). */
  | 'ERR_DASH_INVALID_OPTIONS'
  /** Planner inputs are inconsistent (e.g. negative sequence numbers, x out of range). */
  | 'ERR_PLANNER_INVALID_INPUT'
  /** A URL to route through the edge cannot be resolved against its base. */
  | 'ERR_URL_INVALID'
  /** A manifest is neither an HLS playlist nor a DASH MPD. */
  | 'ERR_MANIFEST_UNKNOWN'
  /** Content steering input is invalid (pathway id, TTL, unknown base pathway). */
  | 'ERR_STEERING_INVALID'
  /** Session claims cannot be put in a token (sid not visible ASCII, x out of range, token too long). */
  | 'ERR_SESSION_TOKEN_INVALID'
  /** A duration on its way to a timer is NaN (timerMs): a missing or unparsed field upstream. */
  | 'ERR_TIMER_INVALID';
