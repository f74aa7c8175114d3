import { afterEach, describe, expect, it } from 'vitest';
import { SegmentCache } from '../src/cache/SegmentCache.js';
import { BackhaulSamples, decideStreamHold as decideHold, isColdConnection, steadyFlows } from '@ethle/core';
import { FlowMeter } from '../src/origin/FlowMeter.js';
import { OriginClient } from '../src/origin/OriginClient.js';
import { ORIGIN_KEEP_ALIVE_MS } from '../src/origin/OriginDispatcher.js';
import type { OriginFetchReport } from '../src/origin/OriginFetchReport.js';
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

  /** An OriginClient on the test origin; `fetch` resolves with a segment fetch's report, `reports` has every report by path. */
  function meteredClient() {
    const reports = new Map<string, OriginFetchReport>();
    const waiters = new Map<string, (r: OriginFetchReport) => void>();
    const cache = new SegmentCache({ maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000, now: () => Date.now() });
    client = new OriginClient({
      name: 'o',
      url: origin.url,
      connections: 4,
      connectionsPerStream: 4,
      maxQueued: 16,
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
        client.fetchInto(path, cache.create(path), { priority: 'prefetch', group: 's', limits: { idleMs: 5_000, deadlineMs: 5_000 } });
      });
    return { reports, fetch };
  }

  it('a lone fetch ≈ 1, two concurrent fetches ≈ 2 each, manifests none', async () => {
    origin = await startTestOrigin({ segmentBytes: 256 * 1024 });
    origin.produce(4);
    // Each segment trickles out over ~400 ms (playlists are one chunk): the overlap is the test's.
    origin.fault('*', { kind: 'slow', chunkBytes: 32 * 1024, intervalMs: 50 });
    const { reports, fetch } = meteredClient();

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

  it('says how many bytes the connection had carried before each segment fetch: new and manifest-only connections are cold', async () => {
    const segmentBytes = 256 * 1024;
    origin = await startTestOrigin({ segmentBytes });
    origin.produce(6);
    const { reports, fetch } = meteredClient();
    const t0 = performance.now();
    // Which pooled connection a request gets depends on which is free at that instant (the one
    // that just answered may not be yet), so the assertions are about what any order must show.
    await client.fetchText('/live/a/index.m3u8');
    expect(reports.get('/live/a/index.m3u8')?.connectionBytesBefore).toBeUndefined();
    // The first segment: a new connection, or the one that carried only the playlist.
    const first = await fetch('/live/a/seg0.ts');
    expect(first.bytes).toBe(segmentBytes);
    // The head timed for the learner: half of a segment under 2 MiB, in no more than the whole.
    expect(first.burstBytes).toBe(segmentBytes / 2);
    expect(first.burstMs).toBeLessThanOrEqual(first.totalMs);
    expect(first.connectionBytesBefore).toBeLessThan(segmentBytes / 2);
    expect(isColdConnection(first.connectionBytesBefore, first.bytes)).toBe(true);
    // Two more, one after the other: at most two connections exist, one has carried a segment,
    // so one of these is on a connection past a whole segment: warm.
    const next = [await fetch('/live/a/seg1.ts'), await fetch('/live/a/seg2.ts')];
    expect(Math.max(...next.map((r) => r.connectionBytesBefore!))).toBeGreaterThan(segmentBytes);
    expect(next.some((r) => !isColdConnection(r.connectionBytesBefore, r.bytes))).toBe(true);
    // A used connection says how long it idled since its last segment; never longer than the test ran.
    for (const r of next) {
      expect(r.connectionIdleMs).toBeGreaterThanOrEqual(0);
      expect(r.connectionIdleMs).toBeLessThan(performance.now() - t0);
    }
    // Three at once, on three connections, of which at most two have carried a segment: one cold.
    origin.fault('*', { kind: 'slow', chunkBytes: 32 * 1024, intervalMs: 20 });
    const trio = await Promise.all([fetch('/live/a/seg3.ts'), fetch('/live/a/seg4.ts'), fetch('/live/a/seg5.ts')]);
    expect(trio.every((r) => r.outcome === 'ok' && r.connectionBytesBefore !== undefined)).toBe(true);
    expect(trio.some((r) => isColdConnection(r.connectionBytesBefore, r.bytes))).toBe(true);
    // A new connection (nothing received before) has no idle gap to report.
    for (const r of trio) if (r.connectionBytesBefore === 0) expect(r.connectionIdleMs).toBeUndefined();
  });
});

describe('OriginClient: connections are told apart per client', () => {
  let origin: TestOrigin;
  const clients: OriginClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    await origin?.close();
  });

  it('two clients of one origin in one process fetching the same path at once each see their own connection', async () => {
    const segmentBytes = 256 * 1024;
    origin = await startTestOrigin({ segmentBytes });
    origin.produce(4);
    const make = () => {
      const waiters = new Map<string, (r: OriginFetchReport) => void>();
      const cache = new SegmentCache({ maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000, now: () => Date.now() });
      const c = new OriginClient({
        name: 'o',
        url: origin.url,
        connections: 4,
        connectionsPerStream: 4,
        maxQueued: 16,
        headersTimeoutMs: 5_000,
        bodyTimeoutMs: 5_000,
        cache,
        onFetch: (r) => waiters.get(r.path)?.(r),
      });
      clients.push(c);
      return (path: string) =>
        new Promise<OriginFetchReport>((resolve) => {
          waiters.set(path, resolve);
          c.fetchInto(path, cache.create(path), { priority: 'prefetch', group: 's', limits: { idleMs: 5_000, deadlineMs: 5_000 } });
        });
    };
    const warm = make();
    const fresh = make();
    // The first client's connections have all carried segments; the second has none yet.
    await warm('/live/a/seg0.ts');
    await warm('/live/a/seg1.ts');
    origin.fault('*', { kind: 'slow', chunkBytes: 32 * 1024, intervalMs: 20 });
    const [a, b] = await Promise.all([warm('/live/a/seg3.ts'), fresh('/live/a/seg3.ts')]);
    expect(a.connectionBytesBefore).toBeGreaterThanOrEqual(segmentBytes);
    expect(b.connectionBytesBefore).toBe(0);
  });
});

describe('OriginClient keeps idle connections past a segment period', () => {
  let origin: TestOrigin;
  let client: OriginClient | undefined;
  afterEach(async () => {
    await client?.close();
    await origin?.close();
  });

  it("a fetch 4.5 s after the last (past undici's 4 s default) reuses the connection, when the origin keeps it", async () => {
    const segmentBytes = 256 * 1024;
    // An origin that keeps connections and, like nginx by default, sends no Keep-Alive hint
    // (Node's server sends none when its keep-alive timeout is 0). A hint would set undici's timer.
    origin = await startTestOrigin({ segmentBytes, keepAliveTimeoutMs: 0 });
    origin.produce(2);
    expect(ORIGIN_KEEP_ALIVE_MS).toBeGreaterThan(10_000);
    const waiters = new Map<string, (r: OriginFetchReport) => void>();
    const cache = new SegmentCache({ maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000, now: () => Date.now() });
    const c = new OriginClient({
      name: 'o',
      url: origin.url,
      connections: 4,
      connectionsPerStream: 4,
      maxQueued: 16,
      headersTimeoutMs: 5_000,
      bodyTimeoutMs: 5_000,
      cache,
      onFetch: (r) => waiters.get(r.path)?.(r),
    });
    client = c;
    const fetch = (path: string) =>
      new Promise<OriginFetchReport>((resolve) => {
        waiters.set(path, resolve);
        c.fetchInto(path, cache.create(path), { priority: 'prefetch', group: 's', limits: { idleMs: 5_000, deadlineMs: 5_000 } });
      });
    const first = await fetch('/live/a/seg0.ts');
    // The idle gap is what is tested: a segment period of 4.5 s.
    await new Promise((r) => setTimeout(r, 4_500));
    const second = await fetch('/live/a/seg1.ts');
    // The same connection: it had carried the first segment (a new one would have 0 before).
    expect(second.connectionBytesBefore).toBeGreaterThanOrEqual(first.bytes);
    expect(second.connectionIdleMs).toBeGreaterThanOrEqual(4_400);
  });
});

describe('BackhaulSamples: the online check learns from steady state, not from bursts', () => {
  // Japan 50M-2s (12.2 MB, 2 s, 224 ms): the model gives x = 2; at 20 Mbit/s per flow eq. 2 needs 3.
  const hold = (mbps: number | undefined) =>
    decideHold({
      rttMs: 224,
      segmentBytes: 12.2e6,
      segmentSeconds: 2,
      ranMbps: 100,
      initialWindow: 10,
      maxHold: 4,
      measuredBackhaulMbps: mbps,
    }).hold;

  it('steady state with x held runs at most x + 1 flows (at least 2: auto prefetches 1 ahead)', () => {
    expect([0, 1, 2, 3].map(steadyFlows)).toEqual([2, 2, 3, 4]);
  });

  it("a new stream's first round (many flows at once) does not raise x", () => {
    expect(hold(undefined)).toBe(2);
    const s = new BackhaulSamples();
    // x + 1 prefetches and a start segment as 4 ranges: each flow measured ~20 Mbit/s.
    for (const meanFlows of [6.2, 5.1, 4.4]) expect(s.add('o', 20, meanFlows, 2)).toBe('burst');
    expect(s.median('o')).toBeUndefined();
    expect(hold(s.median('o'))).toBe(2);
  });

  it('flows that are slow in steady state (overlapping as x + 1 do) raise x', () => {
    const s = new BackhaulSamples();
    for (const meanFlows of [2.4, 2.5, 2.9]) expect(s.add('o', 20, meanFlows, 2)).toBe('steady');
    expect(s.median('o')).toBe(20);
    expect(hold(s.median('o'))).toBe(3);
  });

  it("a fetch on a cold connection (a stream's first fetches, each on a new connection) does not raise x", () => {
    const s = new BackhaulSamples();
    for (let i = 0; i < 3; i++) expect(s.add('o', 20, 1.5, 2, true)).toBe('cold');
    expect(s.median('o')).toBeUndefined();
    // A burst is a burst whatever its connection.
    expect(s.add('o', 20, 6, 2, true)).toBe('burst');
    // Less than half a segment before (manifests, nothing) is cold; unknown is not.
    expect([
      isColdConnection(0, 12.2e6),
      isColdConnection(5_606, 12.2e6),
      isColdConnection(6.2e6, 12.2e6),
      isColdConnection(undefined, 12.2e6),
    ]).toEqual([true, true, false, false]);
  });

  it('median of the last `keep` steady samples, per origin, none before `min`', () => {
    const s = new BackhaulSamples(4, 3);
    s.add('a', 10, 1, 1);
    s.add('a', 30, 1, 1);
    expect(s.median('a')).toBeUndefined();
    s.add('a', 20, 1.9, 1);
    expect(s.median('a')).toBe(20);
    for (const v of [50, 60, 70]) s.add('a', v, 1, 1);
    expect(s.median('a')).toBe(60); // [20, 50, 60, 70]
    expect(s.median('b')).toBeUndefined();
  });
});
