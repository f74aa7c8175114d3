/** One Period of a live MPD and the available segments it lists. */
export interface MpdPeriodSpan {
  /** Period number p (id `p{p}`); 0 for the single Period. */
  index: number;
  /** Period@start, seconds since availabilityStartTime. */
  startSeconds: number;
  /** The Period's first segment number (its media begins there). */
  periodFirst: number;
  /** Available segments in the window that fall in this Period. */
  first: number;
  last: number;
}

/**
 * Splits the window's segments [first, last] of an L-second stream into Periods of
 * `periodSeconds` (a multiple of L), oldest first; only Periods with an available segment are
 * listed, so none has an empty timeline. Without `periodSeconds`, one Period from T0.
 */
export function mpdPeriods(first: number, last: number, L: number, periodSeconds?: number): MpdPeriodSpan[] {
  if (periodSeconds === undefined) return [{ index: 0, startSeconds: 0, periodFirst: 0, first, last }];
  const per = periodSeconds / L;
  const out: MpdPeriodSpan[] = [];
  for (let p = Math.floor(first / per); p <= Math.floor(last / per); p++) {
    out.push({
      index: p,
      startSeconds: p * periodSeconds,
      periodFirst: p * per,
      first: Math.max(first, p * per),
      last: Math.min(last, (p + 1) * per - 1),
    });
  }
  return out;
}
