/**
 * hls.js 1.7.4 `computeReloadInterval` (utils/level-helper.ts): a live playlist is reloaded one
 * target duration after a load that changed it — or the last segment's duration, when shorter and
 * the playhead is within 4 target durations of the edge — and half a target duration after a load
 * that found it unchanged (RFC 8216 §6.3.4). ms.
 */
export function hlsReloadInterval(p: {
  targetDuration: number;
  lastSegmentDuration: number;
  updated: boolean;
  distanceToLiveEdgeMs: number;
}): number {
  let interval = 1000 * p.targetDuration;
  if (!p.updated) return Math.round(interval / 2);
  const last = p.lastSegmentDuration * 1000;
  if (interval * 4 > p.distanceToLiveEdgeMs && last > 0 && last < interval) interval = last;
  return Math.round(interval);
}

/**
 * hls.js `BasePlaylistController.playlistLoaded`: the next reload is scheduled from the previous
 * schedule, not from now (so a slow load does not push the cadence back), unless that is already
 * in the past. Returns the new `requestScheduled`, ms (same clock as `nowMs`).
 */
export function hlsNextReload(requestScheduled: number, intervalMs: number, nowMs: number): number {
  if (requestScheduled + intervalMs < nowMs) return nowMs;
  if (requestScheduled <= nowMs) return requestScheduled + intervalMs;
  return requestScheduled;
}
