import { afterEach, describe, expect, it } from 'vitest';
import { SegmentCache } from '../src/cache/SegmentCache.js';
import { FlowMeter } from '../src/origin/FlowMeter.js';
import { OriginClient, type OriginFetchReport } from '../src/origin/OriginClient.js';
import { startTestOrigin, type TestOrigin } from './helpers/startTestOrigin.js';

describe('FlowMeter (time-weighted open flows)', () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, at: (ms: number) => void (t = ms) };
  };

  it('a fetch alone had 1 flow; two over the same interval had 2 each', () => {
    const c = clock();
    const m = new FlowMeter(c.now);
    const a = m.start();
    c.at(100);
    expect(a.close()).toBe(1);
    const b = m.start();
    const d = m.start();
    expect(m.open).toBe(2);
    c.at(300);
    expect(b.close()).toBe(2);
    expect(d.close()).toBe(2);
    expect(m.open).toBe(0);
  });

  it('weights by time: overlapped for half its life is 1.5; a split fetch counts its ranges', () => {
    const c = clock();
    const m = new FlowMeter(c.now);
    const long = m.start();
    c.at(500);
    const late = m.start();
    c.at(1000);
    expect(late.close()).toBe(2);
    expect(long.close()).toBe(1.5);
    const ranges = m.start(4);
    c.at(1200);
    const single = m.start();
    c.at(1400);
    expect(ranges.close()).toBe(4.5);
    c.at(1600);
    expect(single.close()).toBe(3);
  });

  it('close is idempotent and a zero-length span shares with what is open', () => {
    const c = clock();
    const m = new FlowMeter(c.now);
    const other = m.start(2);
    const z = m.start();
    expect(z.close()).toBe(3);
    expect(z.close()).toBe(3);
    expect(m.open).toBe(2);
    c.at(10);
    expect(other.close()).toBe(2);
    expect(other.close()).toBe(2);
    expect(m.open).toBe(0);
  });
});

describe('OriginClient reports how many flows shared the backhaul with each segment fetch', () => {
  let origin: TestOrigin;
  let client: OriginClient;
  afterEach(async () => {
    await client?.close();
    await origin?.close();
  });

  it('a lone fetch ≈ 1, two concurrent fetches ≈ 2 each, manifests none', async () => {
    origin = await startTestOrigin({ segmentBytes: 256 * 1024 });
    origin.produce(4);
    // Each segment trickles out over ~400 ms (playlists are one chunk): the overlap is the test's.
    origin.fault('*', { kind: 'slow', chunkBytes: 32 * 1024, intervalMs: 50 });
    const reports = new Map<string, OriginFetchReport>();
    const waiters = new Map<string, (r: OriginFetchReport) => void>();
    const cache = new SegmentCache({ maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000, now: () => Date.now() });
    client = new OriginClient({
      name: 'o',
      url: origin.url,
      connections: 4,
      headersTimeoutMs: 5_000,
      bodyTimeoutMs: 5_000,
      cache,
      onFetch: (r) => {
        reports.set(r.path, r);
        waiters.get(r.path)?.(r);
      },
    });
    const fetch = (path: string): Promise<OriginFetchReport> =>
      new Promise((resolve) => {
        waiters.set(path, resolve);
        client.fetchInto(path, cache.create(path), 'prefetch');
      });

    await client.fetchText('/live/a/index.m3u8');
    expect(reports.get('/live/a/index.m3u8')?.meanFlows).toBeUndefined();

    const alone = await fetch('/live/a/seg0.ts');
    expect(alone.outcome).toBe('ok');
    expect(alone.meanFlows).toBeGreaterThanOrEqual(1);
    expect(alone.meanFlows).toBeLessThan(1.1);

    const [a, b] = await Promise.all([fetch('/live/a/seg1.ts'), fetch('/live/a/seg2.ts')]);
    for (const r of [a, b]) {
      expect(r.outcome).toBe('ok');
      expect(r.meanFlows).toBeGreaterThan(1.6);
      expect(r.meanFlows).toBeLessThanOrEqual(2);
    }
    expect(client.flows.open).toBe(0);
  });
});
