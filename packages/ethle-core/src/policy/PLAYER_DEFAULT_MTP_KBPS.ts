/**
 * CMCD `mtp` values (kbit/s) players send before they have measured anything: their configured
 * starting estimate, not a measurement.
 * - hls.js (1.7.4): `abrEwmaDefaultEstimate: 5e5` bit/s, sent as `mtp=500` with every request
 *   until its estimator has a sample; samples come from media fragment loads (onFragBuffered,
 *   the abandon rule), not from playlists or the init segment.
 * dash.js (5.2.1) is not listed: it leaves `mtp` out until it has a throughput sample
 * (getSafeAverageThroughput is NaN before).
 */
export const PLAYER_DEFAULT_MTP_KBPS: readonly number[] = [500];
