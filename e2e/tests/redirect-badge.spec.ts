import { expect, test, type Page } from '@playwright/test';
import { createEdgeConfig, startEdge, startMockRniServer, type MockRniServer } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
// @ts-expect-error plain ESM module without types
import { startDemoServer } from '@ethle/player-demo/server';

// An edge with `hold: auto` redirects (307) a receiver whose radio is slower than the bitrate
// (paper eq. 3) to the origin on sustained evidence; the player follows silently. The side-by-side
// page must say that its "edge" column is then not on the edge. Here the radio network (a MEC 012
// RNI service) reports the receiver's radio far below the 2 Mbit/s stream: the edge holds it on
// its first request and redirects it on the next (redirectSustainMs 0: the last two measurements;
// the default's 30 s of them would outlast the badge's wait, and the window is ethle-core's to test).
test.describe.configure({ mode: 'serial' });
let origin: LiveOrigin;
let edge: Awaited<ReturnType<typeof startEdge>>;
let demo: { url: string; close(): Promise<void> };
let rni: MockRniServer;

test.beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
  rni = await startMockRniServer();
  // Loopback with a told backhaul RTT: the paper's model, pinned (the default learns from the
  // origin's fetches, and loopback delivers like an origin that keeps its window).
  edge = await startEdge(
    createEdgeConfig({
      origin: origin.url,
      port: 0,
      hold: 'auto',
      backhaulRttMs: 20,
      segmentStart: 'slow-start',
      logLevel: 'silent',
      rni: { url: rni.url, cacheMs: 600_000 },
      redirectSustainMs: 0,
    }),
  );
  // The weakest signal the model knows: no throughput at all.
  await rni.report('127.0.0.1', { rsrp: 0, rsrq: 0 });
  demo = await startDemoServer({
    port: 0,
    config: { originUrl: origin.url, edgeUrl: edge.url, stream: '2M-2s', player: 'hls', scheme: 'auto' },
  });
});
test.afterAll(async () => {
  await demo?.close();
  await edge?.close();
  await rni?.close();
  await origin?.close();
});

/** Every `title` the "last video segment" field of a panel gets (the segment URL it shows). */
async function watchSegmentField(page: Page, col: string): Promise<void> {
  await page.waitForSelector(`#${col} [data-k="seg"]`);
  await page.evaluate((c) => {
    const el = document.querySelector(`#${c} [data-k="seg"]`)!;
    const seen: string[] = [];
    (window as any).segTitles = seen;
    new MutationObserver(() => seen.push((el as HTMLElement).title)).observe(el, { attributes: true, attributeFilter: ['title'] });
  }, col);
}

for (const player of ['hls', 'dash'] as const) {
  test(`${player}: a player the edge redirected to the origin is marked "not on the edge"`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`${demo.url}/?player=${player}`);
    const badge = page.locator('#edge .via');
    await expect(badge).toHaveAttribute('data-on', 'false', { timeout: 30_000 });
    await expect(badge).toHaveText(`not on the edge: redirected to ${origin.url}`);
    await expect(badge).toBeVisible();
    // What the badge says is what happened: the edge answered that player's manifest with a 307.
    const metrics = await (await fetch(`${edge.url}/metrics`)).text();
    expect(Number(/^ethle_redirects_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    // The same page on the single-player view.
    await page.goto(`${demo.url}/player.html?player=${player}&via=edge`);
    await expect(page.locator('#via')).toHaveAttribute('data-on', 'false', { timeout: 30_000 });

    if (player === 'dash') {
      // dash.js loads audio and video segments; the panel's "last video segment" is always video.
      await page.goto(`${demo.url}/?player=dash`);
      await watchSegmentField(page, 'origin');
      await expect.poll(() => page.evaluate(() => (window as any).segTitles.length), { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
      const audioSegments = await page.evaluate(
        () =>
          (window as any).demo.handles[0].probe.report().segments.list.filter((s: any) => s.kind === 'media' && s.track === 'audio').length,
      );
      expect(audioSegments).toBeGreaterThan(0); // audio was loaded meanwhile…
      const titles: string[] = await page.evaluate(() => (window as any).segTitles);
      for (const t of titles) expect(t).toMatch(/\/dash\/v\/\d+\.m4s/); // …and never shown
    }
  });
}
