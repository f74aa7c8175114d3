import { expect, test } from '@playwright/test';
import { createEdgeConfig, startEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
// @ts-expect-error plain ESM module without types
import { startDemoServer } from '@ethle/player-demo/server';

// Issue 19: `npm start -- --hold auto` on loopback keeps the edge player on the edge at x = 0.
// hls.js sends CMCD mtp=500 (its estimate before it measured anything) with its first request;
// the edge does not take that for the radio, and on loopback eq. 1 holds: hold-0.
let origin: LiveOrigin;
let edge: Awaited<ReturnType<typeof startEdge>>;
let demo: { url: string; close(): Promise<void> };

test.beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 'auto', logLevel: 'silent' }));
  demo = await startDemoServer({
    port: 0,
    config: { originUrl: origin.url, edgeUrl: edge.url, stream: '2M-2s', player: 'hls', scheme: 'auto' },
  });
});
test.afterAll(async () => {
  await demo?.close();
  await edge?.close();
  await origin?.close();
});

for (const player of ['hls', 'dash'] as const) {
  test(`${player}: auto on loopback keeps the edge player on the edge, unheld`, async ({ page }) => {
    test.setTimeout(60_000);
    const holds: string[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'GET' && r.url().startsWith(edge.url) && /\.(m3u8|mpd)$/.test(new URL(r.url()).pathname))
        holds.push(r.headers()['x-ethle-hold-segments'] ?? '?');
    });
    await page.goto(`${demo.url}/?player=${player}`);
    const badge = page.locator('#edge .via');
    await expect(badge).toHaveAttribute('data-on', 'true', { timeout: 30_000 });
    await expect.poll(() => holds.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    expect(new Set(holds)).toEqual(new Set(['0']));
    const metrics = await (await fetch(`${edge.url}/metrics`)).text();
    expect(Number(/^ethle_redirects_total (\d+)/m.exec(metrics)?.[1] ?? '0')).toBe(0);
  });
}
