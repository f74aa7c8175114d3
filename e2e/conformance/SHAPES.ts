/**
 * Every stream shape the live origin serves (docs/interfaces.md), and who plays it: hls.js the HLS
 * shapes, dash.js the DASH ones, Shaka Player all of them. The low-latency shapes are played in
 * the players' low-latency modes and also through an edge holding parts (`--hold-parts 2`).
 */
export type Format = 'hls' | 'dash';
export type Player = 'hls' | 'dash' | 'shaka';

export interface Shape {
  /** Row name in docs/conformance.md. */
  id: string;
  format: Format;
  /** Origin-relative URL of the manifest a player is given. */
  path: string;
  /** Low-latency (LL-HLS parts, LL-DASH chunks). */
  ll: boolean;
  /** What the shape exercises at the edge. */
  about: string;
}

export const STREAM = '2M-2s';
/** Segment length of STREAM, s. */
export const SEGMENT_SECONDS = 2;
/** LL part / chunk length the origin serves for 2 s segments, s. */
export const PART_SECONDS = 0.5;

export const SHAPES: readonly Shape[] = [
  { id: 'hls-fmp4', format: 'hls', ll: false, path: `/live/${STREAM}/index.m3u8`, about: 'HLS fMP4 media playlist' },
  { id: 'hls-ts', format: 'hls', ll: false, path: `/live/${STREAM}/ts/index.m3u8`, about: 'HLS MPEG-TS' },
  {
    id: 'hls-byterange',
    format: 'hls',
    ll: false,
    path: `/live/${STREAM}/byterange.m3u8`,
    about: 'EXT-X-BYTERANGE segments of shared files (client Range)',
  },
  { id: 'hls-cues', format: 'hls', ll: false, path: `/live/${STREAM}/cues.m3u8`, about: 'SCTE-35 cue tags and date ranges' },
  { id: 'hls-master', format: 'hls', ll: false, path: `/live/master.m3u8?seconds=${SEGMENT_SECONDS}`, about: 'multivariant playlist' },
  {
    id: 'hls-master-audio',
    format: 'hls',
    ll: false,
    path: `/live/master-audio.m3u8?seconds=${SEGMENT_SECONDS}`,
    about: 'multivariant playlist with a separate audio rendition',
  },
  {
    id: 'll-hls',
    format: 'hls',
    ll: true,
    path: `/live/${STREAM}/ll/index.m3u8`,
    about: 'LL-HLS: parts, preload hints, blocking reload, delta updates',
  },
  {
    id: 'll-hls-master',
    format: 'hls',
    ll: true,
    path: `/live/master-ll.m3u8?seconds=${SEGMENT_SECONDS}`,
    about: 'LL-HLS behind a multivariant playlist (rendition reports)',
  },
  { id: 'dash-number', format: 'dash', ll: false, path: `/live/${STREAM}/manifest.mpd`, about: 'SegmentTemplate $Number$ (AST shift)' },
  { id: 'dash-timeline', format: 'dash', ll: false, path: `/live/${STREAM}/timeline.mpd`, about: 'SegmentTimeline $Time$ (timeline trim)' },
  { id: 'dash-periods', format: 'dash', ll: false, path: `/live/${STREAM}/periods.mpd`, about: 'multi-period SegmentTimeline' },
  {
    id: 'dash-list',
    format: 'dash',
    ll: false,
    path: `/live/${STREAM}/list.mpd`,
    about: 'multi-period SegmentList (passes through unheld)',
  },
  {
    id: 'dash-location',
    format: 'dash',
    ll: false,
    path: `/live/${STREAM}/location.mpd`,
    about: 'MPD Location and absolute BaseURL on the origin host',
  },
  {
    id: 'dash-master',
    format: 'dash',
    ll: false,
    path: `/live/master-${SEGMENT_SECONDS}s.mpd`,
    about: 'ABR ladder: one MPD, a Representation per stream ($RepresentationID$)',
  },
  { id: 'dash-cues', format: 'dash', ll: false, path: `/live/${STREAM}/cues.mpd`, about: 'SCTE-35 EventStream' },
  {
    id: 'll-dash',
    format: 'dash',
    ll: true,
    path: `/live/${STREAM}/ll.mpd`,
    about: 'LL-DASH: chunked segments, availabilityTimeOffset, ServiceDescription',
  },
];

/** The players of a shape: the format's own player, then Shaka. */
export const playersOf = (s: Shape): Player[] => [s.format, 'shaka'];

export const PLAYER_NAME: Record<Player, string> = { hls: 'hls.js', dash: 'dash.js', shaka: 'Shaka' };

/**
 * How a cell reaches the stream: straight from the origin, through an edge holding x whole
 * segments, or (LL shapes) through an edge holding 2 parts/chunks (`--hold-parts 2`, hold 0).
 */
export type Via = 'direct' | 'hold-0' | 'hold-2' | 'parts-2';
export const viasOf = (s: Shape): Via[] => (s.ll ? ['direct', 'hold-0', 'hold-2', 'parts-2'] : ['direct', 'hold-0', 'hold-2']);

/**
 * Player settings of a row. As they come, but: dash.js with live catch-up (its docs' live setting;
 * the probe harness turns it off for its stall tests), and the players' low-latency modes on the
 * LL shapes (hls.js lowLatencyMode, Shaka streaming.lowLatencyMode; dash.js switches itself from
 * the MPD's ServiceDescription and availabilityTimeOffset).
 */
export function playerConfig(player: Player, ll: boolean): Record<string, unknown> | undefined {
  if (player === 'dash') return { streaming: { liveCatchup: { enabled: true } } };
  if (player === 'hls') return ll ? { lowLatencyMode: true } : undefined;
  return ll ? { streaming: { lowLatencyMode: true } } : undefined;
}
