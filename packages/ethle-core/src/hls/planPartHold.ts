import type { HlsMediaSegment, HlsPart } from './HlsMediaPlaylist.js';
import type { MediaPlaylistScan } from './scanMediaPlaylist.js';

/** One listed part, with its parent. `seg` is the index of its complete segment, or -1 for the segment in progress. */
export interface ListedPart {
  part: HlsPart;
  msn: number;
  index: number;
  seg: number;
}

/**
 * The listed parts, newest first: those of the segment in progress, then those of the complete
 * segments before it, back to the first complete segment that lists none (RFC 8216bis lists parts
 * only near the live edge, so older segments have none).
 */
export function listedPartsNewestFirst(scan: MediaPlaylistScan): ListedPart[] {
  const p = scan.playlist;
  const out: ListedPart[] = [];
  const ps = p.partialSegment;
  if (ps !== undefined)
    for (let j = ps.parts.length - 1; j >= 0; j--) out.push({ part: ps.parts[j] as HlsPart, msn: ps.msn, index: j, seg: -1 });
  for (let s = p.segments.length - 1; s >= 0; s--) {
    const seg = p.segments[s] as HlsMediaSegment;
    if (seg.parts.length === 0) break;
    for (let j = seg.parts.length - 1; j >= 0; j--) out.push({ part: seg.parts[j] as HlsPart, msn: seg.msn, index: j, seg: s });
  }
  return out;
}

/** How many complete segments leave the list when the newest `n` listed parts are held (whole or partly held). */
export function segmentsTouched(tail: readonly ListedPart[], n: number, segmentCount: number): number {
  if (n === 0) return 0;
  const oldest = tail[n - 1] as ListedPart;
  return oldest.seg < 0 ? 0 : segmentCount - oldest.seg;
}

/** The most parts that can be held while at most `x` complete segments leave the list. */
export function partsWithin(tail: readonly ListedPart[], x: number, segmentCount: number): number {
  let n = 0;
  while (n < tail.length && (tail[n] as ListedPart).seg < 0) n++;
  while (n < tail.length && segmentCount - (tail[n] as ListedPart).seg <= x) n++;
  return n;
}
