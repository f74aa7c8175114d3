import type { EdgeTimeline, EdgeTimelineSegment, Interval, PlayerFetch } from './TimelineData.js';

/** One bar: a row (a segment, or a stall row) and a time span in seconds relative to `now`. */
export interface Bar {
  row: string;
  from: number;
  to: number;
}

/** The series of the timeline chart, in legend order. */
export const SERIES = [
  'produced at the origin',
  'held at the edge (listed → visible)',
  'edge prefetch',
  'direct player: request → received',
  'edge player: request → received',
  'stalls / outage',
] as const;
export type Series = (typeof SERIES)[number];

export interface TimelineRows {
  /** Row labels, newest segment first, then the stall rows. */
  rows: string[];
  bars: Record<Series, Bar[]>;
  hold: number;
  segmentSeconds: number;
  /** Segments held at the edge now and its lead past the edge player, in the drawn track. */
  held: number;
  lead: number;
  track: string | undefined;
}

export const STALL_ROWS = { direct: 'direct stalls', edge: 'edge stalls', outage: 'origin outage' } as const;

/**
 * Shapes the edge's timeline and both players' downloads and stalls into bars for the segments
 * of the video track active in the last `windowS` seconds (the track the edge player's fetches are
 * of; with DASH the audio track is left out). Times become seconds before `now` (negative).
 */
export function timelineRows(
  t: EdgeTimeline,
  players: { direct: PlayerFetch[]; edge: PlayerFetch[] },
  stalls: { direct: Interval[]; edge: Interval[]; outage: Interval[] },
  now: number,
  windowS = 24,
  segments = 24,
): TimelineRows {
  const track = pickTrack(t.segments, players.edge);
  const inTrack = t.segments.filter((s) => s.track === track);
  // The rows: every segment from the oldest one something happened to within the window (held,
  // fetched by the edge, asked for by a player) to the newest, without gaps, at most `segments`.
  // Being listed is not activity: the first window is listed all at once and mostly never fetched.
  const since = now - windowS * 1000;
  const fetchedByPlayer = new Set([...players.direct, ...players.edge].filter((f) => f.lastByte >= since).map((f) => fileName(f.path)));
  const active = (s: EdgeTimelineSegment) =>
    s.held === true ||
    (s.fetchStart !== undefined && (s.fetchEnd ?? now) >= since) ||
    (s.firstRequestAt ?? -Infinity) >= since ||
    fetchedByPlayer.has(fileName(s.path));
  const first = inTrack.findIndex(active);
  const segs = first < 0 ? [] : inTrack.slice(first).slice(-segments);
  const rel = (ms: number) => (ms - now) / 1000;
  const label = (s: EdgeTimelineSegment) => `#${s.id}`;
  const bars = Object.fromEntries(SERIES.map((s) => [s, [] as Bar[]])) as Record<Series, Bar[]>;
  const byName = new Map(segs.map((s) => [fileName(s.path), s]));
  for (const s of segs) {
    const row = label(s);
    if (s.productionStart !== undefined && s.productionEnd !== undefined)
      bars['produced at the origin'].push({ row, from: rel(s.productionStart), to: rel(s.productionEnd) });
    if (t.hold > 0) bars['held at the edge (listed → visible)'].push({ row, from: rel(s.listedAt), to: rel(s.visibleAt ?? now) });
    if (s.fetchStart !== undefined) bars['edge prefetch'].push({ row, from: rel(s.fetchStart), to: rel(s.fetchEnd ?? now) });
  }
  const fetches = (list: PlayerFetch[], series: Series) => {
    for (const f of list) {
      const s = byName.get(fileName(f.path));
      if (s !== undefined) bars[series].push({ row: label(s), from: rel(f.requestStart), to: rel(f.lastByte) });
    }
  };
  fetches(players.direct, 'direct player: request → received');
  fetches(players.edge, 'edge player: request → received');
  for (const [k, list] of Object.entries(stalls) as [keyof typeof STALL_ROWS, Interval[]][]) {
    for (const i of list) bars['stalls / outage'].push({ row: STALL_ROWS[k], from: rel(i.start), to: rel(i.end ?? now) });
  }
  return {
    rows: [...segs.map(label).reverse(), STALL_ROWS.outage, STALL_ROWS.direct, STALL_ROWS.edge],
    bars,
    hold: t.hold,
    segmentSeconds: t.segmentSeconds,
    held: track === undefined ? 0 : (t.held[track] ?? 0),
    lead: track === undefined ? 0 : (t.lead[track] ?? 0),
    track,
  };
}

/** The track of the edge player's video fetches; else the track with the most segments. */
function pickTrack(segs: EdgeTimelineSegment[], fetched: PlayerFetch[]): string | undefined {
  const names = new Set(fetched.map((f) => fileName(f.path)));
  const seen = segs.find((s) => names.has(fileName(s.path)));
  if (seen !== undefined) return seen.track;
  const count = new Map<string, number>();
  for (const s of segs) count.set(s.track, (count.get(s.track) ?? 0) + 1);
  return [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** The path without query: the same segment at the origin and at the edge (one origin, no prefix). */
function fileName(pathOrUrl: string): string {
  const p = /^https?:/.test(pathOrUrl) ? new URL(pathOrUrl).pathname : pathOrUrl;
  const q = p.indexOf('?');
  return q < 0 ? p : p.slice(0, q);
}
