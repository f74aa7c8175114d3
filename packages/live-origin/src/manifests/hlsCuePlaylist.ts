import { breakSplice } from '../scte35/breakSplice.js';
import { CUE_BREAK_SECONDS, segmentCue } from '../streams/CueSchedule.js';
import type { LiveClock } from '../streams/LiveClock.js';
import type { StreamSpec } from '../streams/StreamSpec.js';
import { hlsPlaylist } from './hlsPlaylist.js';
import { videoKbps } from './hlsPlaylists.js';

const iso = (ms: number) => new Date(ms).toISOString();
const hex = (b: Buffer) => `0x${b.toString('hex').toUpperCase()}`;

/**
 * The fMP4 stream with ad-break cues on the CueSchedule, in the two forms packagers write:
 * EXT-X-CUE-OUT / EXT-X-CUE-OUT-CONT / EXT-X-CUE-IN, and EXT-X-DATERANGE with the SCTE-35
 * splice_insert in SCTE35-OUT / SCTE35-IN (one ID per break). Cue tags precede the segment they
 * belong to: the break's first segment (out), each segment inside it, the first one after it (in).
 */
export function hlsCuePlaylist(s: StreamSpec, clock: LiveClock, nowMs: number): string {
  const L = s.segmentSeconds;
  const D = CUE_BREAK_SECONDS.toFixed(3);
  return hlsPlaylist({
    version: 7,
    targetDuration: L,
    first: clock.oldest(L, nowMs),
    last: clock.newest(L, nowMs),
    map: 'init.mp4',
    segment: (n) => {
      const cue = segmentCue(n, L);
      const before: string[] = [];
      if (cue) {
        const start = iso(clock.startMs(cue.brk.startSegment, L));
        const id = `ID="splice-${cue.brk.id}",START-DATE="${start}"`;
        if (cue.kind === 'out')
          before.push(
            `#EXT-X-DATERANGE:${id},PLANNED-DURATION=${D},SCTE35-OUT=${hex(breakSplice(cue.brk, L, true))}`,
            `#EXT-X-CUE-OUT:${D}`,
          );
        else if (cue.kind === 'cont') before.push(`#EXT-X-CUE-OUT-CONT:ElapsedTime=${cue.elapsedSeconds.toFixed(3)},Duration=${D}`);
        else before.push(`#EXT-X-DATERANGE:${id},DURATION=${D},SCTE35-IN=${hex(breakSplice(cue.brk, L, false))}`, '#EXT-X-CUE-IN');
      }
      return { uri: `${n}.m4s`, durationSeconds: L, pdtMs: clock.startMs(n, L), bitrateKbps: videoKbps(s), before };
    },
  });
}
