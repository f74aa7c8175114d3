/** A byte sub-range of a resource; `offset` is always resolved (implicit offsets follow the previous range). */
export interface HlsByteRange {
  length: number;
  offset: number;
}

/** An EXT-X-PART (LL-HLS partial segment). */
export interface HlsPart {
  uri: string;
  duration: number;
  independent: boolean;
  gap: boolean;
  byteRange?: HlsByteRange;
  /** 0-based index of the EXT-X-PART line in `lines`. */
  line: number;
}

/** A complete media segment (EXTINF + URI) with the tags in force for it. */
export interface HlsMediaSegment {
  /** Media sequence number. */
  msn: number;
  /** Discontinuity sequence number (EXT-X-DISCONTINUITY-SEQUENCE + discontinuities up to and including this one). */
  discontinuitySequence: number;
  duration: number;
  /** EXTINF title (after the comma), possibly empty. */
  title: string;
  uri: string;
  byteRange?: HlsByteRange;
  /** An EXT-X-DISCONTINUITY precedes this segment. */
  discontinuity: boolean;
  gap: boolean;
  /** EXT-X-BITRATE in force (kbit/s): the packager's approximate bitrate of this segment. */
  bitrateKbps?: number;
  /** EXT-X-PROGRAM-DATE-TIME as written, and in ms since the epoch. */
  programDateTime?: string;
  programDateTimeMs?: number;
  /** Indices of the EXT-X-KEY lines in force (one per KEYFORMAT; empty = not encrypted). */
  keyLines: readonly number[];
  /** Index of the EXT-X-MAP line in force. */
  mapLine?: number;
  /** LL-HLS parts listed for this segment. */
  parts: readonly HlsPart[];
  /** Index of this segment's first own tag line (EXTINF, PDT, …) or of its URI line if it has none before it. */
  firstLine: number;
  /** Index of the URI line. */
  uriLine: number;
}

/** EXT-X-PRELOAD-HINT. */
export interface HlsPreloadHint {
  type: string;
  uri: string;
  line: number;
}

/** EXT-X-RENDITION-REPORT. */
export interface HlsRenditionReport {
  uri: string;
  lastMsn?: number;
  lastPart?: number;
  line: number;
}

/** EXT-X-SERVER-CONTROL. */
export interface HlsServerControl {
  canBlockReload: boolean;
  canSkipUntil?: number;
  canSkipDateRanges: boolean;
  holdBack?: number;
  partHoldBack?: number;
}

export interface HlsMediaPlaylist {
  kind: 'media';
  /** Every line of the text without its line terminator, in order. Untouched lines are re-emitted from here byte for byte. */
  lines: readonly string[];
  /** Line terminator of the text ('\r\n' if the first line ends with one). */
  lineEnding: '\n' | '\r\n';
  /** The text ends with a line terminator. */
  trailingNewline: boolean;
  version?: number;
  targetDuration: number;
  /** EXT-X-MEDIA-SEQUENCE (0 when absent). */
  mediaSequence: number;
  /** EXT-X-DISCONTINUITY-SEQUENCE (0 when absent). */
  discontinuitySequence: number;
  endList: boolean;
  playlistType?: 'VOD' | 'EVENT';
  iFramesOnly: boolean;
  /** EXT-X-PART-INF PART-TARGET. */
  partTarget?: number;
  serverControl?: HlsServerControl;
  /** EXT-X-SKIP SKIPPED-SEGMENTS of a delta update (0 otherwise); the first listed segment has msn mediaSequence + skippedSegments. */
  skippedSegments: number;
  segments: readonly HlsMediaSegment[];
  /** LL-HLS parts after the last complete segment: the segment in progress, msn = last msn + 1. */
  partialSegment?: { msn: number; parts: readonly HlsPart[] };
  preloadHints: readonly HlsPreloadHint[];
  renditionReports: readonly HlsRenditionReport[];
}
