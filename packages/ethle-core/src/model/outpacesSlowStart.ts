import { slowStartDeliverySeconds } from './slowStartDeliverySeconds.js';
import { TCP_DEFAULTS } from './TCP_DEFAULTS.js';
import { LIMITS, requireRange } from './validate.js';

export interface OutpaceInput {
  /** Bytes the fetch delivered. */
  bytes: number;
  /** From sending the request to the last byte, seconds (one request round trip included). */
  seconds: number;
  /** The path's round-trip time, seconds. */
  rttSeconds: number;
  /** Initial congestion window in MSS (default 10). */
  initialWindowSegments?: number;
  mssBytes?: number;
}

/**
 * A fetch beats slow start when its transfer took less than this share of what slow start from
 * the initial window needs. Not "any faster": Linux does not reset an idle CUBIC or Reno window
 * to the initial one but halves it per RTO of idle (tcp_cwnd_restart, RFC 2861), so after a short
 * gap a restarting origin's fetch is somewhat faster than slow start from scratch. Measured at
 * 224 ms (docs/experiments.md, "A CUBIC origin"), the edge's 1 MiB heads after the request's
 * round trip: a CUBIC origin 0.46–1.8 s (0.33–1.3 of slow start's 1.39 s; a share of 0.8 took
 * 16 of 35 for warm), a BBR origin 0.03–0.08 s (under 0.06). A quarter lies between, nearer the
 * CUBIC side, and anything it misjudges there is judged slow start, the safe mistake.
 */
export const OUTPACE_SHARE = 0.25;

/**
 * Whether a fetch delivered its bytes faster than TCP slow start from the initial window can
 * (doubling per RTT is the fastest any standard sender grows, slowStartDeliverySeconds): then
 * its window was already open when the request arrived. After an idle gap longer than the RTO,
 * that tells how the origin treats idle connections: it kept the window (BBR, or
 * `tcp_slow_start_after_idle` = 0) — the model's 'warm' segment start. The converse is weaker: a
 * fetch that did not outpace slow start may have been slow for other reasons (a busy path).
 */
export function outpacesSlowStart(input: OutpaceInput): boolean {
  const bytes = requireRange('bytes', input.bytes, 0, LIMITS.maxBytes, true);
  const seconds = requireRange('seconds', input.seconds, 0, Number.POSITIVE_INFINITY);
  const rtt = requireRange('rttSeconds', input.rttSeconds, 0, LIMITS.maxRttSeconds, true);
  const slowStart = slowStartDeliverySeconds({
    bytes,
    rttSeconds: rtt,
    initialWindowSegments: input.initialWindowSegments ?? TCP_DEFAULTS.initialWindowSegments,
    mssBytes: input.mssBytes ?? TCP_DEFAULTS.mssBytes,
  });
  return seconds - rtt < OUTPACE_SHARE * slowStart;
}
