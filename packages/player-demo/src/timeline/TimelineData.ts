/** The edge's `GET /_ethle/timeline` answer (times are epoch ms on the edge's clock). */
export type { TimelineSnapshot as EdgeTimeline, TimelineSegment as EdgeTimelineSegment } from '@ethle/core';

/** A player's segment download as the probe timed it (epoch ms, the page's clock). */
export interface PlayerFetch {
  path: string;
  requestStart: number;
  lastByte: number;
}

/** A stall as the probe saw it; `end` absent while it lasts. */
export interface Interval {
  start: number;
  end?: number;
}
