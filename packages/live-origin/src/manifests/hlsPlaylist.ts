/** One segment line group of a live media playlist. */
export interface HlsSegmentLines {
  uri: string;
  durationSeconds: number;
  /** EXT-X-PROGRAM-DATE-TIME: production time of the segment's first frame, ms since the epoch. */
  pdtMs: number;
  /** EXT-X-BITRATE: the segment's real size × 8 / its nominal length, kbit/s. */
  bitrateKbps: number;
  byteRange?: { length: number; offset: number };
  /** Tags that belong to this segment and come before its own (a cue-out opens the break at this segment). */
  before?: readonly string[];
}

export interface HlsPlaylistSpec {
  version: number;
  targetDuration: number;
  /** Media sequence numbers of the first and last segment listed. */
  first: number;
  last: number;
  /** EXT-X-MAP URI (fMP4 init segment). */
  map?: string;
  segment(n: number): HlsSegmentLines;
}

const iso = (ms: number) => new Date(Math.round(ms)).toISOString();

/** A live media playlist (RFC 8216) over segments [first, last], every shape the origin serves. */
export function hlsPlaylist(p: HlsPlaylistSpec): string {
  const lines = [
    '#EXTM3U',
    `#EXT-X-VERSION:${p.version}`,
    `#EXT-X-TARGETDURATION:${p.targetDuration}`,
    `#EXT-X-MEDIA-SEQUENCE:${p.first}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  if (p.map !== undefined) lines.push(`#EXT-X-MAP:URI="${p.map}"`);
  for (let n = p.first; n <= p.last; n++) {
    const s = p.segment(n);
    if (s.before) lines.push(...s.before);
    lines.push(`#EXT-X-BITRATE:${s.bitrateKbps}`, `#EXT-X-PROGRAM-DATE-TIME:${iso(s.pdtMs)}`, `#EXTINF:${s.durationSeconds.toFixed(3)},`);
    if (s.byteRange) lines.push(`#EXT-X-BYTERANGE:${s.byteRange.length}@${s.byteRange.offset}`);
    lines.push(s.uri);
  }
  return `${lines.join('\n')}\n`;
}
