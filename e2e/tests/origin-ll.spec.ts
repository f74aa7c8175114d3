import { expect, test, type Page } from '@playwright/test';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { openPlayer, playerErrors, waitForPlayback } from '../fixtures/playerPage.js';

// Real hls.js (lowLatencyMode) and dash.js (low-latency mode, live catch-up) in Debian Chromium play
// the origin's low-latency renditions directly (no edge) for about 15 s each: no player error, the
// player used the LL mechanisms (parts and blocking reloads; chunked segments), and its live latency
// stays well under what a 2 s-segment stream gets without them (HOLD-BACK alone is 6 s).
let origin: LiveOrigin;
test.beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
});
test.afterAll(() => origin?.close());
test.beforeEach(() => origin.resetStats());

const requests = (re: RegExp) =>
  Object.entries(origin.stats().requests)
    .filter(([p]) => re.test(p))
    .reduce((a, [, n]) => a + n, 0);

/** The player's live latency (s), sampled every 250 ms over `seconds` of wall-clock play. */
async function latencies(page: Page, read: () => number, seconds: number): Promise<number[]> {
  const out: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    out.push(await page.evaluate(read));
    await page.waitForTimeout(250); // a sampling interval, not a wait for an event
  }
  return out;
}

test('LL-HLS: hls.js lowLatencyMode plays ll/index.m3u8 with parts and blocking reloads, latency under 4 s', async ({ page }) => {
  await openPlayer(page, {
    base: origin.url,
    src: `${origin.url}/live/2M-2s/ll/index.m3u8`,
    player: 'hls',
    config: { lowLatencyMode: true },
  });
  await waitForPlayback(page, 8);
  const lat = await latencies(page, () => (window as any).player.latency as number, 6);
  expect(await playerErrors(page)).toEqual([]);
  const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
  console.log(`hls.js LL latency: mean ${mean.toFixed(2)} s, max ${Math.max(...lat).toFixed(2)} s over ${lat.length} samples`);
  expect(mean).toBeLessThan(4);
  expect(requests(/\/ll\/\d+\.\d+\.m4s$/)).toBeGreaterThanOrEqual(8); // parts, not whole segments
  expect(requests(/\/ll\/index\.m3u8$/)).toBeGreaterThanOrEqual(8); // a (blocking) reload per part
});

test('LL-DASH: dash.js low-latency mode plays ll.mpd from chunked segments, latency under 4 s', async ({ page }) => {
  await openPlayer(page, {
    base: origin.url,
    src: `${origin.url}/live/2M-2s/ll.mpd`,
    player: 'dash',
    config: { streaming: { liveCatchup: { enabled: true } } },
  });
  await waitForPlayback(page, 8);
  expect(await page.evaluate(() => (window as any).player.getLowLatencyModeEnabled() as boolean)).toBe(true);
  const lat = await latencies(page, () => (window as any).player.getCurrentLiveLatency() as number, 6);
  expect(await playerErrors(page)).toEqual([]);
  const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
  console.log(`dash.js LL latency: mean ${mean.toFixed(2)} s, max ${Math.max(...lat).toFixed(2)} s over ${lat.length} samples`);
  expect(mean).toBeLessThan(4);
  expect(requests(/\/ll\/dash\/v\/\d+\.m4s$/)).toBeGreaterThanOrEqual(4);
});
