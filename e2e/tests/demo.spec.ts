import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';

// The README's main job, as a new user runs it: `npm start` (here on free ports), then the landing
// page plays the stream directly and through the edge; the dashboard renders those real runs.
test.describe.configure({ mode: 'serial' });
let proc: ChildProcess;
let url = '';

test.beforeAll(async () => {
  const root = new URL('../..', import.meta.url).pathname;
  proc = spawn(process.execPath, ['scripts/start.mjs', '--origin-port', '0', '--edge-port', '0', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /open\s+(http:\/\/\S+?)\//.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${out}`)));
  });
});

/** Records what a page loads: failed responses (4xx/5xx) and the script files. */
function watch(page: Page): { failed: string[]; scripts: string[] } {
  const seen = { failed: [] as string[], scripts: [] as string[] };
  page.on('response', (r) => {
    if (r.status() >= 400) seen.failed.push(`${r.status()} ${r.url()}`);
    if (r.request().resourceType() === 'script') seen.scripts.push(new URL(r.url()).pathname);
  });
  return seen;
}
/** The player/chart library chunks (vite.config.ts names them) among loaded script paths. */
const libraries = (scripts: string[]) => [...new Set(scripts.map((p) => /\/assets\/(hls|dash|shaka|chart)-[\w-]+\.js$/.exec(p)?.[1]).filter(Boolean))].sort();

test.afterAll(async () => {
  if (proc && proc.exitCode === null) {
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  }
});

test('the landing page plays both players: direct and through the edge', async ({ page }) => {
  test.setTimeout(90_000);
  const seen = watch(page);
  await page.goto(`${url}/`);
  const times = () => page.$$eval('video', (vs) => vs.map((v) => (v as HTMLVideoElement).currentTime));
  // Live currentTime starts far into the stream: wait for both to start, then to advance 4 s.
  await page.waitForFunction(() => [...document.querySelectorAll('video')].every((v) => v.currentTime > 0), undefined, { timeout: 60_000 });
  const start = await times();
  await page.waitForFunction((s) => [...document.querySelectorAll('video')].every((v, i) => v.currentTime > s[i]! + 4), start, { timeout: 60_000 });
  const [direct, edge] = await times();
  expect(direct! - start[0]!).toBeGreaterThan(4);
  expect(edge! - start[1]!).toBeGreaterThan(4);
  // The edge holds 2 segments (4 s): its panel shows the declared hold and a true latency above the direct one.
  await page.waitForFunction(() => document.querySelector('#edge [data-k="hold"]')?.textContent?.startsWith('4.0'), undefined, { timeout: 30_000 });
  // The edge column is on the edge (a forced hold never redirects), and says so.
  await expect(page.locator('#edge .via')).toHaveAttribute('data-on', 'true');
  // Nothing the page asked for failed (no favicon 404), and it loaded hls.js and Chart.js (the timeline), not dash.js.
  expect(seen.failed).toEqual([]);
  expect(libraries(seen.scripts)).toEqual(['chart', 'hls']);
  // Both players post their run to the demo's collector (every 5 s): wait until it has them.
  await expect
    .poll(async () => ((await (await fetch(`${url}/api/runs`)).json()) as { runs: { report: { segments: { count: number } } }[] }).runs.filter((r) => r.report.segments.count > 0).length, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
});

test('a DASH player page loads dash.js only', async ({ page }) => {
  const seen = watch(page);
  await page.goto(`${url}/player.html?player=dash&via=origin`);
  await page.waitForFunction(() => document.querySelector('video')!.currentTime > 0, undefined, { timeout: 60_000 });
  expect(libraries(seen.scripts)).toEqual(['dash']);
  expect(seen.failed).toEqual([]);
});

test('a Shaka player page loads Shaka only and plays DASH or, with format=hls, HLS through the edge with the probe', async ({ page }) => {
  for (const format of ['dash', 'hls'] as const) {
    const seen = watch(page);
    await page.goto(`${url}/player.html?player=shaka&format=${format}`);
    await page.waitForFunction(() => document.querySelector('video')!.currentTime > 0, undefined, { timeout: 60_000 });
    // The probe knows the player and reads the edge's declared hold (2 segments of 2 s).
    await expect.poll(() => page.evaluate(() => (window as any).demo.handles[0].probe.report().holdSeconds), { timeout: 20_000 }).toBe(4);
    expect(await page.evaluate(() => (window as any).demo.handles[0].probe.report().target)).toBe('shaka');
    expect(await page.locator('#src').textContent()).toMatch(format === 'dash' ? /manifest\.mpd$/ : /index\.m3u8$/);
    expect(libraries(seen.scripts)).toEqual(['shaka']);
    expect(seen.failed).toEqual([]);
  }
});

test('the side-by-side page says what is wrong: an unknown stream, a dead server', async ({ page }) => {
  await page.goto(`${url}/?stream=99M-9s`);
  await expect(page.locator('#errors')).toContainText('Direct: the origin has no stream at /live/99M-9s/index.m3u8 (404)');
  await expect(page.locator('#errors')).toContainText('Through the edge: the edge has no stream at /live/99M-9s/index.m3u8 (404)');
  // Port 9 (discard) on loopback: nothing listens there.
  await page.goto(`${url}/?origin=http://127.0.0.1:9`);
  await expect(page.locator('#errors')).toContainText('Direct: no answer from the origin at http://127.0.0.1:9: is it running?');
});

test('the dashboard says a missing results URL is missing', async ({ page }) => {
  await page.goto(`${url}/dashboard.html?results=/no-such-results.json`);
  await expect(page.locator('#title')).toHaveText('No results: /no-such-results.json answered 404 Not Found');
});

test('the dashboard renders charts and Table II from those runs', async ({ page }, testInfo) => {
  const seen = watch(page);
  await page.goto(`${url}/dashboard.html`);
  await page.waitForFunction(() => (window as any).dashboard?.charts?.length === 3, undefined, { timeout: 15_000 });
  const info = await page.evaluate(() => {
    const d = (window as any).dashboard;
    return {
      runs: d.set.runs.length,
      datasets: d.charts.map((c: any) => c.data.datasets.reduce((n: number, ds: any) => n + ds.data.length, 0)),
      rows: document.querySelectorAll('#table tbody tr').length,
      schemes: [...document.querySelectorAll('#table tbody tr td:nth-child(2)')].map((td) => td.textContent),
    };
  });
  expect(info.runs).toBeGreaterThanOrEqual(2);
  for (const n of info.datasets) expect(n).toBeGreaterThan(0);
  expect(info.schemes).toEqual(expect.arrayContaining(['e2e', 'hold-2']));
  // The canvases really have pixels drawn (not just datasets).
  const inked = await page.$$eval('canvas', (cs) =>
    cs.map((c) => {
      const ctx = (c as HTMLCanvasElement).getContext('2d')!;
      const { data } = ctx.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height);
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
      return n;
    }),
  );
  for (const n of inked) expect(n).toBeGreaterThan(1000);
  expect(libraries(seen.scripts)).toEqual(['chart']);
  expect(seen.failed).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('dashboard.png'), fullPage: true });
});

test('the dashboard reads as one: a colour per scheme, unique labels, line legends, aligned table, live refresh, PNG export', async ({ page }) => {
  await page.goto(`${url}/dashboard.html`);
  await page.waitForFunction(() => (window as any).dashboard?.charts?.length === 3, undefined, { timeout: 15_000 });
  const look = await page.evaluate(() => {
    const [latency, , cdf] = (window as any).dashboard.charts;
    const lines = latency.data.datasets.filter((d: any) => !d.label.startsWith('stalls'));
    return {
      labels: latency.data.datasets.map((d: any) => d.label),
      lineColor: Object.fromEntries(lines.map((d: any) => [d.label.split(' · ')[0], d.borderColor])),
      cdfColor: Object.fromEntries(cdf.data.datasets.map((d: any) => [d.label, d.borderColor])),
      lineStyles: [...lines, ...cdf.data.datasets].map((d: any) => d.pointStyle),
      usePointStyle: latency.options.plugins.legend.labels.usePointStyle,
      align: [...document.querySelectorAll('#table tr')].map((tr) => [...tr.children].map((c) => getComputedStyle(c).textAlign).join(',')),
    };
  });
  expect(new Set(look.labels).size).toBe(look.labels.length);
  for (const [scheme, color] of Object.entries(look.cdfColor)) expect(look.lineColor[scheme], scheme).toBe(color);
  expect(new Set(look.lineStyles)).toEqual(new Set(['line']));
  expect(look.usePointStyle).toBe(true);
  // Header and every row align alike: text left, numbers right.
  expect(new Set(look.align)).toEqual(new Set(['left,left,right,right,right,right,right,right']));
  // The collector is fetched again without a reload.
  const first = await page.evaluate(() => (window as any).dashboard.updates as number);
  await page.waitForFunction((n) => (window as any).dashboard.updates > n, first, { timeout: 15_000 });
  await expect(page.locator('#source')).toContainText('refreshed every 5 s');
  // Each chart exports as a PNG.
  const download = page.waitForEvent('download');
  await page.locator('button.png[data-chart="cdf"]').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('ethle-cdf.png');
  const png = await file.createReadStream().then(async (s) => {
    const chunks: Buffer[] = [];
    for await (const c of s) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  });
  expect(png.subarray(1, 4).toString()).toBe('PNG');
});

test('a static report of those runs says nothing of a live collector and links no pages', async ({ page }, info) => {
  const dir = mkdtempSync(join(tmpdir(), 'ethle-demo-report-'));
  try {
    const { renderReport } = (await import('../../packages/player-demo/scripts/renderReport.mjs')) as { renderReport: (s: unknown, out: string) => string };
    const html = renderReport(await (await fetch(`${url}/api/runs`)).json(), dir);
    await page.goto(pathToFileURL(html).href);
    await page.waitForFunction(() => (window as any).dashboard?.charts?.length === 3, undefined, { timeout: 15_000 });
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/collector|\/api\/runs|refreshed/i);
    await expect(page.locator('#source')).toHaveText('A static report: the results are embedded in this file.');
    expect(await page.locator('nav').count()).toBe(0);
    await page.screenshot({ path: info.outputPath('static-report.png'), fullPage: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
