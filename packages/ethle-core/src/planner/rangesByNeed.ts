/**
 * How many parallel byte ranges a fetch of a segment players already see takes, by its place in
 * the order they need them: `rank` 0 is the outstanding visible segment a player asks for first
 * (the lowest id not yet local: at a cold start, where hls.js starts), 1 the next, and so on.
 * `maxSplit` is the operator's ranges per segment fetch (the edge's maxHold); below 2 nothing is
 * split.
 *
 * Why not `maxSplit` each, as before (issue 38): a start fetches x + 1 visible segments at once,
 * and behind a CUBIC origin at 224 ms their flows share what the backhaul gives a start, so the
 * segment needed first arrived no sooner than the ones needed seconds later (50M-2s: asked with
 * 1.4 of 12.2 MB at the edge while the next two were complete). Fetching them one at a time was
 * measured and reverted: one segment's flows over a long RTT carry about the stream's own rate, so
 * the edge never gains its lead. Here every visible segment still starts at once (their slow
 * starts overlap, the aggregate stays that of many flows), but the first needed takes twice
 * `maxSplit` ranges — the larger share of a shared bottleneck (at x = 2, 8 of 14 flows where it
 * had 4 of 12), half the bytes per flow, a slow start one round trip shorter — and each later one half the one before it, never more than `maxSplit`
 * and never fewer than 2 (one fresh flow over a long backhaul is what made a start segment stall
 * before 0e27617). With `maxSplit` 4: 8, 4, 2, 2, …
 *
 * Bound (m = maxSplit ≥ 2): one fetch at most 2m ranges; n segments ranked together at most
 * 2m + (n − 1) · m = (n + 1) · m, one segment's worth more than n · m. A segment ranked first
 * after others started (x rose mid-start) takes 2m beside theirs: still at most 2m per fetch of
 * the planner's bounded fetches.
 */
export function rangesByNeed(rank: number, maxSplit: number): number {
  if (maxSplit < 2) return 1;
  if (rank <= 0) return 2 * maxSplit;
  return Math.max(2, Math.min(maxSplit, Math.floor((2 * maxSplit) / 2 ** Math.min(rank, 30))));
}
