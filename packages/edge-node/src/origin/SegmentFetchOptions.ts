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
   * The whole fetch — queue wait excluded — must end within this (ms): undici's body timeout is
   * an idle timer, and an origin trickling 1 KB/s never trips it.
   */
  deadlineMs: number;
  split?: SplitFetch;
}
