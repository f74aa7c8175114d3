import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { capturedLogger } from './helpers/capturedLogger.js';
import { metricValue, startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

let origin: TestOrigin;
let edge: RunningEdge;
let producer: NodeJS.Timeout | undefined;
afterEach(async () => {
  clearInterval(producer);
  await edge?.close();
  await origin?.close();
});

/**
 * A live origin producing a 256 KiB segment of 1 s once a second, an edge told the backhaul RTT
 * is 20 ms (loopback has none), and a receiver that keeps playing: the edge prefetches every
 * segment on a pooled connection that idled ~1 s since its last one — past the RTO (≥ 225 ms
 * here). Slow start from IW 10 needs ~85 ms for 256 KiB at 20 ms; loopback delivers it in a few,
 * unless the origin trickles it.
 */
async function learnFrom(trickle: boolean) {
  origin = await startTestOrigin({ segmentBytes: 256 * 1024, window: 10, targetDuration: 1, bitrateKbps: 2097, programDateTime: true });
  origin.produce(6);
  producer = setInterval(() => origin.produce(1), 1000);
  // 32 KiB per 30 ms: 256 KiB in ~210 ms, slower than slow start's ~85 ms (the 0.8 share: 68).
  if (trickle) origin.faultPrefix('/live/a/seg', { kind: 'slow', chunkBytes: 32 * 1024, intervalMs: 30 });
  const log = capturedLogger('info');
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, backhaulRttMs: 20, hold: 'auto', segmentStart: 'learn' }), {
    logger: log.logger,
  });
  const learnt = await until(
    async () => {
      const r = await request(`${edge.url}/live/a/index.m3u8`);
      const last = /seg(\d+)\.ts\s*$/.exec((await r.body.text()).trim());
      if (last) await (await request(`${edge.url}/live/a/seg${last[1]}.ts`)).body.dump();
      return log.lines.find((l) => l.msg === 'origin segment start learnt');
      // Five idle verdicts in a row for warm; here they come one every 2–3 s (15 s on a quiet box).
    },
    'the origin segment start learnt',
    45_000,
  );
  const m = await (await request(`${edge.url}/metrics`)).body.text();
  const count = (start: string) => metricValue(m, 'ethle_origin_idle_fetches_total', { origin: 'origin', start }) ?? 0;
  return { learnt, warm: count('warm'), slow: count('slow-start') };
}

describe("segmentStart 'learn': the edge finds out how its origin treats idle connections (issue 19)", () => {
  it('segments delivered faster than slow start allows, after an idle gap: the origin keeps its window (warm)', async () => {
    const r = await learnFrom(false);
    expect(r.learnt).toMatchObject({ origin: 'origin', learned: 'warm', configured: 'learn', inUse: 'warm' });
    // Warm takes the last five idle fetches all warm (OriginStartLearner).
    expect(r.warm).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it("segments that take slow start's time or longer: the origin restarts idle connections (slow-start)", async () => {
    const r = await learnFrom(true);
    expect(r.learnt).toMatchObject({ origin: 'origin', learned: 'slow-start', configured: 'learn', inUse: 'slow-start' });
    expect(r.slow).toBeGreaterThanOrEqual(3);
    expect(r.warm).toBe(0);
  }, 60_000);
});
