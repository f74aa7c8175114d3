import { CHUNK_SECONDS, LOOP_CHUNKS } from '../media/LoopMedia.js';
import type { LiveClock } from './LiveClock.js';

/** Media times of the parts of one 2 s loop chunk, seconds from the chunk start (`LoopMedia.partTimes`). */
export type ChunkPartTimes = (g: number) => readonly { startSeconds: number; endSeconds: number; independent: boolean }[];

/** Part j of segment n, on the wall clock. */
export interface LlPart {
  msn: number;
  index: number;
  /** Production of its first and last frame: it is complete (and listed) at endMs. */
  startMs: number;
  endMs: number;
  durationSeconds: number;
  independent: boolean;
  /** The loop chunk it belongs to and its index there. */
  chunk: number;
  indexInChunk: number;
}

/**
 * When each low-latency part of a stream is produced. Parts subdivide the 2 s loop chunks (so
 * `partSeconds` divides 2), cut at video frames: with 25 fps and 0.5 s parts they last 0.52 and
 * 0.48 s in turn (12.5 frames cannot be cut). Segment n still spans [T0 + n·L, T0 + (n+1)·L), and
 * its last part completes exactly when the segment does.
 */
export class LlParts {
  readonly perChunk: number;
  readonly perSegment: number;
  /** The longest part (EXT-X-PART-INF PART-TARGET), seconds. */
  readonly partTargetSeconds: number;

  constructor(
    readonly clock: LiveClock,
    readonly segmentSeconds: number,
    readonly partSeconds: number,
    private readonly times: ChunkPartTimes,
  ) {
    this.perChunk = times(0).length;
    this.perSegment = (segmentSeconds / CHUNK_SECONDS) * this.perChunk;
    let longest = 0;
    for (let g = 0; g < LOOP_CHUNKS; g++) for (const t of times(g)) longest = Math.max(longest, t.endSeconds - t.startSeconds);
    this.partTargetSeconds = Math.ceil(longest * 1000 - 1e-6) / 1000;
  }

  part(msn: number, index: number): LlPart {
    const k = this.segmentSeconds / CHUNK_SECONDS;
    const chunk = msn * k + Math.floor(index / this.perChunk);
    const i = index % this.perChunk;
    const t = this.times(chunk)[i]!;
    const chunkStart = this.clock.t0Ms + chunk * CHUNK_SECONDS * 1000;
    // The last part of a chunk ends with the chunk, whatever the audio's own frame grid says.
    const end = i === this.perChunk - 1 ? CHUNK_SECONDS : t.endSeconds;
    return {
      msn,
      index,
      startMs: chunkStart + t.startSeconds * 1000,
      endMs: chunkStart + end * 1000,
      durationSeconds: end - t.startSeconds,
      independent: t.independent,
      chunk,
      indexInChunk: i,
    };
  }

  /** The newest complete part at nowMs (index perSegment − 1 of the newest segment at a boundary). */
  newest(nowMs: number): { msn: number; index: number } {
    const inProgress = this.clock.newest(this.segmentSeconds, nowMs) + 1;
    let j = -1;
    while (j + 1 < this.perSegment && this.part(inProgress, j + 1).endMs <= nowMs) j++;
    return j < 0 ? { msn: inProgress - 1, index: this.perSegment - 1 } : { msn: inProgress, index: j };
  }

  /** A part's place on one axis (segment·parts + index), to compare and subtract parts. */
  ordinal(msn: number, index: number): number {
    return msn * this.perSegment + index;
  }
}
