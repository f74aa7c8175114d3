/**
 * Through an ETHLE edge holding x = 2 segments (2M-2s: 4 s), the probe's true latency minus its
 * distance to the manifest's edge is what the manifest hides:
 * - DASH: the hold the edge declares (X-Ethle-Hold-Seconds, the AST shift) ± 0.5 s;
 * - HLS: how long after production the edge's playlist really lists a segment — checked against
 *   an independent 25 ms poll of the edge's playlist (± 0.3 s) — which is the declared hold ± 0.5 s
 *   (the edge polls its origin just after each segment is due, by the playlist's program date-times).
 */
import { expect, test } from '@playwright/test';
import { createEdgeConfig, startEdge } from '@ethle/edge-node';
import { events, openProbePage, report, startHarness, type Harness } from '../fixtures/probeHarness.js';
import { startLiveSource, type LiveSource } from '../fixtures/liveSource.js';

const STREAM = '2M-2s';
const HOLD = 2;

let source: LiveSource;
let edge: Awaited<ReturnType<typeof startEdge>>;
let harness: Harness;
test.beforeAll(async () => {
  harness = await startHarness();
  const s = await startLiveSource(STREAM);
  source = s!;
  edge = await startEdge(createEdgeConfig({ origin: source.base, port: 0, hold: HOLD, logLevel: 'silent' }));
});
test.afterAll(async () => {
  await harness?.close();
  await edge?.close();
  await source?.close();
});

/** Median of (first seen in the playlist − production end) over the next `n` new segments, ms. */
async function listingLag(url: string, n: number): Promise<number> {
  const lags: number[] = [];
  let last: number | null = null;
  while (lags.length < n) {
    const t = Date.now();
    const text = await (await fetch(url)).text();
    const pdts = [...text.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(.+)/g)];
    const newest = Date.parse(pdts.at(-1)![1]!) + 2_000; // 2 s segments
    if (last !== null && newest !== last) lags.push(t - newest);
    last = newest;
    await new Promise((r) => setTimeout(r, 25));
  }
  return lags.sort((a, b) => a - b)[Math.floor(n / 2)]!;
}

const CASES = [
  { name: 'hls.js', player: 'hls', format: 'hls' },
  { name: 'dash.js', player: 'dash', format: 'dash' },
  { name: 'Shaka HLS', player: 'shaka', format: 'hls' },
  { name: 'Shaka DASH', player: 'shaka', format: 'dash' },
] as const;

for (const { name, player, format } of CASES) {
  test(`through the edge at hold ${HOLD}, ${name}: true latency − edge distance = what the manifest hides`, async ({ page }) => {
    const src = (format === 'hls' ? source.hls : source.dash).replace(source.base, edge.url);
    // The origin and this test share a host clock, so Date.now() is the origin's clock here.
    const independentLag = format === 'hls' ? listingLag(src, 3) : null;
    await openProbePage(page, harness, player, src);
    await expect
      .poll(
        async () => {
          const r = await report(page);
          const lagKnown = format === 'dash' || (r.manifestLag?.precisionMs ?? 1e9) <= 150;
          return (r.clock?.precisionMs ?? 1e9) <= 50 && lagKnown && r.latency.samples >= 5;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    // Five samples taken with the settled estimates.
    const n = (await events(page, 'latency')).length;
    await expect.poll(async () => (await events(page, 'latency')).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(n + 5);
    const r = await report(page);
    const declared = r.holdSeconds;
    expect(declared).toBeCloseTo(HOLD * 2, 6); // 2 segments of 2 s
    const s = (await events(page, 'latency')).filter((l) => l.trueLatency !== null && l.edgeDistance !== null).slice(-5);
    const gaps = s.map((l) => l.trueLatency - l.edgeDistance).sort((a, b) => a - b);
    const gap = gaps[Math.floor(gaps.length / 2)]!;
    test.info().annotations.push({
      type: 'latency',
      description: `${name} via edge: true ${s.at(-1).trueLatency.toFixed(3)} s, edge ${s.at(-1).edgeDistance.toFixed(3)} s, gap ${gap.toFixed(3)} s, declared hold ${declared} s, manifestLag ${JSON.stringify(r.manifestLag)}`,
    });
    if (format === 'dash') expect(Math.abs(gap - declared)).toBeLessThanOrEqual(0.5);
    else {
      const lag = (await independentLag!) / 1000;
      test.info().annotations.push({ type: 'edge listing lag', description: `independent poll: ${lag.toFixed(3)} s` });
      expect(Math.abs(gap - lag)).toBeLessThanOrEqual(0.3);
      expect(Math.abs(gap - declared)).toBeLessThanOrEqual(0.5);
    }
  });
}
