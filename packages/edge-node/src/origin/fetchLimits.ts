import { timerMs } from '@ethle/core';

/** A fetch that receives no byte for this many of its segment's durations is stalled. */
export const IDLE_SEGMENTS = 2;

/**
 * The outer bound on a whole fetch, in its segment's durations: generous on purpose. A fetch that
 * is still receiving is worth more than a new one — cutting it cuts every receiver reading it,
 * and its bytes cross the backhaul again — so progress is judged by the idle timeout and the rate
 * rule (FetchPace); this only ends a fetch nothing else ended.
 */
export const DEADLINE_SEGMENTS = 15;

/** An object no window lists (no duration to scale by) may take this long in all. */
export const UNPLANNED_DEADLINE_MS = 60_000;

/**
 * How one origin fetch is bounded, in ms of its running time (its waits on the edge itself do
 * not count: FetchSignal.pauseDeadline). What production proxies do: an idle timeout (nginx
 * `proxy_read_timeout`, Varnish `between_bytes_timeout`) and a minimum rate (Apache
 * `mod_reqtimeout` MinRate), with the whole-object deadline only as an outer bound.
 */
export interface FetchLimits {
  /**
   * No byte for this long ends the fetch (reason `idle`); the window its recent rate is measured
   * over (reason `slow`: at that rate, the rest of the object would not arrive within deadlineMs).
   */
  idleMs: number;
  /** The whole fetch ends here at the latest (reason `deadline`). */
  deadlineMs: number;
}

/**
 * The limits of one origin fetch of a segment (or part) of `durationSeconds` — undefined for an
 * object no window lists — as whole numbers of ms a timer accepts: IDLE_SEGMENTS and
 * DEADLINE_SEGMENTS durations, each at least `minMs` (the origin's headers timeout: a short part
 * still gets a round trip and a slow start; a preload-hinted part waits for its production).
 * undici's body timeout is an idle timer that stops while the body is not read; these bound the
 * fetch as a whole too, against an origin trickling 1 KB/s. Durations come from origins in any
 * precision (15 × 4.004 s, 2 × 4.00008 s): timerMs rounds up, and throws on NaN (a caller's bug).
 */
export function fetchLimits(durationSeconds: number | undefined, minMs: number): FetchLimits {
  if (durationSeconds === undefined) return { idleMs: timerMs(minMs), deadlineMs: timerMs(Math.max(minMs, UNPLANNED_DEADLINE_MS)) };
  const ms = durationSeconds * 1000;
  return { idleMs: timerMs(Math.max(minMs, IDLE_SEGMENTS * ms)), deadlineMs: timerMs(Math.max(minMs, DEADLINE_SEGMENTS * ms)) };
}
