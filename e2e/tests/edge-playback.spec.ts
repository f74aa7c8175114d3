import { expect, test } from '@playwright/test';
import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { openPlayer, playerErrors } from '../fixtures/playerPage.js';

// Real hls.js and dash.js in Debian Chromium play 2M-2s through the edge with --hold 2; every
// media segment the player requests must trail the origin's newest by ≥ 2 segments. "Newest at
// the origin when the player asked" comes from the interface header X-Ethle-Production-End: the
// origin had produced k more segments after segment n once request time ≥ productionEnd(n) + k·2 s.

const SEGMENT_SECONDS = 2;
const HOLD = 2;
let origin: LiveOrigin | undefined;
let edge: RunningEdge | undefined;

test.beforeAll(async () => {
  origin = await startOrigin({ port: 0 });
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: HOLD, logLevel: 'silent' }));
});
test.afterAll(async () => {
  await edge?.close();
  await origin?.close();
});

for (const [player, path] of [
  ['hls', '/live/2M-2s/index.m3u8'],
  ['dash', '/live/2M-2s/manifest.mpd'],
] as const) {
  test(`${player} plays 2M-2s through the edge with --hold ${HOLD}, requests trailing the origin by ≥ ${HOLD}`, async ({ page }) => {
    if (edge === undefined) throw new Error('edge not started');
    const trails: number[] = [];
    const holdHeaders = new Set<string>();
    page.on('response', (res) => {
      const h = res.headers();
      if (h['x-ethle-hold-segments'] !== undefined) holdHeaders.add(h['x-ethle-hold-segments']);
      const end = h['x-ethle-production-end'];
      if (end === undefined) return; // manifests, init segments
      const requestedAt = res.request().timing().startTime;
      // Segments the origin had completed after this one when the player asked for it.
      trails.push(Math.floor((requestedAt - Date.parse(end)) / (SEGMENT_SECONDS * 1000)));
    });
    // Served by interception on the edge's own origin (never reaches the edge): a same-origin page.
    await openPlayer(page, { base: edge.url, src: `${edge.url}${path}`, player });
    const currentTime = () => page.evaluate(() => (document.getElementById('v') as HTMLVideoElement).currentTime);
    await expect.poll(currentTime, { timeout: 60_000 }).toBeGreaterThan(0);
    const t0 = await currentTime();
    // Play on for 8 s of media: past the startup burst, the player fetches live segments as they
    // are released (one per 2 s per track).
    await expect.poll(currentTime, { timeout: 40_000 }).toBeGreaterThan(t0 + 8);
    expect(trails.length).toBeGreaterThanOrEqual(6);
    expect(await playerErrors(page)).toEqual([]);
    expect([...holdHeaders]).toEqual([String(HOLD)]);
    expect(Math.min(...trails)).toBeGreaterThanOrEqual(HOLD);
  });
}
