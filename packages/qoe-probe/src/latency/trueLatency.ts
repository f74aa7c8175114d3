/**
 * True live latency: the server-synced wall clock minus the production time of the frame on
 * screen, in seconds. Pure arithmetic, kept apart so the conventions are tested once.
 */

/** HLS: the playing frame's program date-time (ms) is its production time. */
export function hlsTrueLatency(serverNowMs: number, playingDateMs: number): number {
  return (serverNowMs - playingDateMs) / 1000;
}

/** HLS without hls.playingDate: program date-time of the playing fragment plus the offset into it. */
export function programDateTimeAt(currentTime: number, fragStart: number, fragProgramDateTimeMs: number): number {
  return fragProgramDateTimeMs + (currentTime - fragStart) * 1000;
}

/**
 * DASH: dash.js maps the playhead to wall time through the MPD's availabilityStartTime
 * (`timeAsUTC()`, s). An ETHLE edge shifts that AST later by the hold it declares
 * (X-Ethle-Hold-Seconds), so the frame was produced `holdSeconds` earlier than dash.js thinks.
 */
export function dashTrueLatency(serverNowMs: number, playheadUtcS: number, holdSeconds: number): number {
  return (serverNowMs - playheadUtcS * 1000) / 1000 + holdSeconds;
}
