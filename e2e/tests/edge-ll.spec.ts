/**
 * Low-latency live through the edge, held in parts (issue 20): real hls.js (lowLatencyMode) and
 * dash.js (low-latency, live catch-up) in Chromium play the LL renditions through an edge with
 * `--hold-parts 2`, side by side with the same player on the origin directly. The QoE probe's true
 * latency (server-synced clock − production time of the frame on screen) through the edge exceeds
 * the direct one by about the held duration (2 parts of 0.5 s, declared in X-Ethle-Hold-Seconds)
 * and not more; every origin playlist version and every part/segment crossed the backhaul once.
 *
 * Two origins on one host clock: the direct player's own blocking reloads and fetches must not
 * land in the counts of the origin behind the edge.
 */
import { expect, test, type Page } from '@playwright/test';
import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { openProbePage, report, startHarness, type Harness } from '../fixtures/probeHarness.js';

const STREAM = '2M-2s';
const HOLD_PARTS = 2;
const PLAY_S = 6;

let harness: Harness;
let direct: LiveOrigin;
let behind: LiveOrigin;
let edge: RunningEdge;
test.beforeAll(async () => {
  harness = await startHarness();
  direct = await startOrigin({ port: 0, streams: [STREAM] });
  behind = await startOrigin({ port: 0, streams: [STREAM] });
  edge = await startEdge(createEdgeConfig({ origin: behind.url, port: 0, hold: 0, holdParts: HOLD_PARTS, logLevel: 'silent' }));
});
test.afterAll(async () => {
  await harness?.close();
  await edge?.close();
  await direct?.close();
  await behind?.close();
});

interface Latency {
  median: number;
  samples: number;
  stalls: number;
  hold: number;
  errors: number;
  /** DASH: median latency from the origin's clock and the playhead alone. */
  independent?: number;
}

/** Median true latency over PLAY_S of play once the probe's clock is synced. */
async function settledLatency(page: Page, t0Ms: number | undefined): Promise<Latency> {
  await expect.poll(async () => {
    const r = await report(page);
    return (r.clock?.precisionMs ?? 1e9) <= 50 && r.latency.samples >= 3;
  }, { timeout: 20_000 }).toBe(true);
  const from = Date.now();
  // The measuring window, sampled every 500 ms (an interval, not a wait for an event). DASH: the
  // latency from the origin's own clock too — the frame at media time t was produced at T0 + t
  // (Period at AST = T0, no presentationTimeOffset) whatever AST the edge wrote — to check the
  // probe's AST-and-hold arithmetic against it (this page and the origin share the host's clock).
  const independent: number[] = [];
  while (Date.now() - from < PLAY_S * 1000) {
    if (t0Ms !== undefined) independent.push(await page.evaluate((t0) => (Date.now() - t0) / 1000 - (window as any).video.currentTime, t0Ms));
    await page.waitForTimeout(500);
  }
  const r = await report(page);
  const lat = r.latencySeries.filter((s: any) => s.trueLatency !== null && s.at >= from - 50).map((s: any) => s.trueLatency as number).sort((a: number, b: number) => a - b);
  return { median: lat[Math.floor(lat.length / 2)]!, samples: lat.length, stalls: r.stalls.count, hold: r.holdSeconds, errors: r.errors.filter((e: any) => e.fatal).length, ...(t0Ms === undefined ? {} : { independent: median(independent) }) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const sum = (rec: Record<string, number>, re: RegExp) => Object.entries(rec).filter(([p]) => re.test(p));

for (const player of ['hls', 'dash'] as const) {
  test(`${player === 'hls' ? 'hls.js lowLatencyMode' : 'dash.js low latency'} through the edge at --hold-parts ${HOLD_PARTS}: latency + the held parts, one origin flow each`, async ({ browser }) => {
    const path = player === 'hls' ? `/live/${STREAM}/ll/index.m3u8` : `/live/${STREAM}/ll.mpd`;
    const config = player === 'hls' ? { lowLatencyMode: true } : { streaming: { liveCatchup: { enabled: true } } };
    behind.resetStats();
    const pages = await Promise.all([browser.newPage(), browser.newPage()]);
    try {
      await Promise.all([openProbePage(pages[0]!, harness, player, direct.url + path, false, config), openProbePage(pages[1]!, harness, player, edge.url + path, false, config)]);
      const t0 = (o: LiveOrigin) => (player === 'dash' ? o.t0Ms : undefined);
      const [d, e] = await Promise.all([settledLatency(pages[0]!, t0(direct)), settledLatency(pages[1]!, t0(behind))]);
      const added = e.median - d.median;
      const line = `${player}: direct ${d.median.toFixed(3)} s (${d.samples} samples, ${d.stalls} stalls), edge ${e.median.toFixed(3)} s (${e.samples}, ${e.stalls} stalls), added ${added.toFixed(3)} s, declared ${e.hold} s${player === 'dash' ? `; from the origin clock: direct ${d.independent!.toFixed(3)} s, edge ${e.independent!.toFixed(3)} s` : ''}`;
      console.log(line);
      test.info().annotations.push({ type: 'latency', description: line });
      expect(d.errors + e.errors).toBe(0);
      expect(e.hold).toBeCloseTo(HOLD_PARTS * 0.5, 3);
      expect(d.hold).toBe(0);
      // The hold costs the held parts — not whole segments (2 s), and not more than a part of slack.
      expect(Math.abs(added - e.hold)).toBeLessThanOrEqual(0.35);
      // The probe's DASH latency is the latency (its AST-and-hold arithmetic, through the edge too).
      if (player === 'dash') for (const x of [d, e]) expect(Math.abs(x.median - x.independent!)).toBeLessThanOrEqual(0.15);
      const stats = behind.stats();
      if (player === 'hls') {
        // One blocking poll per playlist version, however the player blocked at the edge.
        const polls = sum(stats.blocking, /ll\/index\.m3u8/);
        expect(polls.length).toBeGreaterThan(PLAY_S * 2);
        for (const [, n] of polls) expect(n).toBe(1);
        const parts = sum(stats.fetches, /\/ll\/\d+\.\d+\.m4s$/);
        expect(parts.length).toBeGreaterThan(PLAY_S * 2);
        for (const [, n] of parts) expect(n).toBe(1);
      } else {
        const segs = sum(stats.fetches, /\/ll\/dash\/[va]\/\d+\.m4s$/);
        expect(segs.length).toBeGreaterThanOrEqual(PLAY_S / 2);
        for (const [, n] of segs) expect(n).toBe(1);
      }
    } finally {
      await Promise.all(pages.map((p) => p.close()));
    }
  });
}
