/**
 * The ad breaks of the SCTE-35 cue streams (`cues.m3u8`, `cues.mpd`): break b starts at media time
 * b·CUE_EVERY_SECONDS and lasts CUE_BREAK_SECONDS. Both divide by every segment length (2, 4, 10 s),
 * so a break starts and ends on segment boundaries; and with the default 120 s window every
 * manifest shows at least one whole break.
 */
export const CUE_EVERY_SECONDS = 60;
export const CUE_BREAK_SECONDS = 20;

export interface CueBreak {
  /** Break number b; also the splice_event_id. */
  id: number;
  /** First segment of the break (media time b·CUE_EVERY_SECONDS). */
  startSegment: number;
  /** Segments in the break. */
  segments: number;
}

/** Where segment n of an L-second stream stands in the break schedule. */
export type SegmentCue =
  | { kind: 'out'; brk: CueBreak } // the break starts with this segment
  | { kind: 'cont'; brk: CueBreak; elapsedSeconds: number } // inside the break
  | { kind: 'in'; brk: CueBreak } // the first segment after the break
  | undefined;

export function cueBreak(id: number, segmentSeconds: number): CueBreak {
  return { id, startSegment: (id * CUE_EVERY_SECONDS) / segmentSeconds, segments: CUE_BREAK_SECONDS / segmentSeconds };
}

export function segmentCue(n: number, segmentSeconds: number): SegmentCue {
  const brk = cueBreak(Math.floor((n * segmentSeconds) / CUE_EVERY_SECONDS), segmentSeconds);
  const i = n - brk.startSegment;
  if (i === 0) return { kind: 'out', brk };
  if (i < brk.segments) return { kind: 'cont', brk, elapsedSeconds: i * segmentSeconds };
  if (i === brk.segments) return { kind: 'in', brk };
  return undefined;
}
