import type { LiveClock } from '../streams/LiveClock.js';
import type { StreamSpec } from '../streams/StreamSpec.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Live media playlist (RFC 8216) over the current window: fMP4 with EXT-X-MAP, or MPEG-TS.
 * EXT-X-PROGRAM-DATE-TIME on every segment = the production time of its first frame.
 * EXT-X-BITRATE on every segment (its nominal size, kbit/s): an edge learns s_seg from the playlist
 * instead of waiting for a segment's headers, and holding or a sliding window never strands it.
 */
export function hlsMediaPlaylist(s: StreamSpec, clock: LiveClock, flavour: 'fmp4' | 'ts', nowMs: number): string {
  const L = s.segmentSeconds;
  const first = clock.oldest(L, nowMs);
  const last = clock.newest(L, nowMs);
  const lines = [
    '#EXTM3U',
    `#EXT-X-VERSION:${flavour === 'fmp4' ? 7 : 3}`,
    `#EXT-X-TARGETDURATION:${L}`,
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  if (flavour === 'fmp4') lines.push('#EXT-X-MAP:URI="init.mp4"');
  const kbps = Math.round((s.segmentBytes * 8) / L / 1000);
  for (let n = first; n <= last; n++) {
    lines.push(`#EXT-X-BITRATE:${kbps}`, `#EXT-X-PROGRAM-DATE-TIME:${iso(clock.startMs(n, L))}`, `#EXTINF:${L.toFixed(3)},`, flavour === 'fmp4' ? `${n}.m4s` : `${n}.ts`);
  }
  return `${lines.join('\n')}\n`;
}

/** Multivariant playlist over the given streams (all of one segment length). */
export function hlsMultivariantPlaylist(streams: StreamSpec[], codecs: string[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const s of streams) {
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${Math.round(s.bitrateMbps * 1e6)},CODECS="${codecs.join(',')}",RESOLUTION=320x180,FRAME-RATE=25.000`, `${s.name}/index.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}
