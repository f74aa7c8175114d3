import { expect, test } from '@playwright/test';
import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { startHarness, type Harness } from '../fixtures/probeHarness.js';

// The standard headers an ETHLE edge sends, read by the real players that read them, from a page
// on another origin than the edge (the probe harness's own loopback server): dash.js with `streaming.cmsd` on parses CMSD-Static and CMSD-Dynamic into
// its HTTP request metrics; hls.js reads the Age of the playlists it loads.
let origin: LiveOrigin;
let edge: RunningEdge;
let harness: Harness;
test.beforeAll(async () => {
  harness = await startHarness();
  origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 2, logLevel: 'silent' }));
});
test.afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await harness?.close();
});

async function play(
  page: import('@playwright/test').Page,
  player: 'hls' | 'dash',
  src: string,
  config: Record<string, unknown> = {},
): Promise<void> {
  await page.goto(
    `${harness.url}/index.html?player=${player}&src=${encodeURIComponent(src)}&config=${encodeURIComponent(JSON.stringify(config))}`,
  );
  await page.waitForFunction(() => (window as any).video?.currentTime > 0, undefined, { timeout: 30_000 });
  const t0 = await page.evaluate(() => (window as any).video.currentTime as number);
  await page.waitForFunction((t) => (window as any).video.currentTime > t + 6, t0, { timeout: 40_000 });
}

test('dash.js reads the edge’s CMSD: the segment duration (d), the edge (n) and, once measured, its etp', async ({ page }) => {
  test.setTimeout(90_000);
  await play(page, 'dash', `${edge.url}/live/2M-2s/manifest.mpd`, {
    streaming: { cmsd: { enabled: true, abr: { applyMb: false, etpWeightRatio: 0 } } },
  });
  const cmsd = await page.evaluate(() => {
    const reqs = (
      (window as any).player.getDashMetrics().getHttpRequests('video') as {
        type: string;
        url: string;
        cmsd?: { static: Record<string, unknown> | null; dynamic: Record<string, unknown> | null } | null;
      }[]
    ).filter((r) => r.type === 'MediaSegment');
    return reqs.map((r) => ({ url: r.url, static: r.cmsd?.static ?? null, dynamic: r.cmsd?.dynamic ?? null }));
  });
  expect(cmsd.length).toBeGreaterThanOrEqual(3);
  // Every media segment: live, DASH, its duration (2 s segments).
  for (const c of cmsd) expect(c.static, c.url).toMatchObject({ sf: 'd', st: 'l', d: 2000 });
  // The edge measures this receiver from its whole cached segments; later responses carry etp.
  expect(cmsd.some((c) => typeof c.dynamic?.['etp'] === 'number' && (c.dynamic['etp'] as number) > 0)).toBe(true);
});

test('hls.js reads the playlists’ Age; a page on another origin can read Age and CMSD of the edge’s responses', async ({ page }) => {
  test.setTimeout(90_000);
  await play(page, 'hls', `${edge.url}/live/2M-2s/index.m3u8`);
  // hls.js keeps the Age of the playlist it loaded (null, not a number, when it could not read it).
  const age = await page.evaluate(() => {
    const p = (window as any).player;
    return p.levels[p.currentLevel]?.details?.ageHeader;
  });
  expect(typeof age).toBe('number');
  // Exposed to CORS: the page reads them as a player's loader does; a held segment's Age grows
  // with the time the edge has held it.
  const read = (url: string) =>
    page.evaluate(async (u) => {
      const r = await fetch(u);
      await r.arrayBuffer();
      return {
        age: r.headers.get('age'),
        cmsdStatic: r.headers.get('cmsd-static'),
        cmsdDynamic: r.headers.get('cmsd-dynamic'),
        cache: r.headers.get('x-ethle-cache'),
      };
    }, url);
  const playlist = await read(`${edge.url}/live/2M-2s/index.m3u8`);
  expect(playlist.age).toMatch(/^\d+$/);
  expect(playlist.cmsdStatic).toBe('ot=m,sf=h,st=l');
  expect(playlist.cmsdDynamic).toMatch(/^"ethle-edge"/);
  const last = await page.evaluate(
    () => (window as any).player.levels[(window as any).player.currentLevel].details.fragments.at(-1).url as string,
  );
  await expect.poll(async () => Number((await read(last)).age), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
});
