import { EthleError } from '../errors/EthleError.js';
import type { HlsMediaSegment } from './HlsMediaPlaylist.js';
import { LineRole, scanMediaPlaylist } from './scanMediaPlaylist.js';

export interface HlsDeltaResult {
  /** The Playlist Delta Update, or the text unchanged when no delta applies (see `skippedSegments`). */
  text: string;
  /** SKIPPED-SEGMENTS written; 0 = the full playlist is served (no CAN-SKIP-UNTIL, ended, a delta already, or nothing old enough). */
  skippedSegments: number;
}

const EPS = 1e-9;
const SKIPPED_ROLES = (1 << LineRole.SegmentTag) | (1 << LineRole.Key) | (1 << LineRole.Map) | (1 << LineRole.Part) | (1 << LineRole.Uri);

/**
 * The Playlist Delta Update (RFC 8216bis §6.2.5.1) of a full media playlist — the edge's held one —
 * for a `_HLS_skip=YES|v2` request. Segments that end at least CAN-SKIP-UNTIL seconds before the
 * end of the last complete segment are replaced, with their tags, by
 * `EXT-X-SKIP:SKIPPED-SEGMENTS=n`. EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE stay as
 * written (they still describe the first, skipped, segment; a client fills the skipped ones from
 * its previous copy, and hls.js re-bases discontinuity counters on them). The EXT-X-KEY and
 * EXT-X-MAP lines in force for the first listed segment are written again after EXT-X-SKIP when
 * they were among the skipped lines, so it stays decodable. EXT-X-DATERANGE lines among the
 * skipped ones stay, except for `v2` when the playlist has CAN-SKIP-DATERANGES=YES: then they go
 * (a date range before a skipped segment is taken as added before it, i.e. more than
 * CAN-SKIP-UNTIL seconds ago; RECENTLY-REMOVED-DATERANGES is not written: we keep no record of
 * removed ones). Other unknown tags among skipped segments go with them. Every other line stays,
 * byte for byte and in order. EXT-X-VERSION is raised to 9 if lower (EXT-X-SKIP needs it).
 *
 * Throws what parseMediaPlaylist throws, and ERR_HLS_INVALID_OPTIONS for another `skip` value.
 */
export function deltaMediaPlaylist(text: string, options: { skip: 'YES' | 'v2' }): HlsDeltaResult {
  const skip = options?.skip;
  if (skip !== 'YES' && skip !== 'v2') throw new EthleError('ERR_HLS_INVALID_OPTIONS', "skip must be 'YES' or 'v2'", { skip });
  const scan = scanMediaPlaylist(text);
  const p = scan.playlist;
  const until = p.serverControl?.canSkipUntil;
  // §6.2.5.1: ignore _HLS_skip without CAN-SKIP-UNTIL or with EXT-X-ENDLIST.
  if (until === undefined || p.endList || p.playlistType === 'VOD' || p.skippedSegments > 0) return { text, skippedSegments: 0 };
  const segs = p.segments;
  let after = 0;
  let s = segs.length;
  // Walk back from the end: segment i is skipped once the segments after it last ≥ CAN-SKIP-UNTIL.
  while (s > 0 && after < until - EPS) after += (segs[--s] as HlsMediaSegment).duration;
  if (s === 0) return { text, skippedSegments: 0 };
  const firstKept = segs[s] as HlsMediaSegment;
  const from = scan.firstSegmentLine;
  const to = (segs[s - 1] as HlsMediaSegment).uriLine; // last skipped line, inclusive
  const dropDateRanges = skip === 'v2' && p.serverControl?.canSkipDateRanges === true;
  const reemit: string[] = [];
  for (const k of firstKept.keyLines) if (k >= from && k <= to) reemit.push(p.lines[k] as string);
  if (firstKept.mapLine !== undefined && firstKept.mapLine >= from && firstKept.mapLine <= to)
    reemit.push(p.lines[firstKept.mapLine] as string);

  const out: string[] = [];
  const skipAt = Math.max(from, scan.headEnd);
  let wroteVersion = false;
  for (let i = 0; i < p.lines.length; i++) {
    const line = p.lines[i] as string;
    const role = scan.roles[i] as number;
    if (i === skipAt) out.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${s}`, ...reemit);
    if (role === LineRole.Header && line.startsWith('#EXT-X-VERSION')) {
      wroteVersion = true;
      out.push((p.version ?? 0) < 9 ? '#EXT-X-VERSION:9' : line);
      continue;
    }
    if (i >= from && i <= to) {
      if (((1 << role) & SKIPPED_ROLES) !== 0) continue;
      if (role === LineRole.Other && line.startsWith('#EXT')) {
        if (!line.startsWith('#EXT-X-DATERANGE')) continue;
        if (dropDateRanges) continue;
      }
    }
    out.push(line);
  }
  if (!wroteVersion) out.splice(1, 0, '#EXT-X-VERSION:9');
  let res = out.join(p.lineEnding);
  if (p.trailingNewline) res += p.lineEnding;
  return { text: res, skippedSegments: s };
}
