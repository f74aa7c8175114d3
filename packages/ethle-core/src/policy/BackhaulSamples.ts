/**
 * Where a measured segment fetch stood: in steady state, in a burst of parallel fetches, or on a
 * connection still in its first slow start.
 */
export type FetchRegime = 'steady' | 'burst' | 'cold';

/**
 * Whether a segment fetch ran on a connection that had not yet carried a segment: it received
 * fewer than half the fetch's own bytes before the request (a manifest or nothing; segments of one
 * stream differ in size by far less than 2×). Such a fetch paid the handshake and a slow start
 * from the initial window that a pooled, reused connection does not pay again — unless the origin
 * restarts slow start after idle, and then the reused connection's fetches show it. Undefined
 * bytes (the edge could not see the connection): not cold.
 *
 * Cold at any time, not only at start-up: an origin that closes idle connections within a segment
 * period (Node's 5 s keep-alive, 10 s segments) makes every fetch cold, and then the online check
 * has no samples and x rests on the model and the deadline raise. Counting such fetches would
 * make x hunt on their bimodal rates (slow start on a new connection, full rate on a reused one).
 */
export function isColdConnection(bytesBefore: number | undefined, segmentBytes: number): boolean {
  return bytesBefore !== undefined && bytesBefore < segmentBytes / 2;
}

/**
 * How many segment flows to one origin steady state runs at once with `x` held: a new segment
 * every l_seg, each fetched within x·l_seg, is at most x + 1 (auto prefetches at least 1 ahead).
 */
export function steadyFlows(x: number): number {
  return Math.max(x, 1) + 1;
}

/**
 * The backhaul rates the edge achieved, per origin, for the model's online check: the median of
 * the last few steady-state segment fetches.
 *
 * eq. 2's th_bh is the rate of one of x flows, so a fetch that shared the backhaul with no more
 * flows than steady state runs is evidence for it — including evidence that x is too small (each
 * flow slower than the model, fetches overlapping more). A fetch that shared with more ran in a
 * burst: a new stream's first prefetch round, a start segment as parallel ranges. Its rate is a
 * share steady state does not see; taking it for th_bh makes `auto` hold one segment more than
 * eq. 2 asks, and x never comes down.
 */
export class BackhaulSamples {
  readonly #keep: number;
  readonly #min: number;
  readonly #byOrigin = new Map<string, number[]>();

  /** `keep` recent samples per origin; no median until `min` of them. */
  constructor(keep = 8, min = 3) {
    this.#keep = keep;
    this.#min = min;
  }

  /**
   * One segment fetch's rate (Mbit/s), with the mean number of flows it shared the backhaul with
   * (its own included), the stream x in force and whether its connection was cold
   * (isColdConnection). Kept only in steady state: a stream's
   * first fetches each open a new connection, and taking their slow start for th_bh would raise x
   * a segment above what steady state needs until the dwell brings it down.
   */
  add(origin: string, mbps: number, meanFlows: number, x: number, cold = false): FetchRegime {
    if (meanFlows > steadyFlows(x)) return 'burst';
    if (cold) return 'cold';
    let list = this.#byOrigin.get(origin);
    if (list === undefined) this.#byOrigin.set(origin, (list = []));
    list.push(mbps);
    if (list.length > this.#keep) list.shift();
    return 'steady';
  }

  /** Median of the origin's recent steady-state rates, once there are enough. */
  median(origin: string): number | undefined {
    const list = this.#byOrigin.get(origin);
    if (list === undefined || list.length < this.#min) return undefined;
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
  }
}
