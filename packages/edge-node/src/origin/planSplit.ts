import type { SplitFetch } from './SegmentFetchOptions.js';

/** Below this many bytes per part a range split costs more round trips than it saves. */
export const MIN_PART_BYTES = 256 * 1024;

/**
 * The byte ranges a segment fetch really uses (1 = one plain request). No split when the origin
 * was seen to ignore Range, or when the object could not fit the budget whole twice over: parts
 * wait in the assembler for the ones before them, so a split object must fit whole (one that
 * cannot streams through, unsplit). Never more parts than MIN_PART_BYTES pieces of the estimate.
 */
export function planSplit(o: { split: SplitFetch | undefined; rangesIgnored: boolean; maxBytes: number }): number {
  const { split } = o;
  if (split === undefined || o.rangesIgnored || split.approxBytes * 2 > o.maxBytes) return 1;
  return Math.max(1, Math.min(split.parts, Math.floor(split.approxBytes / MIN_PART_BYTES)));
}
