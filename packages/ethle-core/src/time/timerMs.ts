import { EthleError } from '../errors/EthleError.js';

/**
 * The longest delay a timer honours: 2^31 − 1 ms (about 24.8 days). Node's and browsers'
 * setTimeout() fire *at once* above it (Node says so in a warning), so a longer duration must be
 * capped, never passed on.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Float noise a product of seconds × 1000 picks up (4 × 4.004 × 1000 = 16016.000000000002): far
 * below a millisecond, and not a reason to round up by one.
 */
const NOISE_MS = 1e-6;

/**
 * A duration in milliseconds as every timer, deadline and timeout of the toolkit takes it: a whole
 * number, rounded up (a deadline is never shortened by rounding), within [0, MAX_TIMER_MS].
 *
 * Durations come from origins in any precision — `#EXTINF:4.004` (29.97 fps in 4 s segments),
 * 3.6036, LL-HLS parts of 1.00002 s, DASH `timescale=90000 duration=360360` — and
 * `AbortSignal.timeout()` throws on a fraction, while `setTimeout()` fires at once past the cap.
 * So each duration on its way to a timer goes through here: 16016.000000000002 → 16016,
 * 16000.32 → 16001, 1e12 → MAX_TIMER_MS, −5 → 0. NaN is a bug upstream (a missing field): it
 * throws ERR_TIMER_INVALID rather than become a timer that fires at once or never.
 */
export function timerMs(ms: number): number {
  if (Number.isNaN(ms)) throw new EthleError('ERR_TIMER_INVALID', 'a timer duration is NaN', { ms });
  if (!(ms > 0)) return 0;
  if (ms >= MAX_TIMER_MS) return MAX_TIMER_MS;
  return Math.ceil(ms - NOISE_MS);
}

/** `seconds` (as a manifest states them) as timer milliseconds: `timerMs(seconds × 1000)`. */
export function secondsToTimerMs(seconds: number): number {
  return timerMs(seconds * 1000);
}
