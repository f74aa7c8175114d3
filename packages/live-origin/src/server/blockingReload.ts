import type { LlParts } from '../streams/LlParts.js';

export type BlockingReload =
  /** Answer at atMs (now or later): when the requested part or segment is in the playlist. */
  | { kind: 'at'; atMs: number }
  /** Too far ahead: 400 at once (RFC 8216bis §6.2.5.2). */
  | { kind: 'too-far'; message: string };

/**
 * When a blocking playlist request `_HLS_msn=M[&_HLS_part=P]` can be answered (RFC 8216bis
 * §6.2.5.2): once part P of segment M is listed, or without P once segment M is complete. A part
 * index past the segment's last part means part 0 of the next segment. More than two segments past
 * the last complete one, or more parts ahead than the Advance Part Limit (3 / PART-TARGET parts if
 * PART-TARGET < 1 s, else 3), is refused.
 */
export function blockingReload(parts: LlParts, nowMs: number, msn: number, part: number | undefined): BlockingReload {
  const lastSegment = parts.clock.newest(parts.segmentSeconds, nowMs);
  if (msn > lastSegment + 2)
    return { kind: 'too-far', message: `_HLS_msn=${msn} is more than two segments past the last one (${lastSegment})` };
  if (part === undefined) return { kind: 'at', atMs: parts.clock.endMs(msn, parts.segmentSeconds) };
  let m = msn;
  let p = part;
  if (p >= parts.perSegment) {
    m += 1;
    p = 0;
  }
  const newest = parts.newest(nowMs);
  const limit = parts.partTargetSeconds < 1 ? Math.floor(3 / parts.partTargetSeconds) : 3;
  const ahead = parts.ordinal(m, p) - parts.ordinal(newest.msn, newest.index);
  if (ahead > limit)
    return { kind: 'too-far', message: `_HLS_msn=${msn}&_HLS_part=${part} is ${ahead} parts past the last one (limit ${limit})` };
  return { kind: 'at', atMs: parts.part(m, p).endMs };
}
