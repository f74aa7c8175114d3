import type { LiveClock } from '../streams/LiveClock.js';
import type { StreamSpec } from '../streams/StreamSpec.js';
import { hlsPlaylist } from './hlsPlaylist.js';

/** The nominal EXT-X-BITRATE of a stream's padded video segments, kbit/s. */
export const videoKbps = (s: StreamSpec) => Math.round((s.segmentBytes * 8) / s.segmentSeconds / 1000);

/**
 * Live media playlist (RFC 8216) over the current window: fMP4 with EXT-X-MAP, or MPEG-TS.
 * EXT-X-PROGRAM-DATE-TIME on every segment = the production time of its first frame.
 * EXT-X-BITRATE on every segment (its nominal size, kbit/s): an edge learns s_seg from the playlist
 * instead of waiting for a segment's headers, and holding or a sliding window never strands it.
 */
export function hlsMediaPlaylist(s: StreamSpec, clock: LiveClock, flavour: 'fmp4' | 'ts', nowMs: number): string {
  const L = s.segmentSeconds;
  return hlsPlaylist({
    version: flavour === 'fmp4' ? 7 : 3,
    targetDuration: L,
    first: clock.oldest(L, nowMs),
    last: clock.newest(L, nowMs),
    ...(flavour === 'fmp4' ? { map: 'init.mp4' } : {}),
    segment: (n) => ({
      uri: flavour === 'fmp4' ? `${n}.m4s` : `${n}.ts`,
      durationSeconds: L,
      pdtMs: clock.startMs(n, L),
      bitrateKbps: videoKbps(s),
    }),
  });
}

/** Multivariant playlist over the given streams (all of one segment length); `media` is each stream's playlist path. */
export function hlsMultivariantPlaylist(streams: StreamSpec[], codecs: string[], media = 'index.m3u8'): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const s of streams) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${Math.round(s.bitrateMbps * 1e6)},CODECS="${codecs.join(',')}",RESOLUTION=320x180,FRAME-RATE=25.000`,
      `${s.name}/${media}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
