import { Pool, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startEdgeWorkers, type RunningEdgeWorkers } from '../src/cluster/startEdgeWorkers.js';
import { startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';
import { freePort } from './helpers/freePort.js';

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
  it('2 workers, 20 receivers on their own connections: one origin request per segment, both workers serving', async () => {
    origin = await startTestOrigin({ segmentBytes: 256 * 1024, window: 6 });
    origin.produce(6);
    const port = await freePort();
    box = await startEdgeWorkers({ origin: origin.url, host: '127.0.0.1', port, hold: 1, maxHold: 1, logLevel: 'silent', originProbeMs: 0 }, 2);
    expect(box.url).toBe(`http://127.0.0.1:${port}`);
    expect(box.workers()).toBe(2);
    const fromWorkers = new Map<string, number>();
    box.parent.events.on('segment-request', (e) => fromWorkers.set(e.path, (fromWorkers.get(e.path) ?? 0) + 1));

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

    // SIGTERM-style close: the workers drain and exit, then the parent.
    await box.close();
    expect(box.workers()).toBe(0);
    await expect(request(`${box.url}/healthz`)).rejects.toThrow();
    box = undefined;
  });
});
