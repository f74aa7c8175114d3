import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CacheEntry } from '../src/cache/CacheEntry.js';
import { SegmentCache } from '../src/cache/SegmentCache.js';
import { serveEntry } from '../src/cache/serveEntry.js';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { FetchScheduler } from '../src/origin/FetchScheduler.js';
import { OriginClient } from '../src/origin/OriginClient.js';
import type { OriginFetchReport } from '../src/origin/OriginFetchReport.js';
import { metricValue, startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

// Issue 36, blocker 2: no exception in a request or a fetch ends the process. A failure stays
// with its request or fetch, is reported (logged and counted by the edge's `bug`), and the next
// one is served. Each test plants a bug at one boundary and checks that nothing escaped.

const escaped: unknown[] = [];
const onEscape = (e: unknown): void => void escaped.push(e);
beforeEach(() => {
  escaped.length = 0;
  process.on('unhandledRejection', onEscape);
  process.on('uncaughtException', onEscape);
});
afterEach(() => {
  process.off('unhandledRejection', onEscape);
  process.off('uncaughtException', onEscape);
});

describe('a bug stays with its fetch', () => {
  it('FetchScheduler: a queued job that throws when it starts (from another job’s completion) gives its slot back and is reported', async () => {
    const errors: unknown[] = [];
    const s = new FetchScheduler({ limit: 1, groupLimit: 1, maxQueued: 8, onError: (e) => errors.push(e) });
    let finishFirst!: () => void;
    s.enqueue('a', 'g', 'prefetch', () => new Promise<void>((r) => (finishFirst = r)));
    s.enqueue('b', 'g', 'prefetch', () => {
      throw new RangeError('planted');
    });
    let thirdRan = false;
    s.enqueue('c', 'g', 'prefetch', async () => {
      thirdRan = true;
    });
    expect(s.queued).toBe(2);
    finishFirst();
    await until(() => thirdRan, 'the job after the throwing one ran');
    await until(() => s.running === 0, 'every slot given back');
    expect(errors.map((e) => (e as Error).message)).toEqual(['planted']);
    expect(escaped).toEqual([]);
  });

  describe('OriginClient', () => {
    let origin: TestOrigin;
    let client: OriginClient;
    afterEach(async () => {
      await client?.close();
      await origin?.close();
    });

    it('a fetch whose deadline is not a number fails with ERR_EDGE_INTERNAL, reported; the next fetch is served', async () => {
      origin = await startTestOrigin();
      origin.produce(3);
      const cache = new SegmentCache({ maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000, now: () => Date.now() });
      const reports: OriginFetchReport[] = [];
      const bugs: string[] = [];
      client = new OriginClient({
        name: 'o',
        url: origin.url,
        connections: 1,
        connectionsPerStream: 1,
        maxQueued: 8,
        headersTimeoutMs: 5_000,
        bodyTimeoutMs: 5_000,
        cache,
        onFetch: (r) => reports.push(r),
        onBug: (where, e) => bugs.push(`${where}: ${(e as Error).message}`),
      });
      const first = cache.create('o/live/a/seg0.ts');
      const broken = cache.create('o/live/a/seg1.ts');
      const after = cache.create('o/live/a/seg2.ts');
      // One slot: the broken fetch starts from the first one's completion.
      client.fetchInto('/live/a/seg0.ts', first, { priority: 'prefetch', group: 's', limits: { idleMs: 5_000, deadlineMs: 5_000 } });
      client.fetchInto('/live/a/seg1.ts', broken, {
        priority: 'prefetch',
        group: 's',
        limits: { idleMs: Number.NaN, deadlineMs: Number.NaN },
      });
      client.fetchInto('/live/a/seg2.ts', after, { priority: 'prefetch', group: 's', limits: { idleMs: 5_000, deadlineMs: 5_000 } });
      await expect(broken.whenComplete()).rejects.toMatchObject({ code: 'ERR_EDGE_INTERNAL' });
      await after.whenComplete();
      expect(Buffer.concat(after.chunks).equals(origin.body(2))).toBe(true);
      expect(reports.find((r) => r.path === '/live/a/seg1.ts')?.outcome).toBe('internal');
      expect(bugs).toHaveLength(1);
      expect(bugs[0]).toMatch(/^origin fetch: .*NaN/);
      expect(escaped).toEqual([]);
    });
  });
});

describe('a bug on the manifest path stays with its fetch', () => {
  let origin: TestOrigin;
  let client: OriginClient | undefined;
  let edge: RunningEdge | undefined;
  afterEach(async () => {
    await client?.close();
    await edge?.close();
    await origin?.close();
    client = undefined;
    edge = undefined;
  });

  // Issue 36: a manifest fetch's bug was answered ERR_EDGE_INTERNAL but never reported (a segment
  // fetch's was): no log line, no count.
  it('OriginClient.fetchText: a throw in what its report feeds fails that fetch with ERR_EDGE_INTERNAL, reported once', async () => {
    origin = await startTestOrigin();
    origin.produce(3);
    const bugs: string[] = [];
    client = new OriginClient({
      name: 'o',
      url: origin.url,
      connections: 1,
      connectionsPerStream: 1,
      maxQueued: 8,
      headersTimeoutMs: 5_000,
      bodyTimeoutMs: 5_000,
      cache: new SegmentCache({ maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000, now: () => Date.now() }),
      onFetch: (r) => {
        if (r.kind === 'manifest' && r.outcome === 'ok') throw new TypeError('planted');
      },
      onBug: (where, e) => bugs.push(`${where}: ${(e as Error).message}`),
    });
    await expect(client.fetchText('/live/a/index.m3u8')).rejects.toMatchObject({ code: 'ERR_EDGE_INTERNAL' });
    expect(bugs).toEqual(['manifest fetch: planted']);
    expect(escaped).toEqual([]);
  });

  it('at the edge: the request gets a coded 500, the bug is logged once with its stack and counted, the next is served', async () => {
    origin = await startTestOrigin();
    origin.produce(6);
    // The planted bug: a log destination that throws on the warning a failed manifest fetch
    // writes (recordOriginFetch, inside the fetch's report). Every other line is kept.
    const lines: Array<Record<string, unknown>> = [];
    const destination = {
      write(line: string): void {
        const l = JSON.parse(line) as Record<string, unknown>;
        if (l['msg'] === 'origin fetch failed' && l['kind'] === 'manifest') throw new TypeError('planted in the log destination');
        lines.push(l);
      },
    };
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, originProbeMs: 0, logLevel: 'info' }), {
      logger: pino({ level: 'info' }, destination),
    });
    const get = async (path: string) => {
      const r = await request(`${edge!.url}${path}`);
      return { status: r.statusCode, code: r.headers['x-ethle-error'], text: await r.body.text() };
    };
    origin.fault('/live/nope/index.m3u8', { kind: 'status', status: 404 });
    const broken = await get('/live/nope/index.m3u8');
    expect(broken.status).toBe(500);
    expect(broken.code).toBe('ERR_EDGE_INTERNAL');
    const bugs = lines.filter((l) => String(l['msg']).startsWith('internal error'));
    expect(bugs).toHaveLength(1);
    expect(bugs[0]).toMatchObject({ where: 'manifest fetch', err: { message: 'planted in the log destination' } });
    expect(String((bugs[0]!['err'] as { stack?: unknown }).stack)).toMatch(/TypeError: planted in the log destination\n\s+at /);
    const m = await get('/metrics');
    expect(metricValue(m.text, 'ethle_internal_errors_total', { where: 'manifest fetch' })).toBe(1);
    // Another stream's manifest (its fetch reports no failure) is served.
    expect((await get('/live/a/index.m3u8')).status).toBe(200);
    expect(escaped).toEqual([]);
  });
});

describe('a bug stays with its response', () => {
  let server: Server;
  afterEach(() => new Promise<void>((r) => server.close(() => r())));

  it('serveEntry: a throw while answering cuts that response only, is reported, and the server answers the next request', async () => {
    const entry = new CacheEntry('k', Date.now());
    entry.setHeaders({ 'content-type': 'video/mp4' }, 4);
    entry.push(Buffer.from('abcd'));
    entry.end();
    const bugs: unknown[] = [];
    let n = 0;
    server = createServer((req, res) => {
      n += 1;
      const broken = n === 1;
      void serveEntry(entry, req, res, {
        head: false,
        headers: () => {
          if (broken) throw new TypeError('planted');
          return { 'content-length': 4 };
        },
        onError: () => 502,
        onBug: (e) => bugs.push(e),
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    await expect(request(url).then((r) => r.body.text())).rejects.toThrow();
    const ok = await request(url);
    expect(ok.statusCode).toBe(200);
    expect(await ok.body.text()).toBe('abcd');
    expect(bugs.map((e) => (e as Error).message)).toEqual(['planted']);
    expect(escaped).toEqual([]);
    expect(entry.readers).toBe(0);
  });
});
