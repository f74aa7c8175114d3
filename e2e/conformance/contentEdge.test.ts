import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { dashContentEdge, firstVariant, hlsContentEdge } from './contentEdge.js';

const T = Date.parse('2026-11-27T10:00:00.000Z');

describe('hlsContentEdge', () => {
  const pl = [
    '#EXTM3U',
    '#EXT-X-TARGETDURATION:2',
    '#EXT-X-PART-INF:PART-TARGET=0.5',
    '#EXT-X-MEDIA-SEQUENCE:10',
    '#EXT-X-PROGRAM-DATE-TIME:2026-11-27T10:00:00.000Z',
    '#EXT-X-PART:DURATION=0.5,URI="10.0.m4s"',
    '#EXT-X-PART:DURATION=0.5,URI="10.1.m4s"',
    '#EXT-X-PART:DURATION=0.5,URI="10.2.m4s"',
    '#EXT-X-PART:DURATION=0.5,URI="10.3.m4s"',
    '#EXTINF:2.000,',
    '10.m4s',
    '#EXTINF:2.000,',
    '11.m4s',
    '#EXT-X-PART:DURATION=0.5,URI="12.0.m4s"',
    '#EXT-X-PART:DURATION=0.5,URI="12.1.m4s"',
    '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="12.2.m4s"',
  ].join('\n');
  it('reaches the newest whole segment, or with parts the newest part of the one in production', () => {
    expect(hlsContentEdge(pl, false)).toBe((T + 4_000) / 1000);
    expect(hlsContentEdge(pl, true)).toBe((T + 5_000) / 1000);
  });
  it('is null without a date-time or a segment', () => {
    expect(hlsContentEdge('#EXTM3U\n#EXTINF:2,\na.ts', false)).toBeNull();
    expect(hlsContentEdge('#EXTM3U\n#EXT-X-PROGRAM-DATE-TIME:2026-11-27T10:00:00Z', true)).toBeNull();
  });
  it('follows a multivariant playlist to its first variant', () => {
    expect(firstVariant('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n2M-2s/ll/index.m3u8\n', 'http://e/live/master-ll.m3u8?seconds=2')).toBe(
      'http://e/live/2M-2s/ll/index.m3u8',
    );
    expect(firstVariant(pl, 'http://e/x.m3u8')).toBeNull();
  });
});

describe('dashContentEdge on the live origin’s MPDs', () => {
  let origin: LiveOrigin;
  beforeAll(async () => {
    origin = await startOrigin({ port: 0, streams: ['2M-2s'], periodSeconds: 20 });
  });
  afterAll(() => origin.close());
  const mpd = async (name: string) => (await fetch(`${origin.url}/live/2M-2s/${name}`)).text();

  it.each(['manifest.mpd', 'timeline.mpd', 'periods.mpd', 'list.mpd', 'll.mpd'])('%s reaches the newest complete segment', async (name) => {
    const now = Date.now();
    const newestEnd = Math.floor((now - origin.t0Ms) / 2000) * 2; // media s of the newest complete segment's end
    // A list or timeline says what was complete when the MPD was made; a template, what is at `now`.
    expect(Math.abs(dashContentEdge(await mpd(name), now, 2)! - newestEnd)).toBeLessThanOrEqual(2);
  });

  it('an availabilityStartTime 4 s later reaches 4 s less content, on average over a segment', async () => {
    const text = await mpd('manifest.mpd');
    const ast = Date.parse(/availabilityStartTime="([^"]+)"/.exec(text)![1]!);
    const held = text.replace(/availabilityStartTime="[^"]+"/, `availabilityStartTime="${new Date(ast + 4_000).toISOString()}"`);
    const lags: number[] = [];
    for (let t = Date.now(); lags.length < 8; t += 250) lags.push(dashContentEdge(text, t, 2)! - dashContentEdge(held, t, 2)!);
    expect(lags.reduce((a, b) => a + b, 0) / lags.length).toBeCloseTo(4, 6);
  });
});
