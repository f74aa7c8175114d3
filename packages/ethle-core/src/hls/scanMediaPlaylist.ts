import type {
  HlsByteRange,
  HlsMediaPlaylist,
  HlsMediaSegment,
  HlsPart,
  HlsPreloadHint,
  HlsRenditionReport,
  HlsServerControl,
} from './HlsMediaPlaylist.js';
import { hlsMalformed } from './hlsMalformed.js';
import { findAttribute, parseAttributeList, type HlsAttribute } from './parseAttributeList.js';
import { parseHlsByteRange, parseHlsInteger, parseHlsSeconds } from './parseHlsNumbers.js';
import { splitPlaylistLines } from './splitPlaylistLines.js';

/** What each line is, for the rewriter: which lines leave with a held segment, which carry a URI. */
export const LineRole = {
  Other: 0, // comments, blank lines, unknown tags, EXT-X-DATERANGE, EXT-X-ENDLIST …: kept byte for byte
  Header: 1, // playlist-level tags before the segments
  SegmentTag: 2, // EXTINF, EXT-X-BYTERANGE, EXT-X-DISCONTINUITY, EXT-X-PROGRAM-DATE-TIME, EXT-X-GAP, EXT-X-BITRATE
  Key: 3,
  Map: 4,
  Part: 5,
  PreloadHint: 6,
  Uri: 7,
  RenditionReport: 8,
  MediaSequence: 9,
  DiscontinuitySequence: 10,
} as const;
export type LineRole = (typeof LineRole)[keyof typeof LineRole];

export interface MediaPlaylistScan {
  playlist: HlsMediaPlaylist;
  roles: Uint8Array;
  /** The URI attribute of KEY, MAP, PART, PRELOAD-HINT and RENDITION-REPORT lines, by line index (spans for in-place routing). */
  uriAttrs: (HlsAttribute | undefined)[];
  /** Index after the last header line that precedes the first segment line: where older segments can be inserted. */
  headEnd: number;
  /** Index of the first segment-related line (EXTINF, KEY, MAP, PART, …, URI); lines.length if none. */
  firstSegmentLine: number;
  mediaSequenceLine: number;
  discontinuitySequenceLine: number;
}

const PDT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
const EMPTY: readonly number[] = [];

/** Single pass over a media playlist: the model plus per-line roles. Throws EthleError only. */
export function scanMediaPlaylist(text: string): MediaPlaylistScan {
  const { lines, lineEnding, trailingNewline } = splitPlaylistLines(text);
  const roles = new Uint8Array(lines.length);
  const uriAttrs: (HlsAttribute | undefined)[] = [];
  roles[0] = LineRole.Header;

  let version: number | undefined;
  let targetDuration: number | undefined;
  let mediaSequence = 0;
  let discontinuitySequence = 0;
  let endList = false;
  let playlistType: 'VOD' | 'EVENT' | undefined;
  let iFramesOnly = false;
  let partTarget: number | undefined;
  let serverControl: HlsServerControl | undefined;
  let skippedSegments = 0;
  let mediaSequenceLine = -1;
  let discontinuitySequenceLine = -1;
  let headEnd = 1;
  // The first segment's content (EXTINF, PART or URI) has been seen: header tags after it are misplaced.
  // KEY, MAP, PDT and DISCONTINUITY may precede a late MEDIA-SEQUENCE (e.g. MAP before EXT-X-SKIP).
  let segmentSeen = false;
  let firstSegmentLine = lines.length;

  const segments: HlsMediaSegment[] = [];
  const preloadHints: HlsPreloadHint[] = [];
  const renditionReports: HlsRenditionReport[] = [];

  // Tags in force / pending for the next segment.
  let keyLines: readonly number[] = EMPTY;
  let keyFormats: readonly string[] = [];
  let mapLine: number | undefined;
  let extinfLine = -1;
  let duration = 0;
  let title = '';
  let firstLine = -1;
  let discontinuity = false;
  let gap = false;
  let bitrateKbps: number | undefined; // EXT-X-BITRATE applies until the next one
  let pdt: string | undefined;
  let pdtMs = 0;
  let brLength = -1;
  let brOffset: number | undefined;
  let brLine = -1;
  let parts: HlsPart[] = [];
  let prevRangeEnd: number | undefined; // end of the previous segment's sub-range (implicit offsets)
  let prevPartRangeEnd: number | undefined;
  let dsn = 0;

  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.length === 0) continue;
    if (line.charCodeAt(0) !== 35 /* # */) {
      if (line.trim() === '') continue;
      // URI line: completes the pending segment.
      if (extinfLine < 0) throw hlsMalformed(i, '', 'URI line without a preceding #EXTINF', { uri: line.slice(0, 200) });
      roles[i] = LineRole.Uri;
      segmentSeen = true;
      if (firstSegmentLine > i) firstSegmentLine = i;
      if (discontinuity) dsn++;
      let byteRange: HlsByteRange | undefined;
      if (brLength >= 0) {
        const offset = brOffset ?? prevRangeEnd;
        if (offset === undefined)
          throw hlsMalformed(brLine, 'EXT-X-BYTERANGE', 'byte range without offset, and the previous segment has no byte range');
        byteRange = { length: brLength, offset };
        prevRangeEnd = offset + brLength;
      } else prevRangeEnd = undefined;
      // One literal with every field (undefined when absent): all segments share one hidden class.
      const seg: HlsMediaSegment = {
        msn: mediaSequence + skippedSegments + segments.length,
        discontinuitySequence: dsn,
        duration,
        title,
        uri: line.trim(),
        byteRange,
        discontinuity,
        gap,
        bitrateKbps,
        programDateTime: pdt,
        programDateTimeMs: pdt === undefined ? undefined : pdtMs,
        keyLines,
        mapLine,
        parts,
        firstLine: firstLine < 0 ? i : firstLine,
        uriLine: i,
      };
      segments.push(seg);
      extinfLine = -1;
      firstLine = -1;
      discontinuity = false;
      gap = false;
      pdt = undefined;
      brLength = -1;
      brOffset = undefined;
      parts = [];
      title = '';
      continue;
    }
    if (!line.startsWith('#EXT')) continue; // comment
    const colon = line.indexOf(':');
    const tag = colon < 0 ? line.slice(1).trimEnd() : line.slice(1, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1);
    switch (tag) {
      case 'EXTINF': {
        if (extinfLine >= 0) throw hlsMalformed(i, tag, 'second #EXTINF before the segment URI');
        const comma = value.indexOf(',');
        duration = parseHlsSeconds((comma < 0 ? value : value.slice(0, comma)).trim(), i, tag, 'duration');
        title = comma < 0 ? '' : value.slice(comma + 1);
        extinfLine = i;
        segmentSeen = true;
        segmentLine(i, LineRole.SegmentTag);
        break;
      }
      case 'EXT-X-BYTERANGE': {
        const [len, off] = parseHlsByteRange(value.trim(), i, tag);
        brLength = len;
        brOffset = off;
        brLine = i;
        segmentLine(i, LineRole.SegmentTag);
        break;
      }
      case 'EXT-X-DISCONTINUITY':
        discontinuity = true;
        segmentLine(i, LineRole.SegmentTag);
        break;
      case 'EXT-X-GAP':
        gap = true;
        segmentLine(i, LineRole.SegmentTag);
        break;
      case 'EXT-X-BITRATE':
        bitrateKbps = parseHlsInteger(value.trim(), i, tag, 'bitrate');
        segmentLine(i, LineRole.SegmentTag);
        break;
      case 'EXT-X-PROGRAM-DATE-TIME': {
        const v = value.trim();
        pdtMs = PDT_RE.test(v) ? Date.parse(v) : Number.NaN;
        if (Number.isNaN(pdtMs)) throw hlsMalformed(i, tag, 'not an ISO 8601 date-time', { value: v.slice(0, 80) });
        pdt = v;
        segmentLine(i, LineRole.SegmentTag);
        break;
      }
      case 'EXT-X-KEY': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        const method = required(attrs, 'METHOD', i, tag);
        if (method === 'NONE') {
          keyLines = EMPTY;
          keyFormats = [];
        } else {
          uriAttrs[i] = requiredAttr(attrs, 'URI', i, tag);
          const format = findAttribute(attrs, 'KEYFORMAT')?.value ?? 'identity';
          const k = keyFormats.indexOf(format);
          if (k < 0) {
            keyLines = [...keyLines, i];
            keyFormats = [...keyFormats, format];
          } else {
            const nl = keyLines.slice();
            nl[k] = i;
            keyLines = nl;
          }
        }
        segmentLine(i, LineRole.Key);
        break;
      }
      case 'EXT-X-MAP': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        uriAttrs[i] = requiredAttr(attrs, 'URI', i, tag);
        const br = findAttribute(attrs, 'BYTERANGE');
        if (br !== undefined) parseHlsByteRange(br.value, i, tag);
        mapLine = i;
        segmentLine(i, LineRole.Map);
        break;
      }
      case 'EXT-X-PART': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        const uriAttr = requiredAttr(attrs, 'URI', i, tag);
        uriAttrs[i] = uriAttr;
        const part: HlsPart = {
          uri: uriAttr.value,
          duration: parseHlsSeconds(required(attrs, 'DURATION', i, tag), i, tag, 'DURATION'),
          independent: findAttribute(attrs, 'INDEPENDENT')?.value === 'YES',
          gap: findAttribute(attrs, 'GAP')?.value === 'YES',
          line: i,
        };
        const br = findAttribute(attrs, 'BYTERANGE');
        if (br !== undefined) {
          const [len, off] = parseHlsByteRange(br.value, i, tag);
          const offset = off ?? prevPartRangeEnd;
          if (offset === undefined) throw hlsMalformed(i, tag, 'part byte range without offset, and the previous part has no byte range');
          part.byteRange = { length: len, offset };
          prevPartRangeEnd = offset + len;
        } else prevPartRangeEnd = undefined;
        parts.push(part);
        segmentSeen = true;
        segmentLine(i, LineRole.Part);
        break;
      }
      case 'EXT-X-PRELOAD-HINT': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        const uriAttr = requiredAttr(attrs, 'URI', i, tag);
        uriAttrs[i] = uriAttr;
        preloadHints.push({ type: required(attrs, 'TYPE', i, tag), uri: uriAttr.value, line: i });
        segmentLine(i, LineRole.PreloadHint);
        break;
      }
      case 'EXT-X-RENDITION-REPORT': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        const uriAttr = requiredAttr(attrs, 'URI', i, tag);
        uriAttrs[i] = uriAttr;
        const r: HlsRenditionReport = { uri: uriAttr.value, line: i };
        const msn = findAttribute(attrs, 'LAST-MSN');
        if (msn !== undefined) r.lastMsn = parseHlsInteger(msn.value, i, tag, 'LAST-MSN');
        const part = findAttribute(attrs, 'LAST-PART');
        if (part !== undefined) r.lastPart = parseHlsInteger(part.value, i, tag, 'LAST-PART');
        renditionReports.push(r);
        roles[i] = LineRole.RenditionReport;
        break;
      }
      case 'EXT-X-TARGETDURATION':
        if (targetDuration !== undefined) throw hlsMalformed(i, tag, 'appears twice');
        // RFC: decimal-integer; fractional values occur in the wild and are kept as written (hls.js accepts them too).
        targetDuration = parseHlsSeconds(value.trim(), i, tag, 'target duration');
        if (targetDuration <= 0) throw hlsMalformed(i, tag, 'target duration must be positive', { value: targetDuration });
        header(i, LineRole.Header);
        break;
      case 'EXT-X-MEDIA-SEQUENCE':
        beforeSegments(i, tag);
        if (mediaSequenceLine >= 0) throw hlsMalformed(i, tag, 'appears twice');
        mediaSequence = parseHlsInteger(value.trim(), i, tag, 'media sequence');
        mediaSequenceLine = i;
        header(i, LineRole.MediaSequence);
        break;
      case 'EXT-X-DISCONTINUITY-SEQUENCE':
        beforeSegments(i, tag);
        if (discontinuitySequenceLine >= 0) throw hlsMalformed(i, tag, 'appears twice');
        discontinuitySequence = parseHlsInteger(value.trim(), i, tag, 'discontinuity sequence');
        dsn = discontinuitySequence;
        discontinuitySequenceLine = i;
        header(i, LineRole.DiscontinuitySequence);
        break;
      case 'EXT-X-SKIP': {
        beforeSegments(i, tag);
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        skippedSegments = parseHlsInteger(required(attrs, 'SKIPPED-SEGMENTS', i, tag), i, tag, 'SKIPPED-SEGMENTS');
        header(i, LineRole.Header);
        break;
      }
      case 'EXT-X-VERSION':
        version = parseHlsInteger(value.trim(), i, tag, 'version');
        header(i, LineRole.Header);
        break;
      case 'EXT-X-PLAYLIST-TYPE': {
        const v = value.trim();
        if (v !== 'VOD' && v !== 'EVENT') throw hlsMalformed(i, tag, 'playlist type must be VOD or EVENT', { value: v.slice(0, 40) });
        playlistType = v;
        header(i, LineRole.Header);
        break;
      }
      case 'EXT-X-I-FRAMES-ONLY':
        iFramesOnly = true;
        header(i, LineRole.Header);
        break;
      case 'EXT-X-PART-INF': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        partTarget = parseHlsSeconds(required(attrs, 'PART-TARGET', i, tag), i, tag, 'PART-TARGET');
        header(i, LineRole.Header);
        break;
      }
      case 'EXT-X-SERVER-CONTROL': {
        const attrs = parseAttributeList(line, colon + 1, i, tag);
        const sc: HlsServerControl = {
          canBlockReload: findAttribute(attrs, 'CAN-BLOCK-RELOAD')?.value === 'YES',
          canSkipDateRanges: findAttribute(attrs, 'CAN-SKIP-DATERANGES')?.value === 'YES',
        };
        const until = findAttribute(attrs, 'CAN-SKIP-UNTIL');
        if (until !== undefined) sc.canSkipUntil = parseHlsSeconds(until.value, i, tag, 'CAN-SKIP-UNTIL');
        const hb = findAttribute(attrs, 'HOLD-BACK');
        if (hb !== undefined) sc.holdBack = parseHlsSeconds(hb.value, i, tag, 'HOLD-BACK');
        const phb = findAttribute(attrs, 'PART-HOLD-BACK');
        if (phb !== undefined) sc.partHoldBack = parseHlsSeconds(phb.value, i, tag, 'PART-HOLD-BACK');
        serverControl = sc;
        header(i, LineRole.Header);
        break;
      }
      case 'EXT-X-ENDLIST':
        endList = true;
        break;
      case 'EXT-X-INDEPENDENT-SEGMENTS':
      case 'EXT-X-START':
      case 'EXT-X-DEFINE':
      case 'EXT-X-ALLOW-CACHE':
        header(i, LineRole.Header);
        break;
      case 'EXT-X-STREAM-INF':
      case 'EXT-X-I-FRAME-STREAM-INF':
      case 'EXT-X-MEDIA':
        throw hlsMalformed(i, tag, 'multivariant playlist tag in a media playlist');
      case 'EXTM3U':
        break; // a repeated header is harmless (seen in the wild); kept as it is
      default:
        break; // unknown tags and EXT-X-DATERANGE: kept as they are
    }
  }

  if (extinfLine >= 0) throw hlsMalformed(extinfLine, 'EXTINF', '#EXTINF without a segment URI (truncated playlist?)');
  if (targetDuration === undefined) throw hlsMalformed(0, 'EXT-X-TARGETDURATION', 'media playlist has no #EXT-X-TARGETDURATION');

  const playlist: HlsMediaPlaylist = {
    kind: 'media',
    lines,
    lineEnding,
    trailingNewline,
    targetDuration,
    mediaSequence,
    discontinuitySequence,
    endList,
    iFramesOnly,
    skippedSegments,
    segments,
    preloadHints,
    renditionReports,
  };
  if (version !== undefined) playlist.version = version;
  if (playlistType !== undefined) playlist.playlistType = playlistType;
  if (partTarget !== undefined) playlist.partTarget = partTarget;
  if (serverControl !== undefined) playlist.serverControl = serverControl;
  if (parts.length > 0) playlist.partialSegment = { msn: mediaSequence + skippedSegments + segments.length, parts };
  return { playlist, roles, uriAttrs, headEnd, firstSegmentLine, mediaSequenceLine, discontinuitySequenceLine };

  function segmentLine(i: number, role: LineRole): void {
    roles[i] = role;
    if (firstSegmentLine > i) firstSegmentLine = i;
    if (firstLine < 0) firstLine = i;
  }
  function header(i: number, role: LineRole): void {
    roles[i] = role;
    if (!segmentSeen) headEnd = i + 1;
  }
  function beforeSegments(i: number, tag: string): void {
    if (segmentSeen) throw hlsMalformed(i, tag, 'must appear before the first media segment');
  }
}

function required(attrs: readonly HlsAttribute[], name: string, i: number, tag: string): string {
  return requiredAttr(attrs, name, i, tag).value;
}

function requiredAttr(attrs: readonly HlsAttribute[], name: string, i: number, tag: string): HlsAttribute {
  const a = findAttribute(attrs, name);
  if (a === undefined || a.value === '') throw hlsMalformed(i, tag, `missing attribute ${name}`);
  return a;
}
