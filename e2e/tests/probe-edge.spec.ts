/**
 * Through an ETHLE edge holding x = 2 segments (2M-2s: 4 s), the probe's true latency minus its
 * distance to the manifest's edge equals the hold the edge declares (X-Ethle-Hold-Seconds) ± 0.5 s,
 * for hls.js and dash.js: holding shows up in true latency, not in what the player believes.
 */
import { expect, test } from '@playwright/test';
import { createEdgeConfig, startEdge } from '@ethle/edge-node';
import { events, openProbePage, report } from '../../packages/qoe-probe/test-e2e/harness.js';
import { startLiveSource, type LiveSource } from '../../packages/qoe-probe/test-e2e/liveSource.js';

const STREAM = '2M-2s';
const HOLD = 2;

let source: LiveSource;
let edge: Awaited<ReturnType<typeof startEdge>>;
test.beforeAll(async () => {
  const s = await startLiveSource(STREAM);
  test.skip(s === null, '@ethle/live-origin has no startOrigin() yet');
  source = s!;
  edge = await startEdge(createEdgeConfig({ origin: source.base, port: 0, hold: HOLD, logLevel: 'silent' }));
});
test.afterAll(async () => {
  await edge?.close();
  await source?.close();
});

for (const player of ['hls', 'dash'] as const) {
  test(`through the edge at hold ${HOLD}, ${player === 'hls' ? 'hls.js' : 'dash.js'}: true latency − edge distance = declared hold ± 0.5 s`, async ({ page }) => {
    const src = (player === 'hls' ? source.hls : source.dash).replace(source.base, edge.url);
    await openProbePage(page, player, src);
    await expect
      .poll(async () => {
        const r = await report(page);
        const lagKnown = player === 'dash' || (r.manifestLag?.precisionMs ?? 1e9) <= 250;
        return (r.clock?.precisionMs ?? 1e9) <= 50 && lagKnown && r.latency.samples >= 5;
      }, { timeout: 60_000 })
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
    test.info().annotations.push({ type: 'latency', description: `${player} via edge: true ${s.at(-1).trueLatency.toFixed(3)} s, edge ${s.at(-1).edgeDistance.toFixed(3)} s, gap ${gap.toFixed(3)} s, declared hold ${declared} s, manifestLag ${JSON.stringify(r.manifestLag)}` });
    expect(Math.abs(gap - declared)).toBeLessThanOrEqual(0.5);
  });
}
