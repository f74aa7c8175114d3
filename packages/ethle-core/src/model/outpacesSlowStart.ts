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
 * The value awaits measurement. The CUBIC head timings it was chosen from were taken on a testbed
 * that silently dropped 2-4 % of the backhaul's packets (issue 35), so they timed those losses,
 * not CUBIC. What it rests on until then: the argument above, and a lower bound from BBR heads
 * (taken on that testbed too; BBR does not halve its window on a loss): 1 MiB at 224 ms in
 * 0.03-0.08 s after the request's RTT, where a quarter of slow start is 0.35 s. Nothing measured
 * bounds it from above: if a restarting CUBIC origin's heads come in under a quarter of slow
 * start, the learner reads those fetches as warm, the mistake that stalls receivers. To re-measure
 * on the fixed testbed:
 *   EXP_EDGE_LOG=1 npm run experiment -- --receiver virtual --rtt 224 --cc cubic \
 *     --stream 15M-2s,50M-2s --scheme auto-learn --repeats 3 --duration 120 --out results/outpace-cubic
 * and the same with `--cc bbr --out results/outpace-bbr`; then compare the `idle fetch` lines'
 * headMs in each ID.edge.log, less one RTT, with slow start's time for headBytes
 * (slowStartDeliverySeconds): the share belongs in the gap between the two origins' heads.
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
