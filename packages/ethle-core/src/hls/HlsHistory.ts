import { EthleError } from '../errors/EthleError.js';
import type { HlsMediaPlaylist } from './HlsMediaPlaylist.js';
import { scanMediaPlaylist } from './scanMediaPlaylist.js';

/**
 * A media segment as seen in an earlier origin version, with what is needed to list it again at
 * the head of a later playlist: its own lines (EXTINF, PROGRAM-DATE-TIME, BYTERANGE with an
 * explicit offset, GAP, BITRATE — original text, URI not yet routed) and the KEY/MAP lines in force.
 */
export interface HlsHistorySegment {
  msn: number;
  discontinuitySequence: number;
  duration: number;
  uri: string;
  /** Tag lines of the segment (no DISCONTINUITY, KEY, MAP or parts — the rewriter emits those as needed). */
  tagLines: readonly string[];
  keyLines: readonly string[];
  mapLine?: string;
}

/**
 * Segments of one rendition seen in earlier origin versions, contiguous by msn, oldest first,
 * at most `maxSegments`. Immutable: {@link recordHlsHistory} returns a new value, so one history can
 * be shared by the rewrites of every policy group without copying.
 */
export interface HlsHistory {
  readonly maxSegments: number;
  readonly segments: readonly HlsHistorySegment[];
}

const DEFAULT_MAX_SEGMENTS = 32;

export function createHlsHistory(options: { maxSegments?: number } = {}): HlsHistory {
  const maxSegments = options.maxSegments ?? DEFAULT_MAX_SEGMENTS;
  if (!Number.isInteger(maxSegments) || maxSegments < 1 || maxSegments > 100_000) {
    throw new EthleError('ERR_HLS_INVALID_OPTIONS', 'maxSegments must be an integer from 1 to 100000', { maxSegments });
  }
  return { maxSegments, segments: [] };
}

/**
 * Adds an origin version's complete segments. If the new version does not continue the history
 * (a gap in msn, or a known msn with another URI or discontinuity sequence — the stream restarted),
 * the old entries are dropped. Call it with every new origin version, before holding. Takes the
 * parsed playlist or its text (then throws what parseMediaPlaylist throws).
 */
export function recordHlsHistory(history: HlsHistory, origin: HlsMediaPlaylist | string): HlsHistory {
  if (typeof history !== 'object' || history === null || !Array.isArray(history.segments)) {
    throw new EthleError('ERR_HLS_INVALID_OPTIONS', 'history must come from createHlsHistory / recordHlsHistory');
  }
  const playlist = typeof origin === 'string' ? scanMediaPlaylist(origin).playlist : origin;
  const fresh = playlist.segments;
  if (fresh.length === 0) return history;
  const old = history.segments;
  const s0 = (fresh[0] as (typeof fresh)[number]).msn;
  const s1 = s0 + fresh.length - 1;
  // Old entries are kept only if they are contiguous and agree with the new version where both
  // list a segment; a damaged stored history (service worker) is simply replaced.
  const h0 = (old[0] as HlsHistorySegment | null | undefined)?.msn;
  let keepOld = typeof h0 === 'number' && old.every((h, i) => h !== null && typeof h === 'object' && h.msn === h0 + i);
  if (keepOld) {
    const hFirst = h0 as number;
    const h1 = hFirst + old.length - 1;
    if (s0 > h1 + 1 || s1 < hFirst - 1) keepOld = false;
    else {
      for (let m = Math.max(hFirst, s0); m <= Math.min(h1, s1); m++) {
        const a = old[m - hFirst] as HlsHistorySegment | null;
        const b = fresh[m - s0] as (typeof fresh)[number];
        if (a === null || a.uri !== b.uri || a.discontinuitySequence !== b.discontinuitySequence) {
          keepOld = false;
          break;
        }
      }
    }
  }
  const merged: HlsHistorySegment[] = [];
  if (keepOld) for (const h of old) if (h.msn < s0) merged.push(h);
  for (const seg of fresh) {
    const tagLines: string[] = [];
    for (let i = seg.firstLine; i < seg.uriLine; i++) {
      const line = playlist.lines[i] as string;
      if (
        line.startsWith('#EXTINF') ||
        line.startsWith('#EXT-X-PROGRAM-DATE-TIME') ||
        line.startsWith('#EXT-X-GAP') ||
        line.startsWith('#EXT-X-BITRATE')
      ) {
        tagLines.push(line);
      }
    }
    // An implicit byte-range offset refers to the previous segment, which may not precede it any more.
    if (seg.byteRange !== undefined) tagLines.push(`#EXT-X-BYTERANGE:${seg.byteRange.length}@${seg.byteRange.offset}`);
    const h: HlsHistorySegment = {
      msn: seg.msn,
      discontinuitySequence: seg.discontinuitySequence,
      duration: seg.duration,
      uri: seg.uri,
      tagLines,
      keyLines: seg.keyLines.map((k) => playlist.lines[k] as string),
    };
    if (seg.mapLine !== undefined) h.mapLine = playlist.lines[seg.mapLine] as string;
    merged.push(h);
  }
  if (keepOld) for (const h of old) if (h.msn > s1) merged.push(h);
  const cut = Math.max(0, merged.length - history.maxSegments);
  return { maxSegments: history.maxSegments, segments: cut === 0 ? merged : merged.slice(cut) };
}
