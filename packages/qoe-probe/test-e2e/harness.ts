/**
 * Browser harness for the probe's Playwright tests: a bare player page served *from the stream's
 * own origin* (Playwright intercepts `<origin>/__probe__/…`), so the page is same-origin with the
 * manifests and the probe can read Date / X-Ethle-* headers without CORS exposure.
 * The page plays `src` with real hls.js or dash.js, attaches the built probe
 * (dist/qoe-probe.min.js) and keeps every probe event in `window.__qoe`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const PROBE = `${root}dist/qoe-probe.min.js`;

function files(): Record<string, { body: Buffer; type: string }> {
  if (!existsSync(PROBE)) execFileSync(process.execPath, [`${root}scripts/bundle.mjs`], { stdio: 'inherit' });
  const js = (p: string) => ({ body: readFileSync(p), type: 'text/javascript' });
  return {
    'qoe-probe.min.js': js(PROBE),
    'hls.min.js': js(require.resolve('hls.js/dist/hls.min.js')),
    'dash.all.min.js': js(require.resolve('dashjs')), // the package's "require" export is the UMD build
    'index.html': { body: Buffer.from(PAGE), type: 'text/html' },
  };
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>qoe-probe harness</title>
<video id="v" muted autoplay playsinline width="320" height="180"></video>
<script>
  const q = new URLSearchParams(location.search);
  document.write('<script src="/__probe__/' + (q.get('player') === 'dash' ? 'dash.all.min.js' : 'hls.min.js') + '"><\\/script>');
</script>
<script type="module">
  import { attachProbe, Events } from '/__probe__/qoe-probe.min.js';
  const q = new URLSearchParams(location.search);
  const src = q.get('src');
  const options = q.get('beacon') ? { beacon: { url: q.get('beacon'), intervalMs: 5000 } } : {};
  const video = document.getElementById('v');
  const events = (window.__qoe = []);
  let player, probe;
  if (q.get('player') === 'dash') {
    player = dashjs.MediaPlayer().create();
    // No live catch-up: playback at rate 1 drains the buffer at a known pace.
    player.updateSettings({ debug: { logLevel: 1 }, streaming: { liveCatchup: { enabled: false } } });
    probe = attachProbe(player, options);
    player.initialize(video, src, true);
  } else {
    player = new Hls({ debug: false });
    probe = attachProbe(player, options);
    player.attachMedia(video);
    player.loadSource(src);
  }
  for (const e of Object.values(Events)) probe.on(e, (data) => events.push({ type: e, data }));
  const bufferAhead = () => {
    const b = video.buffered;
    for (let i = 0; i < b.length; i++) if (b.start(i) <= video.currentTime + 0.1 && video.currentTime < b.end(i)) return b.end(i) - video.currentTime;
    return 0;
  };
  Object.assign(window, { player, probe, video, bufferAhead });
</script>`;

/**
 * Opens the harness on the stream's origin and returns once the page has attached the probe.
 * With `beacons`, the probe beacons to `<origin>/__probe__/collect` and each batch lands in it
 * (same-origin: a page Playwright fulfils is not on the loopback address space, so Chromium's
 * local-network-access rules would block a beacon to a separate loopback collector).
 */
export async function openProbePage(page: Page, player: 'hls' | 'dash', src: string, beacons?: unknown[]): Promise<void> {
  const origin = new URL(src).origin;
  const served = files();
  await page.route(`${origin}/__probe__/**`, (route) => {
    const name = new URL(route.request().url()).pathname.slice('/__probe__/'.length);
    if (name === 'collect') {
      beacons?.push(JSON.parse(route.request().postData() ?? 'null'));
      return route.fulfill({ status: 204 });
    }
    const f = served[name];
    return f ? route.fulfill({ status: 200, body: f.body, contentType: f.type }) : route.fulfill({ status: 404 });
  });
  const b = beacons ? `&beacon=${encodeURIComponent(`${origin}/__probe__/collect`)}` : '';
  await page.goto(`${origin}/__probe__/index.html?player=${player}&src=${encodeURIComponent(src)}${b}`);
  await page.waitForFunction(() => typeof (window as any).probe === 'object');
}

/** The probe's report() in the page. */
export const report = (page: Page) => page.evaluate(() => (window as any).probe.report());

/** Probe events of one type recorded in the page so far. */
export const events = <T = any>(page: Page, type: string): Promise<T[]> =>
  page.evaluate((t) => (window as any).__qoe.filter((e: any) => e.type === t).map((e: any) => e.data), type);

/** Seconds of media buffered ahead of the playhead. */
export const bufferAhead = (page: Page): Promise<number> => page.evaluate(() => (window as any).bufferAhead());
