// The edge's `GET /_ethle/timeline` answer: written by packages/edge-node, read by the demo page
// (packages/player-demo) — one definition of the wire format for both.
/** One segment as the edge saw it (epoch ms on the edge's clock; absent = not happened yet). */
export interface TimelineSegment {
  /** HLS: the playlist; DASH: the representation. Ids are per track. */
  track: string;
  id: number;
  /** Origin path without query. */
  path: string;
  durationS: number;
  /** The edge saw the origin's manifest list it. */
  listedAt: number;
  /** In the held manifest receivers get since then (with the current x); absent while held. */
  visibleAt?: number;
  /** One of the newest x segments: listed by the origin, withheld from receivers now. */
  held?: boolean;
  /** The origin produced it (its X-Ethle-Production-Start/End headers), once fetched. */
  productionStart?: number;
  productionEnd?: number;
  /** Its origin fetch: started (also while in flight), ended; a prefetch or a receiver's miss. */
  fetchStart?: number;
  fetchEnd?: number;
  fetchKind?: 'prefetch' | 'segment';
  fetchOutcome?: string;
  /** Receivers' requests at the edge: how many, the first one's time and cache result. */
  requests: number;
  firstRequestAt?: number;
  firstResult?: 'hit' | 'coalesced' | 'miss';
}

/** `GET /_ethle/timeline?stream=…`: a stream's recent segments (bounded) and its x now. */
export interface TimelineSnapshot {
  v: 1;
  /** The stream's key at the edge (`{origin}{manifest path}`). */
  stream: string;
  /** The edge's clock when this was made (epoch ms). */
  now: number;
  /** x now (segments). */
  hold: number;
  segmentSeconds: number;
  /** Per track: how many segments are held now. */
  held: Record<string, number>;
  /** Per track: complete segments at the edge past the newest one a receiver asked for. */
  lead: Record<string, number>;
  /** Oldest first within each track. */
  segments: TimelineSegment[];
}
