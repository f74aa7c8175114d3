import { LOOP_SECONDS } from '../media/LoopMedia.js';

/**
 * When each segment of every stream is produced. All streams share one epoch T0 (the DASH
 * availabilityStartTime): segment n covers media [n·L, (n+1)·L), its first frame is produced at
 * T0 + n·L (its EXT-X-PROGRAM-DATE-TIME) and it is complete — available — at T0 + (n+1)·L.
 *
 * T0 lies `windowSeconds` before the origin started (rounded down to a whole loop) so a fresh
 * origin already has a full live window, as a long-running packager would.
 */
export class LiveClock {
  readonly t0Ms: number;
  constructor(
    readonly now: () => number,
    readonly windowSeconds: number,
  ) {
    const start = now() - windowSeconds * 1000;
    this.t0Ms = Math.floor(start / (LOOP_SECONDS * 1000)) * LOOP_SECONDS * 1000;
  }

  /** Production time of segment n's first frame, ms since the epoch. */
  startMs(n: number, seconds: number): number {
    return this.t0Ms + n * seconds * 1000;
  }

  /** When segment n is complete and available, ms. */
  endMs(n: number, seconds: number): number {
    return this.t0Ms + (n + 1) * seconds * 1000;
  }

  /** Newest available segment number at `nowMs` (−1 before the first one is complete). */
  newest(seconds: number, nowMs = this.now()): number {
    return Math.floor((nowMs - this.t0Ms) / (seconds * 1000)) - 1;
  }

  /** Oldest segment still in the live window at `nowMs`. */
  oldest(seconds: number, nowMs = this.now()): number {
    return Math.max(0, Math.ceil((nowMs - this.t0Ms - this.windowSeconds * 1000) / (seconds * 1000)));
  }
}
