/**
 * Where hls.js starts a live stream (hls.js 1.7.4 `LatencyController.liveSyncPosition`):
 * `edge + age − liveSyncDurationCount × targetduration`, kept within
 * [edge − totalduration, edge − targetduration]. `edge` is the end of the playlist's last segment
 * and `age` the time since that playlist was loaded (`LevelDetails.age`, from `advancedDateTime`)
 * — so the start is relative to when the player *saw* the edge, not to when it was produced.
 * (`edgeStalled` only matters once a playlist is 3 target durations old; at start it is 0.)
 */
export function hlsLiveSyncPosition(p: {
  edge: number;
  totalDuration: number;
  targetDuration: number;
  ageSeconds: number;
  liveSyncDurationCount: number;
}): number {
  const sync = p.edge + p.ageSeconds - p.liveSyncDurationCount * p.targetDuration;
  const min = p.edge - p.totalDuration;
  const max = p.edge - p.targetDuration;
  return Math.min(Math.max(min, sync), max);
}
