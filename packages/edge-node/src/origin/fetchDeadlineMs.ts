import { timerMs } from '@ethle/core';

/** A segment fetch must end within this many of its segment's durations. */
export const DEADLINE_SEGMENTS = 4;

/**
 * How long one origin fetch of a segment (or part) of `durationSeconds` may take, as a whole
 * number of ms a timer accepts: DEADLINE_SEGMENTS durations, at least `minMs` (the origin's
 * headers timeout: a short part still gets a round trip and a slow start). undici's body timeout
 * is an idle timer, and an origin trickling 1 KB/s never trips it; this bounds the whole fetch.
 * Durations come from origins in any precision (4 × 4.004 s, 4 × 4.00008 s): timerMs rounds up.
 */
export function fetchDeadlineMs(durationSeconds: number, minMs: number): number {
  return timerMs(Math.max(minMs, DEADLINE_SEGMENTS * durationSeconds * 1000));
}
