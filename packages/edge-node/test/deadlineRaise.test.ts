import { describe, it, type TestContext } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type EdgeConfigInput, type RunningEdge } from '../src/index.js';
import { metricValue, startTestOrigin, until } from './helpers/startTestOrigin.js';

/**
 * 256 KiB segments of 1 s (2.1 Mbit/s), produced once a second like a live origin, and an edge in
 * front of it; closed when the test ends (edge, producer, origin). Each test has its own: the last
 * two run side by side, each waiting on its origin's clock (their bounds are on counts and a
 * lower bound on time). The first judges a raise against a deadline in real time (before the
 * segment becomes visible): alone, as a lagging event loop could make it late.
 */
async function liveOriginAndEdge(
  { onTestFinished }: TestContext,
  config: Partial<EdgeConfigInput>,
  onProduce: (n: number) => void = () => undefined,
): Promise<{ origin: Awaited<ReturnType<typeof startTestOrigin>>; edge: RunningEdge }> {
  const origin = await startTestOrigin({
    segmentBytes: 256 * 1024,
    window: 10,
    targetDuration: 1,
    bitrateKbps: 2097,
    programDateTime: true,
  });
  onTestFinished(() => origin.close());
  origin.produce(6);
  const producer = setInterval(() => {
    onProduce(origin.produced);
    origin.produce(1);
  }, 1000);
  onTestFinished(() => clearInterval(producer));
  // Loopback with a told backhaul RTT: the paper's model, pinned (the default learns from the
  // origin's fetches, and loopback delivers like an origin that keeps its window).
  const edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, logLevel: 'silent', backhaulRttMs: 20, ...config }));
  onTestFinished(() => edge.close());
  return { origin, edge };
}

/**
 * A receiver whose radio (2.2 Mbit/s, measured: it has media buffered) just carries the stream:
 * eq. 3 holds, eq. 1 does not — it is in the hold-x group, so held segments have deadlines.
 * `play()` reads its playlist and fetches the newest segment listed; returns the x served.
 */
function holdXReceiver(e: RunningEdge) {
  let bl = 1000;
  return async (): Promise<number> => {
    const cmcd = encodeURIComponent(`bl=${(bl += 100)},mtp=2200,sid="r1"`);
    const r = await request(`${e.url}/live/a/index.m3u8?CMCD=${cmcd}`);
    const x = Number(r.headers['x-ethle-hold-segments']);
    const last = /seg(\d+)\.ts\s*$/.exec((await r.body.text()).trim());
    if (last) await (await request(`${e.url}/live/a/seg${last[1]}.ts`)).body.dump();
    return x;
  };
}

/** Plays until the playlist is held and the edge has a measured steady-state flow rate (three such fetches): deadlines need one. */
async function heldAndMeasured(e: RunningEdge, play: () => Promise<number>): Promise<void> {
  await until(
    async () => {
      const x = await play();
      const m = await (await request(`${e.url}/metrics`)).body.text();
      return x >= 1 && (metricValue(m, 'ethle_backhaul_segment_mbps_count', { origin: 'origin', flows: 'steady' }) ?? 0) >= 3;
    },
    'a held playlist and a measured backhaul',
    15_000,
  );
}

describe('deadline-aware prefetch at the edge (issue 19)', () => {
  it('a held segment whose fetch will end after it becomes visible raises x at once, before its slow sample arrives', async (ctx) => {
    const { expect } = ctx;
    const producedAt = new Map<number, number>();
    const { origin, edge } = await liveOriginAndEdge(ctx, { segmentStart: 'slow-start', hold: 'auto' }, (n) =>
      producedAt.set(n, Date.now()),
    );
    const changes: Array<{ hold: number; reason: string; atMs: number }> = [];
    edge.events.on('hold-change', (e) => changes.push({ hold: e.hold, reason: e.reason, atMs: Date.now() }));
    const play = holdXReceiver(edge);
    await heldAndMeasured(edge, play);
    const before = await play();
    // From now on every segment trickles out in ~3.2 s (8 KiB per 100 ms): 2.2 s more than x = 1
    // allows, beyond the half segment a miss is tolerated.
    const slowFrom = Date.now();
    origin.faultPrefix('/live/a/seg', { kind: 'slow', chunkBytes: 8 * 1024, intervalMs: 100 });
    const raised = await until(
      async () => {
        // The receiver plays: it asks for the newest segment its playlist lists.
        await play();
        return changes.find((c) => c.atMs >= slowFrom && c.hold > before);
      },
      'x raised',
      20_000,
    );
    // Raised by the planner's deadline check, and before the deadline passed: the fetch under way
    // was projected at its own (slow) rate, not at the fast rate earlier fetches measured.
    expect(raised.reason).toMatch(/a held segment's fetch misses its deadline \((\d+)/);
    const late = Number(/\((\d+)/.exec(raised.reason)![1]);
    const visibleAt = producedAt.get(late)! + before * 1000;
    expect(raised.atMs).toBeLessThan(visibleAt);
  }, 30_000);

  it.concurrent(
    'a held segment that would miss its deadline waiting for a parallel slot is fetched at once, beyond x + 1 (up to maxHold + 1)',
    async (ctx) => {
      const { expect } = ctx;
      // A fixed x = 1, so x cannot grow instead: 2 parallel fetches, up to 5 (maxHold + 1) in a burst.
      const { origin, edge } = await liveOriginAndEdge(ctx, { hold: 1, maxHold: 4 });
      const play = holdXReceiver(edge);
      await heldAndMeasured(edge, play);
      const bursts = async () =>
        metricValue(await (await request(`${edge.url}/metrics`)).body.text(), 'ethle_prefetch_bursts_total', { origin: 'origin' }) ?? 0;
      expect(await bursts()).toBe(0);
      // Every segment now takes ~3.2 s (16 KiB per 200 ms) and one is produced a second: x + 1
      // slots fill, and the next segment would wait for one past its deadline.
      origin.faultPrefix('/live/a/seg', { kind: 'slow', chunkBytes: 16 * 1024, intervalMs: 200 });
      origin.takePeakSegmentsInProgress();
      let servedX = 0;
      await until(
        async () => {
          servedX = Math.max(servedX, await play());
          return (await bursts()) > 0;
        },
        'a prefetch beyond x + 1',
        20_000,
      );
      // The origin saw more segments sent at once than x + 1 (the receiver's own fetch of the newest
      // listed segment is one of them), and no more than maxHold + 1.
      expect(servedX).toBe(1);
      const peak = origin.takePeakSegmentsInProgress();
      expect(peak).toBeGreaterThan(2);
      expect(peak).toBeLessThanOrEqual(5);
    },
    40_000,
  );

  it.concurrent(
    'x both ways: raised on a slow patch, lowered once the backhaul has recovered for the configured dwell (lowerHoldAfterSegments/Samples)',
    async (ctx) => {
      const { expect } = ctx;
      // A dwell of 2 segment periods and 2 samples, so the test sees x come down in seconds.
      const { origin, edge } = await liveOriginAndEdge(ctx, {
        segmentStart: 'slow-start',
        hold: 'auto',
        lowerHoldAfterSegments: 2,
        lowerHoldAfterSamples: 2,
      });
      const changes: Array<{ hold: number; reason: string; atMs: number }> = [];
      edge.events.on('hold-change', (e) => changes.push({ hold: e.hold, reason: e.reason, atMs: Date.now() }));
      const play = holdXReceiver(edge);
      await heldAndMeasured(edge, play);
      const before = await play();
      origin.faultPrefix('/live/a/seg', { kind: 'slow', chunkBytes: 16 * 1024, intervalMs: 100 });
      const raised = await until(async () => (await play(), changes.find((c) => c.hold > before)), 'x raised', 20_000);
      // The slow patch ends: fetches are fast again, and after the dwell x comes back down.
      origin.faultPrefix('/live/a/seg', undefined);
      const recoveredAt = Date.now();
      const lowered = await until(
        async () => (await play(), changes.find((c) => c.atMs > raised.atMs && c.hold < raised.hold)),
        'x lowered',
        25_000,
      );
      expect(lowered.reason).toMatch(/^lowered: /);
      expect(lowered.hold).toBeGreaterThanOrEqual(before);
      // Not before the dwell: two segment periods (2 s) of fast samples after the patch ended.
      expect(lowered.atMs - recoveredAt).toBeGreaterThanOrEqual(2000);
      // And the served playlist says so.
      await until(async () => (await play()) === lowered.hold, 'the lowered x served', 5_000);
    },
    60_000,
  );
});
