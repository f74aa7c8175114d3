import { expect, test, type Page } from '@playwright/test';
import { availableSegments, parseMpd } from '@ethle/core';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { openPlayer, playerErrors, waitForPlayback } from '../fixtures/playerPage.js';

// Real hls.js and dash.js in Debian Chromium play each of the origin's extra stream shapes
// directly (no edge), briefly: a few seconds of playback each, no player error, and the player
// used the shape (ranges, the audio rendition, Periods, Location, cues) as meant.
const PERIOD = 6; // s: short Periods, so a few seconds of playback cross a Period boundary
let origin: LiveOrigin;
test.beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: ['2M-2s'], periodSeconds: PERIOD, segmentsPerFile: 3 });
});
test.afterAll(() => origin?.close());
test.beforeEach(() => origin.resetStats());

const play = async (page: Page, player: 'hls' | 'dash', path: string, seconds: number) => {
  await openPlayer(page, { base: origin.url, src: `${origin.url}${path}`, player });
  await waitForPlayback(page, seconds);
  expect(await playerErrors(page)).toEqual([]);
};
const requests = (re: RegExp) =>
  Object.entries(origin.stats().requests)
    .filter(([p]) => re.test(p))
    .reduce((a, [, n]) => a + n, 0);

test('HLS byte ranges: hls.js plays the segments as ranges of shared files', async ({ page }) => {
  await play(page, 'hls', '/live/2M-2s/byterange.m3u8', 6);
  const s = origin.stats();
  expect(requests(/\/br\/\d+\.m4s$/)).toBeGreaterThanOrEqual(3);
  // Ranges, not whole files: more requests than fetches from byte 0.
  const files = Object.keys(s.requests).filter((p) => p.includes('/br/'));
  expect(files.reduce((a, p) => a + s.requests[p]!, 0)).toBeGreaterThan(files.reduce((a, p) => a + (s.fetches[p] ?? 0), 0));
  expect(requests(/\/live\/2M-2s\/\d+\.m4s$/)).toBe(0);
});

test('HLS SCTE-35 cues: hls.js plays on and reads the splices as valid date ranges', async ({ page }) => {
  await play(page, 'hls', '/live/2M-2s/cues.m3u8', 6);
  const ranges = await page.evaluate(() =>
    Object.values((window as any).player.latestLevelDetails.dateRanges as Record<string, any>).map((d) => ({
      id: d.id,
      valid: d.isValid,
      out: 'SCTE35-OUT' in d.attr,
      in: 'SCTE35-IN' in d.attr,
    })),
  );
  expect(ranges.length).toBeGreaterThanOrEqual(1); // a 120 s window holds two breaks
  for (const r of ranges) expect(r).toMatchObject({ id: expect.stringMatching(/^splice-\d+$/), valid: true });
  expect(ranges.some((r) => r.out)).toBe(true);
});

test('HLS multivariant with a separate audio rendition: hls.js plays video and the audio playlist', async ({ page }) => {
  await play(page, 'hls', '/live/master-audio.m3u8?seconds=2', 6);
  expect(await page.evaluate(() => (window as any).player.audioTracks.length)).toBe(1);
  expect(requests(/\/live\/2M-2s\/dash\/a\/\d+\.m4s$/)).toBeGreaterThanOrEqual(2);
  expect(requests(/\/live\/2M-2s\/dash\/v\/\d+\.m4s$/)).toBeGreaterThanOrEqual(2);
  expect(requests(/\/live\/2M-2s\/audio\.m3u8$/)).toBeGreaterThanOrEqual(2); // live: reloaded
});

for (const [name, path] of [
  ['SegmentTimeline', '/live/2M-2s/periods.mpd'],
  ['SegmentList', '/live/2M-2s/list.mpd'],
] as const) {
  test(`DASH multi-period ${name}: dash.js plays across a Period boundary`, async ({ page }) => {
    await openPlayer(page, { base: origin.url, src: `${origin.url}${path}`, player: 'dash' });
    await waitForPlayback(page, 0.1);
    const period = () => page.evaluate(() => (window as any).player.getActiveStream()?.getStreamInfo()?.id as string | undefined);
    const first = await period();
    expect(first).toMatch(/^p\d+$/);
    // Within a Period and a bit of playback, dash.js moves into the next one.
    await expect.poll(period, { timeout: (PERIOD + 6) * 1000, intervals: [250] }).not.toBe(first);
    expect(Number((await period())!.slice(1))).toBe(Number(first!.slice(1)) + 1);
    await waitForPlayback(page, 1);
    expect(await playerErrors(page)).toEqual([]);
  });
}

test('DASH Location + absolute BaseURL: dash.js plays, refreshing the MPD', async ({ page }) => {
  await play(page, 'dash', '/live/2M-2s/location.mpd', 6);
  expect(requests(/\/location\.mpd$/)).toBeGreaterThanOrEqual(3);
});

test('DASH SCTE-35 EventStream: dash.js plays', async ({ page }) => {
  await play(page, 'dash', '/live/2M-2s/cues.mpd', 6);
});

test('dash.js plays timeline.mpd past the first MPD: it refreshes the SegmentTimeline', async ({ page }) => {
  const L = 2;
  const firstMpd = page.waitForResponse((r) => r.url().endsWith('/live/2M-2s/timeline.mpd'));
  await openPlayer(page, { base: origin.url, src: `${origin.url}/live/2M-2s/timeline.mpd`, player: 'dash' });
  // The end of the first MPD's last segment, in seconds since AST (= the video's currentTime here:
  // one Period from AST, presentationTimeOffset 0).
  const info = parseMpd(await (await firstMpd).text());
  const lastEnd = Math.max(...availableSegments(info, Date.now(), { maxPerRepresentation: 1000 }).map((s) => s.endSeconds));
  await page.waitForFunction((t) => (window as any).video.currentTime > t, lastEnd + 3 * L, { timeout: 30_000, polling: 250 });
  expect(requests(/\/timeline\.mpd$/)).toBeGreaterThanOrEqual(3);
  expect(await playerErrors(page)).toEqual([]);
});
