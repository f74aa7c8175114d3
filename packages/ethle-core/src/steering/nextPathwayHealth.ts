/** A pathway's health as the steering service tracks it across probes. */
export interface PathwayHealth {
  ready: boolean;
  /** Consecutive successful probes. */
  okStreak: number;
}

/**
 * One probe's result applied to a pathway's health. A failed probe takes it out at once (its
 * players must fail over within a steering TTL); a recovered one comes back only after
 * `riseAfter` successes in a row, so an edge that restarts, or answers every other probe, does
 * not pull players back and forth.
 */
export function nextPathwayHealth(h: PathwayHealth, probeOk: boolean, riseAfter: number): PathwayHealth {
  if (!probeOk) return { ready: false, okStreak: 0 };
  const okStreak = Math.min(h.okStreak + 1, riseAfter);
  return { ready: h.ready || okStreak >= riseAfter, okStreak };
}
