/**
 * How far ahead the experiment's player may buffer, so that a stream's segments fit Chromium's
 * Media Source quota.
 *
 * Chromium refuses an append (`QuotaExceededError`, hls.js `bufferFullError`) once a video
 * SourceBuffer would hold more than 150 MiB it cannot evict, and it can evict only what has been
 * played. hls.js buffers up to 30 s ahead by default; with the paper's 50M-10s stream (61.1 MB
 * segments) that is 3 segments plus the one playing, 244 MB. hls.js then drops the refused
 * segment, shrinks its buffer target and fetches the segment again: stalls that measure the
 * browser's memory limit, not the network (our first Japan runs of 50M-10s all had them).
 *
 * At an append the buffer holds at most `n` unplayed segments (the playing one included) when the
 * target is `n` segments ahead, plus the one being appended: (n + 1) × segment size must fit.
 * The limit is the player's, not the scheme's, so every scheme of a cell gets the same one.
 */
export const CHROMIUM_VIDEO_QUOTA_BYTES = 150 * 1024 * 1024;
/** hls.js's `maxBufferLength` default, s. */
export const HLS_DEFAULT_BUFFER_S = 30;

/** Seconds of media the player may buffer ahead for segments of this size and length. */
export function forwardBufferSeconds(segmentBytes: number, segmentSeconds: number, quotaBytes = CHROMIUM_VIDEO_QUOTA_BYTES): number {
  const n = Math.max(1, Math.floor(quotaBytes / segmentBytes) - 1);
  return Math.min(HLS_DEFAULT_BUFFER_S, n * segmentSeconds);
}

/**
 * Player settings for that limit: hls.js config, or dash.js `updateSettings` input. Empty when the
 * player's default already fits, so ordinary streams run with the players' own defaults.
 */
export function playerBufferConfig(player: 'hls' | 'dash', segmentBytes: number, segmentSeconds: number): Record<string, unknown> {
  const s = forwardBufferSeconds(segmentBytes, segmentSeconds);
  if (s >= HLS_DEFAULT_BUFFER_S) return {};
  // maxMaxBufferLength too: hls.js grows its target back towards it after a bufferFullError.
  if (player === 'hls') return { maxBufferLength: s, maxMaxBufferLength: s };
  return { streaming: { buffer: { bufferTimeAtTopQuality: s, bufferTimeAtTopQualityLongForm: s, stableBufferTime: s } } };
}
