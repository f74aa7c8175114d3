/** One fetch's share of the path, from open to close. */
export interface FlowSpan {
  /**
   * Ends the span (idempotent) and returns the time-weighted mean number of segment flows that
   * were open to the origin while it lasted, its own included: 1 = it had the path to itself.
   */
  close(): number;
}

/**
 * Counts the segment flows open to one origin over time (∫ open flows dt), so every fetch can
 * tell how many others shared the backhaul with it.
 *
 * Why: the model's online check compares the model's single-flow rate with rates the edge
 * achieved. A flow measured in a burst — a new stream's first prefetch round, a player's start
 * segment as parallel ranges — got a share of the path that steady state does not see (BackhaulSamples
 * leaves such fetches out). Whether flows shared a bottleneck or were each slow-start bound
 * cannot be told from one window, so a shared rate is not rescaled either way.
 */
export class FlowMeter {
  readonly #now: () => number;
  #open = 0;
  #flowMs = 0;
  #at: number;

  constructor(now: () => number) {
    this.#now = now;
    this.#at = now();
  }

  /** Segment flows open now. */
  get open(): number {
    return this.#open;
  }

  /** `flows` connections start carrying one fetch now (a fetch split into ranges opens several). */
  start(flows = 1): FlowSpan {
    const t0 = this.#advance();
    const i0 = this.#flowMs;
    this.#open += flows;
    let result: number | undefined;
    return {
      close: () => {
        if (result !== undefined) return result;
        const t = this.#advance();
        this.#open -= flows;
        // A zero-length span (a coarse clock) shares with whatever is open at its end.
        result = t > t0 ? (this.#flowMs - i0) / (t - t0) : flows + this.#open;
        return result;
      },
    };
  }

  #advance(): number {
    const t = this.#now();
    this.#flowMs += this.#open * (t - this.#at);
    this.#at = t;
    return t;
  }
}
