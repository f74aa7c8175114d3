/**
 * Browser harness for the probe's Playwright tests: a bare player page on its own loopback server
 * (cross-origin to the stream, like a real deployment). The page plays `src` with real hls.js or dash.js, attaches the built probe
 * (dist/qoe-probe.min.js) and keeps every probe event in `window.__qoe`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  document.write('<script src="/' + (q.get('player') === 'dash' ? 'dash.all.min.js' : 'hls.min.js') + '"><\\/script>');
</script>
<script type="module">
  import { attachProbe, Events } from '/qoe-probe.min.js';
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

export interface Harness {
  /** http://127.0.0.1:PORT — the page's origin. */
  url: string;
  /** Beacon batches the page POSTed to `<url>/collect`. */
  beacons: any[];
  close(): Promise<void>;
}

/**
 * Serves the harness page, the players and the built probe from 127.0.0.1:0, and collects
 * beacons. The page is cross-origin to the stream (as in real deployments): the probe reads Date
 * and X-Ethle-* through the servers' Access-Control-Expose-Headers. (A page Playwright fulfils
 * itself would not be on the loopback address space, and Chromium's local-network-access rules
 * would then block its requests to other loopback origins, e.g. an MPD's UTCTiming URL.)
 */
export async function startHarness(): Promise<Harness> {
  const served = files();
  const beacons: any[] = [];
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    if (name === 'collect' && req.method === 'POST') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        beacons.push(JSON.parse(body));
        res.writeHead(204).end();
      });
      return;
    }
    const f = served[name];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': f.type }).end(f.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    beacons,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Opens the harness page playing `src` and returns once the page has attached the probe. */
export async function openProbePage(page: Page, harness: Harness, player: 'hls' | 'dash', src: string, beacon = false): Promise<void> {
  const b = beacon ? `&beacon=${encodeURIComponent(`${harness.url}/collect`)}` : '';
  await page.goto(`${harness.url}/index.html?player=${player}&src=${encodeURIComponent(src)}${b}`);
  await page.waitForFunction(() => typeof (window as any).probe === 'object');
}

/** The probe's report() in the page. */
export const report = (page: Page) => page.evaluate(() => (window as any).probe.report());

/** Probe events of one type recorded in the page so far. */
export const events = <T = any>(page: Page, type: string): Promise<T[]> =>
  page.evaluate((t) => (window as any).__qoe.filter((e: any) => e.type === t).map((e: any) => e.data), type);

/** Seconds of media buffered ahead of the playhead. */
export const bufferAhead = (page: Page): Promise<number> => page.evaluate(() => (window as any).bufferAhead());
