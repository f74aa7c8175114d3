import type { SegmentStart } from '../model/modelHold.js';
import { outpacesSlowStart } from '../model/outpacesSlowStart.js';
import { LIMITS, requireRange } from '../model/validate.js';

/** One segment fetch on a connection that had carried a segment before (not cold). */
export interface IdleFetch {
  /**
   * The bytes timed: the head of the object (the Node edge: 1 MiB, or half a smaller segment).
   * A window's opening shows there; a large object's whole runs at the bottleneck either way.
   */
  bytes: number;
  /** From sending the request to the last of `bytes`, ms. */
  totalMs: number;
  /** How long the connection had been idle before the request, ms. */
  idleMs: number;
  /** The backhaul RTT, ms. */
  rttMs: number;
  /** The backhaul's initial congestion window, MSS. */
  initialWindow: number;
}

/**
 * What one fetch said: the window was open ('warm'), it was not ('slow-start'), no idle gap to
 * tell ('not-idle'), or a backhaul too short for the start to matter or to be timed ('near').
 */
export type IdleFetchVerdict = SegmentStart | 'not-idle' | 'near';

/**
 * Linux's minimum RTO (TCP_RTO_MIN). Its RTO is at least the smoothed RTT plus this, and a sender
 * restarts slow start only after an idle gap longer than the RTO (RFC 5681 §4.1): a shorter gap
 * keeps the window on any origin and says nothing.
 */
export const MIN_RTO_MS = 200;

/**
 * Below this backhaul RTT the learner gives no verdict. Slow start then delivers even a 12 MB
 * segment in about 0.1 s, so the start cannot change x, and a head's few milliseconds are the
 * origin's and the edge's own processing as much as TCP: on loopback (the demo) a quarter of
 * slow start is a millisecond or two, and the demo's origin missed it on 10 of 15 fetches.
 */
export const MIN_LEARN_RTT_MS = 10;

/**
 * How an origin treats an idle connection, learnt from the edge's own fetches (issue 19): a
 * segment fetch that outpaced slow start after an idle gap past the RTO (outpacesSlowStart) ran on
 * a window the origin kept — the model's 'warm' start; one that did not, on a window restarted
 * from the initial one.
 *
 * The two mistakes do not cost the same, so the verdict is not a majority. Taking a restarting
 * origin for warm holds too few segments and stalls receivers; taking a warm one for slow start
 * costs later joiners a segment or two of latency. So 'warm' needs the last `keep` idle fetches
 * all warm, and one 'slow-start' among them is enough for 'slow-start' once `need` are in — as x
 * itself goes up at once and down after a dwell. Mixed verdicts are what a CUBIC or Reno origin
 * gives: Linux does not restart an idle window from the initial one but halves it per RTO of idle
 * (tcp_cwnd_restart, RFC 2861), so after a short gap the head still outpaces slow start and after a
 * long one it does not, and a majority rule would flip between the two with the idle gaps. Measured
 * at 224 ms (docs/experiments/outpace-224/): a CUBIC origin's idle fetches read warm 147 times and
 * slow-start 51 times in six runs, and the learnt start changed 2-4 times a run; a BBR origin's
 * settled warm in four runs of six.
 * Per configured origin: bounded by the configuration.
 */
export class OriginStartLearner {
  readonly #keep: number;
  readonly #need: number;
  readonly #byOrigin = new Map<string, SegmentStart[]>();

  constructor(keep = 5, need = 3) {
    this.#keep = keep;
    this.#need = need;
  }

  add(origin: string, f: IdleFetch): IdleFetchVerdict {
    const rttMs = requireRange('rttMs', f.rttMs, 0, LIMITS.maxRttSeconds * 1000, true);
    const idleMs = requireRange('idleMs', f.idleMs, 0, Number.POSITIVE_INFINITY);
    // RTT jitter: the RTO follows the smoothed RTT, which can sit above the minimum the edge keeps.
    if (idleMs < 1.25 * rttMs + MIN_RTO_MS) return 'not-idle';
    if (rttMs < MIN_LEARN_RTT_MS) return 'near';
    const verdict: SegmentStart = outpacesSlowStart({
      bytes: f.bytes,
      seconds: f.totalMs / 1000,
      rttSeconds: rttMs / 1000,
      initialWindowSegments: f.initialWindow,
    })
      ? 'warm'
      : 'slow-start';
    let list = this.#byOrigin.get(origin);
    if (list === undefined) this.#byOrigin.set(origin, (list = []));
    list.push(verdict);
    if (list.length > this.#keep) list.shift();
    return verdict;
  }

  /**
   * The origin's segment start by its recent idle fetches: 'warm' when the last `keep` all were,
   * 'slow-start' when any of them was not (once `need` are in), else undefined.
   */
  learned(origin: string): SegmentStart | undefined {
    const list = this.#byOrigin.get(origin);
    if (list === undefined || list.length < this.#need) return undefined;
    if (list.includes('slow-start')) return 'slow-start';
    return list.length === this.#keep ? 'warm' : undefined;
  }
}
