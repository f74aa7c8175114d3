/** Where a measured segment fetch stood: in steady state, or in a burst of parallel fetches. */
export type FetchRegime = 'steady' | 'burst';

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
 * share steady state does not see; taking it for th_bh made `auto` hold one segment more than
 * eq. 2 asks (docs/experiments.md, Table III), and x never comes down.
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
   * (its own included) and the stream x in force. Kept only in steady state.
   */
  add(origin: string, mbps: number, meanFlows: number, x: number): FetchRegime {
    if (meanFlows > steadyFlows(x)) return 'burst';
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
