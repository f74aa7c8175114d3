/**
 * The edge's `GET /_ethle/timeline` answer (packages/edge-node/src/timeline/TimelineSnapshot.ts),
 * the fields the page reads. Times are epoch ms on the edge's clock.
 */
export interface EdgeTimelineSegment {
  track: string;
  id: number;
  path: string;
  durationS: number;
  listedAt: number;
  visibleAt?: number;
  held?: boolean;
  productionStart?: number;
  productionEnd?: number;
  fetchStart?: number;
  fetchEnd?: number;
  fetchKind?: 'prefetch' | 'segment';
  requests: number;
  firstRequestAt?: number;
}

export interface EdgeTimeline {
  v: 1;
  stream: string;
  now: number;
  hold: number;
  segmentSeconds: number;
  held: Record<string, number>;
  lead: Record<string, number>;
  segments: EdgeTimelineSegment[];
}

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
