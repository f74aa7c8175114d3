import { describe, expect, it } from 'vitest';
import { parsePlaylistEdge } from '../src/latency/parsePlaylistEdge.js';

const T = Date.parse('2026-11-27T10:00:00.000Z');

describe('parsePlaylistEdge', () => {
  it('takes the newest whole segment: its sequence number and its production end', () => {
    const body = [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-MEDIA-SEQUENCE:41',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-27T10:00:00.000Z',
      '#EXTINF:2.000,',
      '41.m4s',
      '#EXTINF:2.000,',
      '42.m4s',
      '#EXTINF:1.500,',
      '43.m4s',
    ].join('\n');
    expect(parsePlaylistEdge(body)).toEqual({ sn: 43, endMs: T + 5_500, segMs: 2_000 });
  });

  it('follows a later program date-time; parts and the preload hint are not segments', () => {
    const body = [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-MEDIA-SEQUENCE:7',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-27T09:00:00.000Z',
      '#EXTINF:2.000,',
      '7.m4s',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-27T10:00:00.000Z',
      '#EXT-X-PART:DURATION=0.5,URI="8.0.m4s"',
      '#EXTINF:2.000,',
      '8.m4s',
      '#EXT-X-PART:DURATION=0.5,URI="9.0.m4s"',
      '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="9.1.m4s"',
    ].join('\n');
    expect(parsePlaylistEdge(body)).toEqual({ sn: 8, endMs: T + 2_000, segMs: 2_000 });
  });

  it('counts the segments a delta update skipped', () => {
    const body = [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:2',
      '#EXT-X-MEDIA-SEQUENCE:100',
      '#EXT-X-SKIP:SKIPPED-SEGMENTS=50',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-27T10:00:00.000Z',
      '#EXTINF:2.000,',
      '150.m4s',
    ].join('\n');
    expect(parsePlaylistEdge(body)).toEqual({ sn: 150, endMs: T + 2_000, segMs: 2_000 });
  });

  it('is null without a date-time, a segment or a target duration', () => {
    expect(parsePlaylistEdge('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts')).toBeNull();
    expect(parsePlaylistEdge('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PROGRAM-DATE-TIME:2026-11-27T10:00:00.000Z')).toBeNull();
    expect(parsePlaylistEdge('#EXTM3U\n#EXT-X-PROGRAM-DATE-TIME:2026-11-27T10:00:00.000Z\n#EXTINF:2,\na.ts')).toBeNull();
    expect(parsePlaylistEdge('')).toBeNull();
  });
});
