/**
 * CMCD `mtp` values (kbit/s) players send before they have measured anything: their configured
 * starting estimate, not a measurement.
 * - hls.js (1.7.4, `node_modules/hls.js`): `abrEwmaDefaultEstimate: 5e5` bit/s, sent as
 *   `mtp=500` with every request until its first media segment has been sampled (the init
 *   segment and playlists are not sampled).
 */
export const PLAYER_DEFAULT_MTP_KBPS: readonly number[] = [500];
