import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';

// Real hls.js and dash.js in Debian Chromium play 2M-2s through the edge with --hold 2; every
// media segment the player requests must trail the origin's newest by ≥ 2 segments. "Newest at
// the origin when the player asked" comes from the interface header X-Ethle-Production-End: the
// origin had produced k more segments after segment n once request time ≥ productionEnd(n) + k·2 s.

const require = createRequire(import.meta.url);
const SEGMENT_SECONDS = 2;
const HOLD = 2;
const PAGE = `<!doctype html><meta charset="utf-8"><title>edge e2e</title>
<video id="v" muted autoplay playsinline width="320" height="180"></video>
<script>
  const q = new URLSearchParams(location.search);
  document.write('<script src="/__edge_e2e__/' + (q.get('player') === 'dash' ? 'dash.all.min.js' : 'hls.min.js') + '"><\\/script>');
</script>
<script>
  const video = document.getElementById('v');
  window.errors = [];
  if (q.get('player') === 'dash') {
    const p = dashjs.MediaPlayer().create();
    p.updateSettings({ debug: { logLevel: 1 } });
    p.on('error', (e) => window.errors.push(JSON.stringify(e.error ?? e)));
    p.initialize(video, q.get('src'), true);
  } else {
    const h = new Hls();
    h.on(Hls.Events.ERROR, (_e, d) => d.fatal && window.errors.push(d.details));
    h.attachMedia(video);
    h.loadSource(q.get('src'));
  }
</script>`;

async function openPlayer(page: Page, player: 'hls' | 'dash', src: string): Promise<void> {
  const origin = new URL(src).origin;
  const files: Record<string, Buffer> = {
    'hls.min.js': readFileSync(require.resolve('hls.js/dist/hls.min.js')),
    'dash.all.min.js': readFileSync(require.resolve('dashjs')),
    'index.html': Buffer.from(PAGE),
  };
  // Served by interception on the edge's own origin (never reaches the edge): same-origin page.
  await page.route(`${origin}/__edge_e2e__/**`, (route) => {
    const name = new URL(route.request().url()).pathname.slice('/__edge_e2e__/'.length);
    const body = files[name];
    return body === undefined
      ? route.fulfill({ status: 404 })
      : route.fulfill({ status: 200, body, contentType: name.endsWith('.html') ? 'text/html' : 'text/javascript' });
  });
  await page.goto(`${origin}/__edge_e2e__/index.html?player=${player}&src=${encodeURIComponent(src)}`);
}

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
    await openPlayer(page, player, `${edge.url}${path}`);
    const currentTime = () => page.evaluate(() => (document.getElementById('v') as HTMLVideoElement).currentTime);
    await expect.poll(currentTime, { timeout: 60_000 }).toBeGreaterThan(0);
    const t0 = await currentTime();
    // Play on for 8 s of media: past the startup burst, the player fetches live segments as they
    // are released (one per 2 s per track).
    await expect.poll(currentTime, { timeout: 40_000 }).toBeGreaterThan(t0 + 8);
    expect(trails.length).toBeGreaterThanOrEqual(6);
    expect(await page.evaluate(() => (window as unknown as { errors: string[] }).errors)).toEqual([]);
    expect([...holdHeaders]).toEqual([String(HOLD)]);
    expect(Math.min(...trails)).toBeGreaterThanOrEqual(HOLD);
  });
}
