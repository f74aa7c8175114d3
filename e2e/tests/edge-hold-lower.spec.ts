import { expect, test, type Page } from '@playwright/test';
import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { openPlayer, playerErrors } from '../fixtures/playerPage.js';

// x both ways, as the players see it (issue 19): `auto` raises x when a held segment's fetch
// misses its deadline and lowers it again once the backhaul has recovered for the dwell. When x
// comes down, the playlist's (or MPD's) live edge jumps forward one segment at once. Real hls.js
// and dash.js must take that jump as more media to buffer — no stall, no seek, the playhead moving
// on at 1×.
//
// The edge runs on loopback with the model told the backhaul RTT is 224 ms (--backhaul-rtt-ms):
// for 15M-2s that puts the receiver in the hold-x group with the model's x = 1, the floor x comes
// back to. Pausing the origin's segment responses makes the held fetch miss its deadline (x → 2);
// resuming makes fetches fast again, and after a 2-segment, 2-sample dwell x returns to 1.

const SEGMENT_MS = 2000;
let origin: LiveOrigin | undefined;
let edge: RunningEdge | undefined;

test.describe.configure({ mode: 'serial' });
test.beforeEach(async () => {
  origin = await startOrigin({ port: 0, streams: ['15M-2s'] });
  // Loopback with a told backhaul RTT: the paper's model, pinned (the default learns from the
  // origin's fetches, and loopback delivers like an origin that keeps its window).
  edge = await startEdge(
    createEdgeConfig({
      origin: origin.url,
      port: 0,
      hold: 'auto',
      backhaulRttMs: 224,
      segmentStart: 'slow-start',
      maxHold: 8,
      lowerHoldAfterSegments: 2,
      lowerHoldAfterSamples: 2,
      logLevel: 'silent',
    }),
  );
});
test.afterEach(async () => {
  origin?.resume('15M-2s');
  await edge?.close();
  await origin?.close();
});

const playhead = (page: Page) => page.evaluate(() => (window as any).video.currentTime as number);
// The playhead and the page's clock read together, in the page: a round trip to the page on a
// loaded box takes long enough to pass for a pause or a leap.
const playheadAt = (page: Page) => page.evaluate(() => ({ t: (window as any).video.currentTime as number, wallMs: performance.now() }));

for (const [player, path] of [
  ['hls', '/live/15M-2s/index.m3u8'],
  ['dash', '/live/15M-2s/manifest.mpd'],
] as const) {
  test(`${player}: x lowered by auto (the live edge jumps one segment) — no stall, no seek`, async ({ page }) => {
    test.setTimeout(120_000);
    const changes: Array<{ hold: number; reason: string; atMs: number }> = [];
    edge!.events.on('hold-change', (e) => changes.push({ hold: e.hold, reason: e.reason, atMs: Date.now() }));
    const served: Array<{ x: number; atMs: number }> = [];
    page.on('response', (res) => {
      const x = res.headers()['x-ethle-hold-segments'];
      if (x !== undefined) served.push({ x: Number(x), atMs: Date.now() });
    });
    await openPlayer(page, { base: edge!.url, src: `${edge!.url}${path}`, player, probe: true });
    await page.evaluate(() => {
      const w = window as any;
      w.__seeks = [];
      w.video.addEventListener('seeking', () => w.__seeks.push({ at: performance.now(), to: w.video.currentTime }));
    });
    await expect.poll(() => playhead(page), { timeout: 60_000 }).toBeGreaterThan(0);
    const started = await playhead(page);
    await expect.poll(() => playhead(page), { timeout: 30_000 }).toBeGreaterThan(started + 4);
    // Deadlines need a measured steady-state flow rate (three segment fetches' worth) first.
    await expect
      .poll(
        async () => {
          const m = await (await fetch(`${edge!.url}/metrics`)).text();
          return Number(/^ethle_backhaul_segment_mbps_count\{[^}]*flows="steady"[^}]*\} (\d+)/m.exec(m)?.[1] ?? 0);
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(3);
    // x now (a busy box can already have raised it once at startup; maxHold 8 leaves room above).
    const before = served.at(-1)!.x;
    expect(before, 'the model puts this receiver in hold-x').toBeGreaterThanOrEqual(1);

    // A slow patch: the origin holds its segment responses until x has been raised (each planning
    // pass that still projects the stalled fetch late raises it one more).
    const pausedAt = Date.now();
    origin!.pause('15M-2s');
    try {
      await expect.poll(() => changes.some((c) => c.atMs >= pausedAt && c.hold > before), { timeout: 15_000 }).toBe(true);
    } catch (e) {
      // What the edge did instead, for the reader of a failure: its hold changes since the start.
      const seen = changes.map((c) => `${((c.atMs - pausedAt) / 1000).toFixed(1)} s: x ${c.hold} (${c.reason})`).join('; ');
      throw new Error(`${(e as Error).message}\nx before the pause ${before}; hold changes (s after the pause): ${seen || 'none'}`, {
        cause: e,
      });
    } finally {
      origin!.resume('15M-2s');
    }
    const raised = changes.find((c) => c.atMs >= pausedAt && c.hold > before)!;
    // The recovery: x comes back down after the dwell, and the players get the jump.
    const firstLower = () => changes.find((c) => c.atMs > raised.atMs && /^lowered: /.test(c.reason));
    await expect.poll(() => firstLower() !== undefined, { timeout: 40_000 }).toBe(true);
    const lowered = firstLower()!;
    const top = Math.max(...changes.filter((c) => c.atMs <= lowered.atMs).map((c) => c.hold));
    expect(lowered.hold).toBe(top - 1);
    // The player has read a manifest with the lower x: the jump has reached it.
    await expect.poll(() => served.some((s) => s.atMs > lowered.atMs && s.x === lowered.hold), { timeout: 15_000 }).toBe(true);
    const jumpedAt = served.find((s) => s.atMs > lowered.atMs && s.x === lowered.hold)!.atMs;

    const stallsBefore = (await page.evaluate(() => (window as any).probe.report())).stalls.count as number;
    const seeksBefore = await page.evaluate(() => (window as any).__seeks.length as number);
    const { t: t0, wallMs: wall0 } = await playheadAt(page);
    // Three segments of media past the jump: the newly listed segments are fetched and played.
    await expect.poll(() => playhead(page), { timeout: 30_000 }).toBeGreaterThan(t0 + (3 * SEGMENT_MS) / 1000);
    const { t: t1, wallMs: wall1 } = await playheadAt(page);
    const r = await page.evaluate(() => (window as any).probe.report());
    const seeks = await page.evaluate(() => (window as any).__seeks.slice() as Array<{ to: number }>);
    test.info().annotations.push({
      type: 'x both ways',
      description: `${player}: x ${before} → ${top} (${raised.reason}) → ${lowered.hold} ${((lowered.atMs - raised.atMs) / 1000).toFixed(1)} s later; jump served ${((jumpedAt - lowered.atMs) / 1000).toFixed(1)} s after; playhead +${(t1 - t0).toFixed(2)} s in ${((wall1 - wall0) / 1000).toFixed(2)} s; stalls ${r.stalls.count} (${stallsBefore} before), seeks ${seeks.length} (${seeksBefore} before)`,
    });
    expect(r.stalls.count, 'no stall after x came down').toBe(stallsBefore);
    expect(seeks.length, 'no seek after x came down').toBe(seeksBefore);
    // Not forward in a leap: the playhead moved no further than the wall clock — a leap is the
    // segment the live edge jumped (2 s), so the bar is half of it. Falling behind the clock is a
    // pause: one past the probe's stall threshold is counted above; shorter ones (a decoder
    // sharing two cores with other browsers drops behind by a second in 6 s) are not this test's
    // business.
    expect(t1 - t0 - (wall1 - wall0) / 1000, 'playhead advance beyond the wall clock (s)').toBeLessThanOrEqual(1);
    expect(await playerErrors(page)).toEqual([]);
  });
}
