import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { metricValue, startTestOrigin, type TestOrigin } from './helpers/startTestOrigin.js';

let origin: TestOrigin;
let edge: RunningEdge;
afterEach(async () => {
  await edge?.close();
  await origin?.close();
});

describe('emulated multicast', () => {
  it('50 receivers of a segment still being fetched: one origin request, bytes flow before the fetch ends', async () => {
    origin = await startTestOrigin({ segmentBytes: 256 * 1024 });
    origin.produce(6);
    // 16 KiB every 40 ms: the origin needs ~640 ms for the whole segment.
    origin.fault('/live/a/seg2.ts', { kind: 'slow', chunkBytes: 16 * 1024, intervalMs: 40 });
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent' }));
    let firstByteAt = Number.POSITIVE_INFINITY;
    let originDoneAt = 0;
    edge.events.on('origin-fetch', (r) => {
      if (r.path === '/live/a/seg2.ts') originDoneAt = Date.now();
    });
    const results = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const res = await request(`${edge.url}/live/a/seg2.ts`);
        const chunks: Buffer[] = [];
        for await (const c of res.body) {
          firstByteAt = Math.min(firstByteAt, Date.now());
          chunks.push(c as Buffer);
        }
        return { cache: res.headers['x-ethle-cache'], body: Buffer.concat(chunks) };
      }),
    );
    expect(origin.requests('/live/a/seg2.ts')).toBe(1);
    for (const r of results) expect(r.body.equals(origin.body(2))).toBe(true);
    expect(results.filter((r) => r.cache === 'miss')).toHaveLength(1);
    expect(results.filter((r) => r.cache === 'coalesced').length).toBeGreaterThan(0);
    expect(firstByteAt).toBeLessThan(originDoneAt);
    const m = await (await request(`${edge.url}/metrics`)).body.text();
    expect(metricValue(m, 'ethle_cache_requests_total', { result: 'miss' })).toBe(1);
  });

  it('does not keep what the origin marks no-store', async () => {
    origin = await startTestOrigin();
    origin.produce(2);
    origin.headers('/live/a/seg1.ts', { 'cache-control': 'no-store' });
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent' }));
    for (let i = 0; i < 2; i++) {
      const r = await request(`${edge.url}/live/a/seg1.ts`);
      expect(r.headers['x-ethle-cache']).toBe('miss');
      await r.body.dump();
    }
    expect(origin.requests('/live/a/seg1.ts')).toBe(2);
  });

  it("the origin's other paths (stats, admin switches behind a GET) are not reachable through the edge", async () => {
    origin = await startTestOrigin();
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent' }));
    const r = await request(`${edge.url}/stats?reset=1`);
    expect(r.statusCode).toBe(404);
    await r.body.dump();
    expect(origin.requests('/stats?reset=1')).toBe(0);
  });

  it('an object larger than the cache streams through without caching and says so in metrics', async () => {
    // The smallest cache accepted (16 MiB) and a segment of a stream larger than it: it can
    // neither be cached nor held whole, so it streams through.
    origin = await startTestOrigin({ segmentBytes: 17 * 1024 * 1024 });
    origin.produce(6);
    edge = await startEdge(
      createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent', cache: { maxBytes: 16 * 1024 * 1024 } }),
    );
    await (await request(`${edge.url}/live/a/index.m3u8`)).body.dump();
    const r = await request(`${edge.url}/live/a/seg1.ts`);
    const body = Buffer.from(await r.body.arrayBuffer());
    expect(body.equals(origin.body(1))).toBe(true);
    const m = await (await request(`${edge.url}/metrics`)).body.text();
    // Offered to the cache first (a bypass; the planner's prefetches of the window's other
    // segments are bypassed too and dropped), then streamed through for its receiver.
    expect(metricValue(m, 'ethle_cache_bypass_total')).toBeGreaterThanOrEqual(1);
    expect(metricValue(m, 'ethle_pass_through_total')).toBe(1);
    expect(metricValue(m, 'ethle_held_bytes', { kind: 'transit' })).toBe(0);
    const again = await request(`${edge.url}/live/a/seg1.ts`);
    await again.body.dump();
    expect(again.headers['x-ethle-cache']).toBe('miss');
  });

  it('a slow receiver does not hold back a fast one (per-reader backpressure)', async () => {
    origin = await startTestOrigin({ segmentBytes: 4 * 1024 * 1024 });
    origin.produce(3);
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent' }));
    // A segment of the stream (an unplanned one streams through at its fastest reader's pace).
    await (await request(`${edge.url}/live/a/index.m3u8`)).body.dump();
    const slow = await request(`${edge.url}/live/a/seg1.ts`);
    // The slow reader reads nothing for now; its socket fills and its cursor waits for 'drain'.
    const fast = await request(`${edge.url}/live/a/seg1.ts`);
    const fastBody = Buffer.from(await fast.body.arrayBuffer());
    expect(fastBody.equals(origin.body(1))).toBe(true);
    const slowBody = Buffer.from(await slow.body.arrayBuffer());
    expect(slowBody.equals(origin.body(1))).toBe(true);
    expect(origin.requests('/live/a/seg1.ts')).toBe(1);
  });
});
