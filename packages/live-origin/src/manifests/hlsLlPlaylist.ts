import type { LlParts } from '../streams/LlParts.js';
import type { StreamSpec } from '../streams/StreamSpec.js';
import { videoKbps } from './hlsPlaylists.js';

export interface HlsLlPlaylistOptions {
  /** A delta update (`_HLS_skip=YES`): segments older than CAN-SKIP-UNTIL go into one EXT-X-SKIP. */
  skip: boolean;
  /** Other streams of the same multivariant playlist (EXT-X-RENDITION-REPORT each). */
  reports: readonly StreamSpec[];
}

/** Complete segments whose parts are still listed (with the one in progress ≥ 3 target durations, RFC 8216bis §6.2.2). */
const SEGMENTS_WITH_PARTS = 3;

const sec = (s: number) => s.toFixed(3);
const iso = (ms: number) => new Date(Math.round(ms)).toISOString();

/** Server-control values of an LL playlist, seconds (the spec's minimums: 3 parts, 3 and 6 target durations). */
export function llServerControl(parts: LlParts): { holdBack: number; partHoldBack: number; canSkipUntil: number } {
  return {
    holdBack: 3 * parts.segmentSeconds,
    partHoldBack: Number((3 * parts.partTargetSeconds).toFixed(3)),
    canSkipUntil: 6 * parts.segmentSeconds,
  };
}

/**
 * The LL-HLS media playlist (RFC 8216bis) of one stream at nowMs: the live window of complete
 * segments `{n}.m4s`, the parts `{n}.{j}.m4s` of the newest three and of the segment in progress,
 * a preload hint for the part being produced, and rendition reports for the other streams.
 */
export function hlsLlPlaylist(s: StreamSpec, parts: LlParts, nowMs: number, o: HlsLlPlaylistOptions): string {
  const L = s.segmentSeconds;
  const clock = parts.clock;
  const first = clock.oldest(L, nowMs);
  const newest = parts.newest(nowMs);
  const last = clock.newest(L, nowMs); // newest complete segment
  const sc = llServerControl(parts);
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:9',
    `#EXT-X-TARGETDURATION:${L}`,
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=${sc.canSkipUntil},HOLD-BACK=${sc.holdBack},PART-HOLD-BACK=${sec(sc.partHoldBack)}`,
    `#EXT-X-PART-INF:PART-TARGET=${sec(parts.partTargetSeconds)}`,
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
    '#EXT-X-MAP:URI="init.mp4"',
  ];
  // Skip what starts more than CAN-SKIP-UNTIL before the end of the last complete segment.
  const keepFrom = o.skip ? Math.max(first, last + 1 - sc.canSkipUntil / L) : first;
  if (keepFrom > first) lines.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${keepFrom - first}`);
  const partLines = (n: number, upTo: number) => {
    for (let j = 0; j <= upTo; j++) {
      const p = parts.part(n, j);
      lines.push(`#EXT-X-PART:DURATION=${sec(p.durationSeconds)},URI="${n}.${j}.m4s"${p.independent ? ',INDEPENDENT=YES' : ''}`);
    }
  };
  for (let n = keepFrom; n <= last; n++) {
    lines.push(`#EXT-X-BITRATE:${videoKbps(s)}`, `#EXT-X-PROGRAM-DATE-TIME:${iso(clock.startMs(n, L))}`);
    if (n > last - SEGMENTS_WITH_PARTS) partLines(n, parts.perSegment - 1);
    lines.push(`#EXTINF:${sec(L)},`, `${n}.m4s`);
  }
  // The segment in progress: its complete parts, then a hint for the part being produced.
  const inProgress = last + 1;
  const done = newest.msn === inProgress ? newest.index : -1;
  if (done >= 0) {
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${iso(clock.startMs(inProgress, L))}`);
    partLines(inProgress, done);
  }
  lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${inProgress}.${done + 1}.m4s"`);
  for (const r of o.reports) {
    // Every stream of one segment length shares the clock and the part grid: the same last part.
    lines.push(`#EXT-X-RENDITION-REPORT:URI="../../${r.name}/ll/index.m3u8",LAST-MSN=${newest.msn},LAST-PART=${newest.index}`);
  }
  return `${lines.join('\n')}\n`;
}
