import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { startArgs } from '../fixtures/startArgs.js';

// The README's main job, as a new user runs it: `npm start` (here on free ports), then the landing
// page plays the stream directly and through the edge, its probes send to the collector; the
// dashboard renders the fleet from the collector and those real sessions run by run.
test.describe.configure({ mode: 'serial' });
let proc: ChildProcess;
let url = '';
let collector = '';
const fresh = startArgs();

test.beforeAll(async () => {
  const root = new URL('../..', import.meta.url).pathname;
  proc = spawn(process.execPath, ['scripts/start.mjs', ...fresh.args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  [url, collector] = await new Promise<[string, string]>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /open\s+(http:\/\/\S+?)\//.exec(out);
      const c2 = /collector\s+(http:\/\/\S+?)\/v1\/health/.exec(out);
      if (m && c2) resolve([m[1]!, c2[1]!]);
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
const libraries = (scripts: string[]) =>
  [...new Set(scripts.map((p) => /\/assets\/(hls|dash|shaka|chart)-[\w-]+\.js$/.exec(p)?.[1]).filter(Boolean))].sort();

test.afterAll(async () => {
  if (proc && proc.exitCode === null) {
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  }
  fresh.cleanup();
});

interface Listed {
  session: string;
  scheme: string;
  edge: string;
  player: string;
  stream: string;
  segments: number;
  startupMs: number | null;
}
const listed = async () => ((await (await fetch(`${collector}/v1/sessions`)).json()) as { sessions: Listed[] }).sessions;

test('the landing page plays both players: direct and through the edge', async ({ page }) => {
  test.setTimeout(90_000);
  const seen = watch(page);
  await page.goto(`${url}/`);
  const times = () => page.$$eval('video', (vs) => vs.map((v) => (v as HTMLVideoElement).currentTime));
  // Live currentTime starts far into the stream: wait for both to start, then to advance 4 s.
  await page.waitForFunction(() => [...document.querySelectorAll('video')].every((v) => v.currentTime > 0), undefined, { timeout: 60_000 });
  const start = await times();
  await page.waitForFunction((s) => [...document.querySelectorAll('video')].every((v, i) => v.currentTime > s[i]! + 4), start, {
    timeout: 60_000,
  });
  const [direct, edge] = await times();
  expect(direct! - start[0]!).toBeGreaterThan(4);
  expect(edge! - start[1]!).toBeGreaterThan(4);
  // The edge holds 2 segments (4 s): its panel shows the declared hold and a true latency above the direct one.
  await page.waitForFunction(() => document.querySelector('#edge [data-k="hold"]')?.textContent?.startsWith('4.0'), undefined, {
    timeout: 30_000,
  });
  // The page says what to try, and the button says what it does.
  await expect(page.locator('#hint')).toContainText('press origin outage');
  await expect(page.locator('button.outage')).toHaveAttribute('title', /segment responses hang/);
  // The edge column is on the edge (a forced hold never redirects), and says so.
  await expect(page.locator('#edge .via')).toHaveAttribute('data-on', 'true');
  // Nothing the page asked for failed (no favicon 404), and it loaded hls.js and Chart.js (the timeline), not dash.js.
  expect(seen.failed).toEqual([]);
  expect(libraries(seen.scripts)).toEqual(['chart', 'hls']);
  // Both probes send their beacons to the collector (every 5 s), labelled: wait until it has both
  // sessions with media segments and a startup.
  await expect
    .poll(async () => (await listed()).filter((s) => s.segments > 0 && s.startupMs !== null).length, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
  const sessions = await listed();
  expect(sessions.map((s) => s.scheme).sort()).toEqual(['e2e', 'hold-2']);
  expect(sessions.find((s) => s.scheme === 'e2e')).toMatchObject({ edge: 'direct', player: 'hls.js', stream: '2M-2s' });
  const held = sessions.find((s) => s.scheme === 'hold-2')!;
  expect(held.edge).toMatch(/^127\.0\.0\.1:\d+$/);
  // The edge joins the session: its report (by the CMCD sid, the probe's session id) says it held
  // 2 segments for this player and how its segment requests found the cache.
  await expect
    .poll(
      async () =>
        (
          (await (await fetch(`${collector}/v1/sessions/${held.session}`)).json()) as {
            edges: { edge: string; hold: number; hits: number; coalesced: number; misses: number }[];
          }
        ).edges,
      { timeout: 20_000 },
    )
    .toEqual([expect.objectContaining({ edge: held.edge, hold: 2 })]);
  const [facts] = (
    (await (await fetch(`${collector}/v1/sessions/${held.session}`)).json()) as {
      edges: { hits: number; coalesced: number; misses: number }[];
    }
  ).edges;
  expect(facts!.hits + facts!.coalesced + facts!.misses).toBeGreaterThan(0);
  const directSession = sessions.find((s) => s.scheme === 'e2e')!;
  expect(((await (await fetch(`${collector}/v1/sessions/${directSession.session}`)).json()) as { edges: unknown[] }).edges).toEqual([]);
});

test('a DASH player page loads dash.js only', async ({ page }) => {
  const seen = watch(page);
  await page.goto(`${url}/player.html?player=dash&via=origin`);
  await page.waitForFunction(() => document.querySelector('video')!.currentTime > 0, undefined, { timeout: 60_000 });
  // Its heading is a sentence saying what plays, and how.
  await expect(page.locator('h1')).toHaveText('dash.js plays 2M-2s straight from the origin.');
  expect(libraries(seen.scripts)).toEqual(['dash']);
  expect(seen.failed).toEqual([]);
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

test('the dashboard reads as one: a colour per scheme, unique labels, line legends, aligned table, live refresh, PNG export', async ({
  page,
}) => {
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
  await expect(page.locator('#source')).toContainText(collector);
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

test('the dashboard shows the fleet from the collector: aggregates by scheme, the session list, one session timeline', async ({
  page,
}, info) => {
  const seen = watch(page);
  await page.goto(`${url}/dashboard.html`);
  await page.waitForFunction(() => (window as any).fleet?.updates > 0, undefined, { timeout: 15_000 });
  const view = await page.evaluate(() => (window as any).fleet.view);
  // The collector's SQL, drawn as it came: one row per scheme with startup and latency percentiles.
  expect(view.groups.map((g: any) => g.group)).toEqual(['e2e', 'hold-2']);
  for (const g of view.groups) {
    expect(g.startupP50Ms).toBeGreaterThan(0);
    expect(g.latencySamples).toBeGreaterThan(0);
  }
  // The edge holds 2 × 2 s: with one player (hls.js; dash.js keeps a longer live delay of its
  // own), the edge's true latency is above the direct player's.
  const hls = (await (await fetch(`${collector}/v1/fleet?by=scheme&player=hls.js`)).json()) as {
    groups: { group: string; latencyP50S: number }[];
  };
  const [direct, held] = hls.groups;
  expect([direct!.group, held!.group]).toEqual(['e2e', 'hold-2']);
  expect(held!.latencyP50S).toBeGreaterThan(direct!.latencyP50S + 2);
  await expect(page.locator('.fleet-table tbody tr')).toHaveCount(2);
  await expect(page.locator('.sessions tbody tr[data-session]')).toHaveCount(
    await page.evaluate(() => (window as any).fleet.sessions.length),
  );
  // Split by edge instead: the collector answers with the edges (direct and the edge's host).
  await page.selectOption('select[name="by"]', 'edge');
  await page.waitForFunction(() => (window as any).fleet.view.filter.by === 'edge', undefined, { timeout: 15_000 });
  const edges: string[] = await page.evaluate(() => (window as any).fleet.view.groups.map((g: any) => g.group).sort());
  expect(edges).toHaveLength(2);
  expect(edges[0]).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(edges[1]).toBe('direct');
  // One session's timeline: its latency line and downloads drawn.
  await page.locator('.sessions tbody tr[data-session]').first().click();
  await expect(page.locator('.session-view h3')).toContainText('Session');
  await expect(page.locator('.session-view .facts')).toContainText(/hls\.js|dash\.js/);
  await expect(page.locator('.session-view canvas')).toBeVisible();
  expect(seen.failed).toEqual([]);
  await page.screenshot({ path: info.outputPath('fleet.png'), fullPage: true });
});

test('a static report of those runs says nothing of a live collector and links no pages', async ({ page }, info) => {
  const dir = mkdtempSync(join(tmpdir(), 'ethle-demo-report-'));
  try {
    const { renderReport } = (await import('../../packages/player-demo/scripts/renderReport.mjs')) as {
      renderReport: (s: unknown, out: string) => string;
    };
    const html = renderReport(await (await fetch(`${collector}/v1/runs`)).json(), dir);
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

// Last: its sessions are Shaka's, and the fleet view above is checked for hls.js and dash.js ones.
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
