import { CUE_BREAK_SECONDS, type CueBreak } from '../streams/CueSchedule.js';
import { spliceInsert } from './spliceInsert.js';

/** The splice_insert of a break's start (out, with its duration) or end (in), at that segment's media time. */
export function breakSplice(brk: CueBreak, segmentSeconds: number, out: boolean): Buffer {
  const at = out ? brk.startSegment : brk.startSegment + brk.segments;
  return spliceInsert({
    eventId: brk.id,
    outOfNetwork: out,
    pts90k: at * segmentSeconds * 90_000,
    ...(out ? { duration90k: CUE_BREAK_SECONDS * 90_000 } : {}),
  });
}
