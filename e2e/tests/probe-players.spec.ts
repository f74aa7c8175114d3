/**
 * The QoE probe inside real players (Debian Chromium, hls.js and dash.js) against the live origin,
 * on the direct path: startup is plausible, true latency ≈ the distance to the manifest's edge,
 * a seek is not a stall, and pausing the origin's delivery for longer than the buffer is one stall
 * from the buffer running out to delivery resuming; the beacon reaches a collector, with the report
 * on pagehide.
 */
import { expect, test, type Page } from '@playwright/test';
import { bufferAhead, events, openProbePage, report, startHarness, type Harness } from '../fixtures/probeHarness.js';
import { startLiveSource, type LiveSource } from '../fixtures/liveSource.js';

const STREAM = '2M-2s'; // low bitrate spares the CPU
const SEGMENT_MS = 2_000; // its segment duration

let source: LiveSource;
let harness: Harness;
test.beforeAll(async () => {
  harness = await startHarness();
  const s = await startLiveSource(STREAM);
  source = s!;
});
test.afterAll(async () => {
  await harness?.close();
  await source?.close();
});

/** Median of (true latency − distance to the manifest's edge) over the newest n samples. */
async function latencyGap(page: Page, n: number): Promise<{ gap: number; trueLatency: number; edge: number }> {
  const s = (await events(page, 'latency')).filter((l) => l.trueLatency !== null && l.edgeDistance !== null).slice(-n);
  const gaps = s.map((l) => l.trueLatency - l.edgeDistance).sort((a, b) => a - b);
  const last = s.at(-1);
  return { gap: gaps[Math.floor(gaps.length / 2)]!, trueLatency: last.trueLatency, edge: last.edgeDistance };
}

/** Each player on the format it plays; Shaka on both. `format` says how latency is read (HLS: program date-time and the playlist's lag). */
const CASES = [
  { name: 'hls.js', player: 'hls', format: 'hls' },
  { name: 'dash.js', player: 'dash', format: 'dash' },
  { name: 'Shaka HLS', player: 'shaka', format: 'hls' },
  { name: 'Shaka DASH', player: 'shaka', format: 'dash' },
] as const;

for (const { name, player, format } of CASES) {
  test(`probe in ${name}: startup, latency, seek, one stall per delivery pause`, async ({ page }) => {
    await openProbePage(page, harness, player, format === 'hls' ? source.hls : source.dash, true);

    await test.step('startup is reported and plausible', async () => {
      await expect.poll(async () => (await report(page)).startupMs, { timeout: 20_000 }).not.toBeNull();
      const { startupMs } = await report(page);
      test.info().annotations.push({ type: 'startup', description: `${name}: ${startupMs.toFixed(0)} ms` });
      expect(startupMs).toBeGreaterThan(0);
      expect(startupMs).toBeLessThan(15_000);
    });

    await test.step('each media request is labelled new or reused connection (Resource Timing, cross-origin through Timing-Allow-Origin)', async () => {
      await expect
        .poll(async () => (await report(page)).segments.list.filter((s: any) => s.kind === 'media').length, { timeout: 20_000 })
        .toBeGreaterThanOrEqual(3);
      const media = (await report(page)).segments.list.filter((s: any) => s.kind === 'media');
      // A label may follow its request by one observer callback.
      await expect
        .poll(
          async () =>
            (await report(page)).segments.list.filter(
              (s: any) => s.kind === 'media' && s.connection === undefined && media.some((m: any) => m.url === s.url),
            ).length,
          { timeout: 5_000 },
        )
        .toBe(0);
      const labels = (await report(page)).segments.list.filter((s: any) => s.kind === 'media').map((s: any) => s.connection);
      test.info().annotations.push({ type: 'connections', description: `${name}: ${labels.join(' ')}` });
      // Keep-alive on loopback: most requests reuse a connection; a browser opens at most 6 per host.
      expect(labels.filter((l: string) => l === 'reused').length).toBeGreaterThan(0);
      expect(labels.filter((l: string) => l === 'new').length).toBeLessThanOrEqual(6);
    });

    await test.step('direct path: true latency − distance to the manifest edge ≈ 0 ± 0.5 s', async () => {
      // Wait for the clock (and, for HLS, the playlist's edge timing) to settle, then 5 samples.
      await expect
        .poll(
          async () => {
            const r = await report(page);
            const lagKnown = format === 'dash' || (r.manifestLag?.precisionMs ?? 1e9) <= 250;
            return (r.clock?.precisionMs ?? 1e9) <= 50 && lagKnown && r.latency.samples >= 5;
          },
          { timeout: 40_000 },
        )
        .toBe(true);
      // Five samples taken with the settled estimates.
      const n = (await events(page, 'latency')).length;
      await expect.poll(async () => (await events(page, 'latency')).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(n + 5);
      const { gap, trueLatency, edge } = await latencyGap(page, 5);
      test.info().annotations.push({
        type: 'latency',
        description: `${name}: true ${trueLatency.toFixed(3)} s, edge ${edge.toFixed(3)} s, gap ${gap.toFixed(3)} s`,
      });
      expect(trueLatency).toBeGreaterThan(0);
      expect(Math.abs(gap)).toBeLessThanOrEqual(0.5);
    });

    await test.step('a seek is not a stall', async () => {
      const before = (await report(page)).stalls.count;
      const t0 = await page.evaluate(() => (window as any).video.currentTime);
      await page.evaluate(() => {
        const v = (window as any).video as HTMLVideoElement;
        v.currentTime = Math.max(v.seekable.start(0) + 1, v.currentTime - 6);
      });
      // Playing again past the seek target for 3 s of media.
      await expect.poll(() => page.evaluate(() => (window as any).video.seeking), { timeout: 15_000 }).toBe(false);
      const target = await page.evaluate(() => (window as any).video.currentTime);
      expect(target).toBeLessThan(t0);
      await expect.poll(() => page.evaluate(() => (window as any).video.currentTime), { timeout: 20_000 }).toBeGreaterThan(target + 3);
      expect((await report(page)).stalls.count).toBe(before);
      expect(await events(page, 'stallStart')).toHaveLength(before);
    });

    await test.step('pausing the origin longer than the buffer is ONE stall, from the buffer running out to ≤ 0.5 s after delivery resumes', async () => {
      const before = (await report(page)).stalls.count;
      const ahead = await bufferAhead(page);
      const pauseMs = Math.round(ahead * 1000) + 4_000;
      // Page clock (the probe's): the pause begins within one evaluate round trip after this.
      const pausedAt = await page.evaluate(() => performance.timeOrigin + performance.now());
      await source.pauseDelivery(pauseMs);
      const resumedAt = pausedAt + pauseMs;
      const aheadAtPause = await bufferAhead(page); // read right after the pause began
      await expect.poll(async () => (await report(page)).stalls.count, { timeout: pauseMs + 20_000 }).toBeGreaterThan(before);
      // Let playback run on a while: a second stall would show up here.
      await page.waitForFunction(
        (c) => (window as any).video.currentTime > c + 4,
        await page.evaluate(() => (window as any).video.currentTime),
        { timeout: 20_000 },
      );
      const r = await report(page);
      const stalls = r.stalls.list.slice(before);
      test.info().annotations.push({
        type: 'stall',
        description:
          `${name}: pause ${pauseMs} ms, ahead ${(aheadAtPause * 1000).toFixed(0)} ms, stall ` +
          stalls
            .map(
              (s: any) =>
                `${s.durationMs.toFixed(0)} ms from pause+${(s.start - pausedAt).toFixed(0)} to resume${s.end - resumedAt >= 0 ? '+' : ''}${(s.end - resumedAt).toFixed(0)}`,
            )
            .join(', '),
      });
      expect(stalls).toHaveLength(1);
      const [stall] = stalls;
      // It starts no earlier than the media buffered when the pause began runs out (a segment
      // received just before the pause may still be appended after that reading, so later is
      // allowed: the duration alone, pause − buffered ahead, is a race in the test, not the probe).
      expect(stall.start - pausedAt).toBeGreaterThanOrEqual(aheadAtPause * 1000 - 500);
      // It cannot end before delivery resumes, and ends ≤ 0.5 s after with hls.js; dash.js up to one
      // segment later (seen: 1.96 s): it can re-request the segment that was in flight when delivery
      // stopped instead of taking it as it resumes, which the probe then rightly times. Open: why.
      expect(stall.end - resumedAt).toBeGreaterThanOrEqual(-100);
      expect(stall.end - resumedAt).toBeLessThanOrEqual(player === 'hls' ? 500 : 500 + SEGMENT_MS);
    });

    await test.step('the beacon delivers batches and, on pagehide, the report', async () => {
      const session = (await report(page)).session;
      await page.goto('about:blank'); // pagehide
      const mine = () => harness.beacons.filter((b) => b.session === session);
      await expect.poll(() => mine().some((b) => b.report), { timeout: 10_000 }).toBe(true);
      const batches = mine();
      expect(batches.map((b) => b.seq)).toEqual(batches.map((_, i) => i));
      const types = new Set(batches.flatMap((b) => b.events.map((e: any) => e.type)));
      for (const t of ['startup', 'stallEnd', 'latency', 'segment']) expect(types).toContain(t);
      expect(batches.at(-1).report.stalls.count).toBeGreaterThanOrEqual(1);
    });
  });
}
