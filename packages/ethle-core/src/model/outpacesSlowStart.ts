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
 * gap a restarting origin's fetch is somewhat faster than slow start from scratch, while an origin
 * that kept its window delivers the head in about one round trip. The share must lie between the
 * two and below the fastest head a restarting origin gives: a restarting origin taken for warm
 * stalls receivers, a warm one taken for slow start only costs latency (OriginStartLearner).
 *
 * Measured on the accounted testbed at 224 ms (docs/experiments/outpace-224/, the command there):
 * BBR's heads after gaps under 2 s came in at a median 0.095 of slow start (at most 0.34); CUBIC's
 * after gaps of 4 s and more, its window halved down to the initial one, at a median 0.99 (at
 * least 0.41). CUBIC's after gaps under 2 s (one to three RTOs: halved, not reset) came in at a
 * median 0.19-0.20 and read warm, rightly: that window was open.
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
