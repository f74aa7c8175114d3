/**
 * Every stream shape the live origin offers (docs/interfaces.md), with the player that plays it.
 * hls.js plays HLS only and dash.js DASH only, so those pairs are the whole player × format matrix.
 */
export interface Format {
  /** Row name in docs/conformance.md. */
  id: string;
  player: 'hls' | 'dash';
  /** Origin-relative URL of the manifest (the stream is STREAM). */
  path: string;
  /** What the shape exercises at the edge. */
  about: string;
}

export const STREAM = '2M-2s';
/** Segment length of STREAM, s. */
export const SEGMENT_SECONDS = 2;

export const FORMATS: readonly Format[] = [
  { id: 'hls-fmp4', player: 'hls', path: `/live/${STREAM}/index.m3u8`, about: 'HLS fMP4 media playlist' },
  { id: 'hls-ts', player: 'hls', path: `/live/${STREAM}/ts/index.m3u8`, about: 'HLS MPEG-TS' },
  { id: 'hls-byterange', player: 'hls', path: `/live/${STREAM}/byterange.m3u8`, about: 'EXT-X-BYTERANGE segments of shared files (client Range)' },
  { id: 'hls-master-audio', player: 'hls', path: `/live/master-audio.m3u8?seconds=${SEGMENT_SECONDS}`, about: 'multivariant playlist with a separate audio rendition' },
  { id: 'hls-cues', player: 'hls', path: `/live/${STREAM}/cues.m3u8`, about: 'SCTE-35 cue tags and date ranges' },
  { id: 'dash-number', player: 'dash', path: `/live/${STREAM}/manifest.mpd`, about: 'SegmentTemplate $Number$ (AST shift)' },
  { id: 'dash-timeline', player: 'dash', path: `/live/${STREAM}/timeline.mpd`, about: 'SegmentTimeline $Time$ (timeline trim)' },
  { id: 'dash-periods', player: 'dash', path: `/live/${STREAM}/periods.mpd`, about: 'multi-period SegmentTimeline' },
  { id: 'dash-list', player: 'dash', path: `/live/${STREAM}/list.mpd`, about: 'multi-period SegmentList (passes through unheld)' },
  { id: 'dash-location', player: 'dash', path: `/live/${STREAM}/location.mpd`, about: 'MPD Location and absolute BaseURL on the origin host' },
  { id: 'dash-cues', player: 'dash', path: `/live/${STREAM}/cues.mpd`, about: 'SCTE-35 EventStream' },
];

/** How a cell reaches the stream: straight from the origin, or through an edge holding x segments. */
export type Via = 'direct' | 'hold-0' | 'hold-2';
export const VIAS: readonly Via[] = ['direct', 'hold-0', 'hold-2'];
export const holdOf = (via: Via): number | undefined => (via === 'direct' ? undefined : Number(via.slice(5)));
