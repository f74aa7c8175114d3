import { Pool, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEdgeWorkers, type RunningEdgeWorkers } from '../src/cluster/startEdgeWorkers.js';
import type { EdgeLoadReport } from '../src/fleet/EdgeLoadReport.js';
import { startOrigin } from '@ethle/live-origin';
import { capturedLogger } from './helpers/capturedLogger.js';
import { metricSum, metricValue, startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';
import { freePort } from './helpers/freePort.js';
import { openSlowClient } from './helpers/slowClient.js';

// Issue 21, one box, every core: `serve --workers 2` — a parent tier in this process owns the
// origin flows, two worker processes share the public port. The origin still sees one request
// per segment, whichever worker each receiver's connection landed on.
let origin: TestOrigin | undefined;
let box: RunningEdgeWorkers | undefined;
afterEach(async () => {
  await box?.close();
  await origin?.close();
  box = origin = undefined;
});

const URI = /^[^#\s].*$/gm;

describe('serve --workers', () => {
  it(
    "2 workers, 20 receivers on their own connections: one origin request per segment, both workers serving, the box's numbers at any worker",
    { timeout: 60_000 },
    async () => {
      origin = await startTestOrigin({ segmentBytes: 256 * 1024, window: 6 });
      origin.produce(6);
      const port = await freePort();
      box = await startEdgeWorkers(
        { origin: origin.url, host: '127.0.0.1', port, hold: 1, maxHold: 1, logLevel: 'silent', originProbeMs: 0 },
        2,
      );
      expect(box.url).toBe(`http://127.0.0.1:${port}`);
      expect(box.workers()).toBe(2);
      const fromWorkers = new Map<string, number>();
      box.parent.events.on('segment-request', (e) => fromWorkers.set(e.path, (fromWorkers.get(e.path) ?? 0) + 1));
      const statusOf = (p: Pool, path: string) =>
        p.request({ path, method: 'GET' }).then(async (r) => ({ status: r.statusCode, body: await r.body.text() }));

      // Both workers accept connections on the shared port (the kernel picks; new connections until both seen).
      const pids = new Set<number>();
      await until(async () => {
        const pool = new Pool(box!.url, { connections: 1 });
        pids.add(((await (await pool.request({ path: '/_ethle/load', method: 'GET' })).body.json()) as { pid: number }).pid);
        await pool.close();
        return pids.size === 2;
      }, 'both workers answering');
      expect(pids.has(process.pid)).toBe(false);

      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const pool = new Pool(box!.url, { connections: 1 });
          try {
            const m = await pool.request({ path: '/live/a/index.m3u8', method: 'GET', headers: { 'cmcd-session': `sid="r${i}"` } });
            expect(m.headers['x-ethle-hold-segments']).toBe('1');
            const uris = (await m.body.text()).match(URI) ?? [];
            for (const uri of uris.slice(-3)) {
              const r = await pool.request({ path: new URL(uri, `${box!.url}/live/a/index.m3u8`).pathname, method: 'GET' });
              const n = Number(/seg(\d+)\.ts/.exec(uri)![1]);
              expect(Buffer.from(await r.body.arrayBuffer()).equals(origin!.body(n))).toBe(true);
            }
          } finally {
            await pool.close();
          }
        }),
      );
      let segments = 0;
      for (const [path, n] of origin.allRequests()) {
        if (!/seg\d+\.ts/.test(path)) continue;
        segments += 1;
        expect(n, path).toBe(1);
      }
      expect(segments).toBeGreaterThanOrEqual(3);
      // Each worker fetches a segment from the parent at most once.
      for (const [path, n] of fromWorkers) expect(n, path).toBeLessThanOrEqual(2);

      // /metrics and /_ethle/load answer for the box, whichever worker the scrape reaches: the
      // receivers' requests of both workers add up (before: one worker's numbers, at random).
      for (let i = 0; i < 4; i++) {
        const pool = new Pool(box.url, { connections: 1 });
        const m = (await statusOf(pool, '/metrics')).body;
        expect(metricValue(m, 'ethle_workers', { state: 'running' })).toBe(2);
        expect(metricValue(m, 'ethle_workers', { state: 'answered' })).toBe(2);
        expect(metricSum(m, 'ethle_requests_total', { kind: 'manifest', status: '200', tier: 'edge' })).toBe(20);
        expect(metricSum(m, 'ethle_requests_total', { kind: 'segment', status: '200', tier: 'edge' })).toBe(20 * 3);
        // The parent's own series, apart: the box's origin bytes are the parent's.
        expect(metricSum(m, 'ethle_origin_bytes_total', { tier: 'parent' })).toBeGreaterThan(0);
        const load = JSON.parse((await statusOf(pool, '/_ethle/load')).body) as EdgeLoadReport;
        expect(load.workers).toEqual({ running: 2, answered: 2 });
        expect(load.ready).toBe(true);
        expect(load.connections).toBeGreaterThanOrEqual(1);
        await pool.close();
      }

      // SIGTERM-style close: the workers drain and exit, then the parent.
      await box.close();
      expect(box.workers()).toBe(0);
      await expect(request(`${box.url}/healthz`)).rejects.toThrow();
      box = undefined;
    },
  );
});

// Issue 36, major 3: SIGTERM drains under --workers as it does in one process. A cached 12 MB
// segment read at ≤ 32 MB/s by slow receivers is mid-transfer when the box, or one worker, is told
// to stop (most of it still queued at the edge: the kernel's loopback buffers hold ~4 MB); each
// receiver gets every byte (before: cut at ~4–6 MB, the primary gone in 0.6 s).
// One box for both, in this order: a worker is told to stop (and replaced), then the whole box.
describe('serve --workers drains', () => {
  const SLOW = { bytesPerTick: 64 * 1024, tickMs: 2 };
  const log = capturedLogger('info');
  let o: TestOrigin | undefined;
  let b: RunningEdgeWorkers | undefined;
  beforeAll(async () => {
    o = await startTestOrigin({ segmentBytes: 12 * 1024 * 1024, window: 4 });
    o.produce(3);
    b = await startEdgeWorkers(
      { origin: o.url, host: '127.0.0.1', port: 0, hold: 0, maxHold: 1, logLevel: 'silent', originProbeMs: 0, drainMs: 20_000 },
      2,
      { logger: log.logger },
    );
  });
  afterAll(async () => {
    await b?.close();
    await o?.close();
  });

  it(
    'SIGTERM to one worker: its reader finishes, the worker exits, the exit is logged and a new worker takes its place',
    { timeout: 60_000 },
    async () => {
      const reader = await openSlowClient(b!.url);
      try {
        // The worker this connection landed on.
        const pid = (JSON.parse((await reader.get('/_ethle/load')).body.toString()) as EdgeLoadReport).pid;
        expect(b!.pids()).toContain(pid);
        expect((await reader.get('/live/a/seg1.ts')).status).toBe(200);
        const before = reader.received();
        const body = reader.get('/live/a/seg1.ts', SLOW);
        await until(() => reader.received() > before, 'the response started');
        process.kill(pid, 'SIGTERM');
        const got = await body;
        expect(got.complete).toBe(true);
        expect(got.body.equals(o!.body(1))).toBe(true);
        await until(() => b!.workers() === 2 && !b!.pids().includes(pid), 'a new worker in its place', 20_000);
        expect(log.lines.find((l) => l.msg === 'worker exited; starting another')).toMatchObject({ pid, code: 0 });
      } finally {
        reader.destroy();
      }
    },
  );

  it(
    "close() (the primary's SIGTERM): readers on the workers finish their segment, then the box is gone",
    { timeout: 60_000 },
    async () => {
      const box = b!;
      // Cached at the workers first (each reader's worker then serves it from memory in one write).
      const readers = await Promise.all(Array.from({ length: 4 }, () => openSlowClient(box.url)));
      // Together: a connection that sends nothing for requestHeadersTimeoutMs is closed (408).
      for (const w of await Promise.all(readers.map((r) => r.get('/live/a/seg1.ts')))) expect(w.status).toBe(200);
      const base = readers.map((r) => r.received());
      const bodies = readers.map((r) => r.get('/live/a/seg1.ts', SLOW));
      await until(() => readers.every((r, i) => r.received() > base[i]!), 'every response started');
      const closing = box.close();
      for (const got of await Promise.all(bodies)) {
        expect(got.complete).toBe(true);
        expect(got.body.equals(o!.body(1))).toBe(true);
      }
      await closing;
      expect(box.workers()).toBe(0);
    },
  );
});

// Issue 36, minor: --workers with --hold-parts refused to start with a message about a parent the
// operator never configured. The parent now passes LL through (holdParts 0) and the workers hold.
describe('serve --workers with --hold-parts', () => {
  it('the workers hold N parts behind the parent; blocking reloads are answered', { timeout: 60_000 }, async () => {
    const ll = await startOrigin({ port: 0, streams: ['2M-2s'] });
    try {
      box = await startEdgeWorkers({ origin: ll.url, host: '127.0.0.1', port: 0, hold: 0, holdParts: 2, logLevel: 'silent' }, 2);
      const path = '/live/2M-2s/ll/index.m3u8';
      const r = await request(`${box.url}${path}`);
      const text = await r.body.text();
      expect(r.statusCode).toBe(200);
      expect(r.headers['x-ethle-hold-parts']).toBe('2');
      expect(text).toMatch(/#EXT-X-PART:/);
      expect(text).toMatch(/#EXT-X-SERVER-CONTROL:.*CAN-BLOCK-RELOAD=YES/);
      // A blocking reload for the part after the hint's is answered with a playlist that lists it.
      const hint = /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="(\d+)\.(\d+)\.m4s"/.exec(text)!;
      const b = await request(`${box.url}${path}?_HLS_msn=${hint[1]}&_HLS_part=${hint[2]}`);
      expect(b.statusCode).toBe(200);
      expect(await b.body.text()).toContain(`${hint[1]}.${hint[2]}.m4s`);
    } finally {
      await box?.close();
      box = undefined;
      await ll.close();
    }
  });
});
