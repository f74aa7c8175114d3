import type { LoopMedia } from '../media/LoopMedia.js';
import { CHUNK_SECONDS } from '../media/LoopMedia.js';
import type { LiveClock } from '../streams/LiveClock.js';
import type { StreamSpec } from '../streams/StreamSpec.js';
import { hlsPlaylist } from './hlsPlaylist.js';
import { videoKbps } from './hlsPlaylists.js';

/**
 * Video-only and audio-only media playlists over the DASH segments (`dash/v`, `dash/a`), for the
 * multivariant playlist with a separate audio rendition. Video segments are padded like every
 * other (EXTINF = L); audio segments are not padded and are whole AAC frames, so their EXTINF, PDT
 * and EXT-X-BITRATE are their real durations, start times and sizes (within one AAC frame, 21 ms, of n·L).
 */
export function hlsTrackPlaylist(s: StreamSpec, clock: LiveClock, media: LoopMedia, track: 'v' | 'a', nowMs: number): string {
  const L = s.segmentSeconds;
  const k = L / CHUNK_SECONDS;
  const scale = media.timescale(track);
  const t = (n: number) => media.chunkDecodeTime(track, n * k) / scale; // seconds since T0
  return hlsPlaylist({
    version: 7,
    targetDuration: L,
    first: clock.oldest(L, nowMs),
    last: clock.newest(L, nowMs),
    map: `dash/${track}/init.mp4`,
    segment: (n) =>
      track === 'v'
        ? { uri: `dash/v/${n}.m4s`, durationSeconds: L, pdtMs: clock.startMs(n, L), bitrateKbps: videoKbps(s) }
        : {
            uri: `dash/a/${n}.m4s`,
            durationSeconds: t(n + 1) - t(n),
            pdtMs: clock.t0Ms + t(n) * 1000,
            bitrateKbps: Math.round((media.mp4SegmentSize('a', n * k, k) * 8) / L / 1000),
          },
  });
}

/**
 * Multivariant playlist whose variants (one per stream of one segment length) play video-only
 * media playlists with one separate audio rendition (EXT-X-MEDIA TYPE=AUDIO, the first stream's
 * `audio.m3u8`: every stream carries the same audio).
 */
export function hlsAudioRenditionPlaylist(streams: StreamSpec[], media: LoopMedia): string {
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Audio",LANGUAGE="und",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="1",URI="${streams[0]!.name}/audio.m3u8"`,
  ];
  const codecs = [...media.codecs('v'), ...media.codecs('a')].join(',');
  for (const s of streams) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${Math.round(s.bitrateMbps * 1e6 + 32_000)},CODECS="${codecs}",RESOLUTION=320x180,FRAME-RATE=25.000,AUDIO="aac"`,
      `${s.name}/video.m3u8`,
    );
  }
  return `${lines.join('\n')}\n`;
}
