import type { FetchLimits } from './fetchLimits.js';
import type { FetchPriority } from './FetchScheduler.js';

/** Fetch one segment as this many concurrent byte ranges, sized from an estimate of its length. */
export interface SplitFetch {
  parts: number;
  approxBytes: number;
}

/** How one segment fetch is scheduled and bounded. */
export interface SegmentFetchOptions {
  priority: FetchPriority;
  /** Fairness group in the origin's scheduler (the stream's key; unplanned objects share one). */
  group: string;
  /**
   * How long the fetch — queue wait excluded — may go without a byte, and may take in all
   * (fetchLimits; FetchSignal applies them, with the rate rule between the two).
   */
  limits: FetchLimits;
  split?: SplitFetch;
}
