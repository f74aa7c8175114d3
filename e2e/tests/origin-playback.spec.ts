import { expect, test } from '@playwright/test';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { openPlayer, playerErrors, waitForPlayback } from '../fixtures/playerPage.js';

// Real hls.js and dash.js in Debian Chromium play the live origin's three flavours for ≥ 10 s (five 2 s segments, as many playlist refreshes).
let origin: LiveOrigin;
test.beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
});
test.afterAll(() => origin?.close());

const cases = [
  { name: 'HLS fMP4', player: 'hls', path: '/live/2M-2s/index.m3u8' },
  { name: 'HLS TS', player: 'hls', path: '/live/2M-2s/ts/index.m3u8' },
  { name: 'DASH $Number$', player: 'dash', path: '/live/2M-2s/manifest.mpd' },
] as const;

for (const c of cases) {
  test(`${c.name} plays live for 10 s with a bounded distance to the live edge`, async ({ page }) => {
    test.setTimeout(90_000);
    await openPlayer(page, { base: origin.url, src: `${origin.url}${c.path}`, player: c.player });
    await waitForPlayback(page, 1);
    const firstT = await page.evaluate(() => (window as any).video.currentTime as number);
    const started = Date.now();
    const lags: number[] = [];
    let lastTime = -1;
    while (Date.now() - started < 10_000) {
      // Distance to the live edge: wall clock minus the production time of the frame on screen.
      // Both players expose it: hls.js via playingDate (from PDT), dash.js via timeAsUTC (from AST).
      const s = await page.evaluate(() => {
        const w = window as any;
        const t = w.video.currentTime as number;
        const wall = w.player.playingDate ? w.player.playingDate.getTime() : w.player.timeAsUTC ? w.player.timeAsUTC() * 1000 : NaN;
        return { t, lag: (Date.now() - wall) / 1000 };
      });
      expect(s.t).toBeGreaterThanOrEqual(lastTime);
      lastTime = s.t;
      if (Number.isFinite(s.lag)) lags.push(s.lag);
      await page.waitForTimeout(1000); // sampling cadence, not a stand-in for an event
    }
    const end = await page.evaluate(() => (window as any).video.currentTime as number);
    // Playback advanced in real time (allowing for a short rebuffer on this shared machine).
    expect(end - firstT).toBeGreaterThan(8);
    expect(await playerErrors(page)).toEqual([]);
    expect(lags.length).toBeGreaterThan(6);
    // Live: a few segments behind production, and not drifting away.
    expect(Math.max(...lags)).toBeLessThan(20);
    expect(Math.min(...lags)).toBeGreaterThan(0);
    expect(lags[lags.length - 1]! - lags[2]!).toBeLessThan(4);
  });
}
