import { afterEach, describe, expect, it } from 'vitest';
import { clientKey } from '../src/http/clientKey.js';
import { createEdgeConfig, startEdge, type EdgeConfigInput, type RunningEdge } from '../src/index.js';
import { capturedLogger } from './helpers/capturedLogger.js';
import { openSlowClient } from './helpers/slowClient.js';
import { metricValue, startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

// Issue 36, majors 3 and 4: the edge's receiver connections under close and under one greedy client.
let origin: TestOrigin | undefined;
let edge: RunningEdge | undefined;
const cleanup: Array<() => void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) c();
  await edge?.close();
  await origin?.close();
  edge = origin = undefined;
});

async function setup(segmentBytes: number, extra: Partial<EdgeConfigInput> = {}, logger?: ReturnType<typeof capturedLogger>) {
  origin = await startTestOrigin({ segmentBytes });
  origin.produce(4);
  edge = await startEdge(
    createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent', originProbeMs: 0, ...extra }),
    logger === undefined ? {} : { logger: logger.logger },
  );
  return edge;
}

const SLOW = { bytesPerTick: 64 * 1024, tickMs: 2 }; // at most ~32 MB/s

describe('close() drains', () => {
  it('four slow readers of a cached 12 MB segment each get all of it', { timeout: 60_000 }, async () => {
    const e = await setup(12 * 1024 * 1024, { drainMs: 20_000 });
    const warm = await openSlowClient(e.url);
    cleanup.push(warm.destroy);
    expect((await warm.get('/live/a/seg1.ts')).complete).toBe(true);
    const readers = await Promise.all(Array.from({ length: 4 }, () => openSlowClient(e.url)));
    for (const r of readers) cleanup.push(r.destroy);
    const bodies = readers.map((r) => r.get('/live/a/seg1.ts', SLOW));
    // Each is mid-segment when the edge closes: a 12 MB segment at ≤ 32 MB/s, most of it still
    // queued at the edge (the kernel's loopback buffers hold ~4 MB).
    await until(() => readers.every((r) => r.received() > 0), 'every response started');
    const closing = edge!.close();
    edge = undefined;
    for (const b of await Promise.all(bodies)) {
      expect(b.status).toBe(200);
      expect(b.complete).toBe(true);
      expect(b.body.equals(origin!.body(1))).toBe(true);
    }
    await closing;
    // Idle connections (the warm-up's) were closed at once, not kept until the drain ended.
    await warm.closed();
  });

  it('a reader that reads nothing is cut after drainMs, and counted in the closing line', async () => {
    const log = capturedLogger('info');
    const e = await setup(12 * 1024 * 1024, { drainMs: 500 }, log);
    const stuck = await openSlowClient(e.url);
    cleanup.push(stuck.destroy);
    const rate = { bytesPerTick: 0, tickMs: 50 };
    const body = stuck.get('/live/a/seg1.ts', rate);
    await until(() => e.stats().cacheEntries > 0, 'segment requested');
    const t0 = Date.now();
    await edge!.close();
    edge = undefined;
    expect(Date.now() - t0).toBeLessThan(5000);
    // It reads again: what the kernel had buffered, then the end — short of the segment.
    rate.bytesPerTick = Infinity;
    expect((await body).complete).toBe(false);
    expect(log.lines.find((l) => l.msg === 'edge closed')).toMatchObject({ cut: 1 });
  });
});

describe('maxConnectionsPerClient', () => {
  it("one client's idle sockets, reopened as they close, do not starve another client's requests", { timeout: 60_000 }, async () => {
    const e = await setup(64 * 1024, { maxConnections: 20, maxConnectionsPerClient: 10, requestHeadersTimeoutMs: 1000 });
    // The greedy client (127.0.0.2) keeps 30 idle sockets open: every one closed is reopened.
    let stop = false;
    let opened = 0;
    const hold = async (): Promise<void> => {
      while (!stop) {
        try {
          const c = await openSlowClient(e.url, { localAddress: '127.0.0.2' });
          // Read what comes (the edge's 408 when the socket times out, then its close): a paused
          // socket never reads the close, and this loop would wait on it for good.
          c.socket.resume();
          opened += 1;
          cleanup.push(c.destroy);
          await c.closed();
          await new Promise((r) => setTimeout(r, 50));
        } catch {
          await new Promise((r) => setTimeout(r, 10));
        }
      }
    };
    const greedy = Array.from({ length: 30 }, hold);
    cleanup.push(() => (stop = true));
    await until(() => opened >= 30, 'greedy sockets opened');
    // Another client (127.0.0.1): 20 playlist requests, each on a new connection, over ~2 s
    // (past the greedy sockets' request timeout, so they are closed and reopened meanwhile).
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const c = await openSlowClient(e.url, { localAddress: '127.0.0.1' });
      statuses.push((await c.get('/live/a/index.m3u8')).status);
      c.destroy();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(statuses).toEqual(Array(20).fill(200));
    // The greedy client still holds sockets. Waited for, not sampled once: its accepted sockets can
    // time out together and be gone for the moment it takes to reopen them.
    await until(() => e.stats().clients >= 1, 'the greedy client connected', 5_000);
    const m = await (await fetch(`${e.url}/metrics`)).text();
    expect(metricValue(m, 'ethle_connections_refused_total', { reason: 'per_client' })).toBeGreaterThanOrEqual(20);
    stop = true;
    for (const c of cleanup.splice(0)) c();
    await Promise.all(greedy);
  });

  it('is validated against maxConnections and defaults below it', () => {
    expect(() => createEdgeConfig({ origin: 'http://o', maxConnections: 10, maxConnectionsPerClient: 11 })).toThrow(
      /maxConnectionsPerClient/,
    );
    expect(createEdgeConfig({ origin: 'http://o', maxConnections: 10_000 }).maxConnectionsPerClient).toBe(256);
    expect(createEdgeConfig({ origin: 'http://o', maxConnections: 10_000, role: 'parent' }).maxConnectionsPerClient).toBe(10_000);
    expect(createEdgeConfig({ origin: 'http://o', maxConnections: 10_000, maxConnectionsPerClient: 0 }).maxConnectionsPerClient).toBe(
      10_000,
    );
  });
});

describe('clientKey', () => {
  it('an IPv4 address is its own client; an IPv6 host is its /64, however written; a mapped IPv4 is the IPv4', () => {
    expect(clientKey('10.1.2.3')).toBe('10.1.2.3');
    expect(clientKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey(undefined)).toBe('?');
  });
});
