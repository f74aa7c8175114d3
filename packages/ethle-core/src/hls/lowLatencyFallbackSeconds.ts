import type { HlsMediaPlaylist } from './HlsMediaPlaylist.js';

/**
 * How much further behind live a player sits once a playlist's LL-HLS is stripped (held in whole
 * segments: holdMediaPlaylist `lowLatency: 'strip'`). In low-latency mode a player starts
 * PART-HOLD-BACK from the playlist's end; without parts it starts HOLD-BACK from it, at least 3
 * target durations (RFC 8216bis §4.4.3.8; 3 × target duration when absent). Without
 * PART-HOLD-BACK (which EXT-X-PART-INF requires) the spec's SHOULD, 3 × PART-TARGET — what a part
 * hold writes. 0 for a playlist without parts: nothing is lost.
 */
export function lowLatencyFallbackSeconds(p: HlsMediaPlaylist): number {
  if (p.partTarget === undefined) return 0;
  const holdBack = p.serverControl?.holdBack ?? 3 * p.targetDuration;
  const partHoldBack = p.serverControl?.partHoldBack ?? 3 * p.partTarget;
  return Math.max(0, holdBack - partHoldBack);
}
