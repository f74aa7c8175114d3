import type { LiveClock } from '../streams/LiveClock.js';
import type { StreamSpec } from '../streams/StreamSpec.js';
import { hlsPlaylist } from './hlsPlaylist.js';

export interface ByteRangeLayout {
  /** Segments per file: segment n is in file ⌊n / N⌋. */
  segmentsPerFile: number;
  /** Exact length of segment n in bytes (the same bytes as `{n}.m4s`). */
  segmentLength(n: number): number;
}

/** Where segment n lies: file `br/{file}.m4s`, bytes [offset, offset + length). */
export function byteRangeOf(n: number, layout: ByteRangeLayout): { file: number; offset: number; length: number } {
  const file = Math.floor(n / layout.segmentsPerFile);
  let offset = 0;
  for (let m = file * layout.segmentsPerFile; m < n; m++) offset += layout.segmentLength(m);
  return { file, offset, length: layout.segmentLength(n) };
}

/**
 * The fMP4 stream as EXT-X-BYTERANGE segments, N to a file (`br/{f}.m4s`), as packagers that write
 * one file per several segments publish it. The file grows as its segments are produced; each
 * listed range is complete.
 */
export function hlsByteRangePlaylist(s: StreamSpec, clock: LiveClock, nowMs: number, layout: ByteRangeLayout): string {
  const L = s.segmentSeconds;
  return hlsPlaylist({
    version: 7,
    targetDuration: L,
    first: clock.oldest(L, nowMs),
    last: clock.newest(L, nowMs),
    map: 'init.mp4',
    segment: (n) => {
      const { file, offset, length } = byteRangeOf(n, layout);
      return {
        uri: `br/${file}.m4s`,
        durationSeconds: L,
        pdtMs: clock.startMs(n, L),
        bitrateKbps: Math.round((length * 8) / L / 1000),
        byteRange: { length, offset },
      };
    },
  });
}
