import { spawn } from 'node:child_process';
import { request } from 'undici';
import { describe, it } from 'vitest';
import { openSlowClient } from '../helpers/slowClient.js';
import { startTestOrigin, until } from '../helpers/startTestOrigin.js';

// The built CLI as an operator runs it (node bin/ethle-edge.js serve …, npm's prepare builds dist):
// SIGTERM stops accepting, lets a transfer in progress finish, logs one line and exits 0.
// Side by side (each has its own origin and edge process, and mostly waits on them): expect and
// onTestFinished come from each test's context.
describe.concurrent('ethle-edge serve under SIGTERM', () => {
  it('drains a transfer in progress, logs "edge closed", exits 0', async ({ expect, onTestFinished }) => {
    const origin = await startTestOrigin({ segmentBytes: 64 * 1024 });
    onTestFinished(() => origin.close());
    origin.produce(4);
    origin.fault('/live/a/seg1.ts', { kind: 'slow', chunkBytes: 8 * 1024, intervalMs: 150 });
    const bin = new URL('../../bin/ethle-edge.js', import.meta.url).pathname;
    const child = spawn(process.execPath, [bin, 'serve', '--origin', origin.url, '--port', '0', '--hold', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const t = setInterval(() => {
        const m = /listening on (\S+)/.exec(out);
        if (m) {
          clearInterval(t);
          resolve(m[1]!);
        }
      }, 20);
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const res = await request(`${url}/live/a/seg1.ts`);
    const body = res.body.arrayBuffer();
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(Buffer.from(await body).equals(origin.body(1))).toBe(true);
    expect(await exited).toBe(0);
    expect(out).toMatch(/edge closed/);
  });

  // Issue 36, major 3: with --workers the primary waited for nothing (gone 0.6 s after SIGTERM)
  // and node:cluster closed each worker's server itself, cutting readers of a cached segment.
  it(
    '--workers 2: readers of a cached 12 MB segment get all of it, the box exits 0',
    { timeout: 90_000 },
    async ({ expect, onTestFinished }) => {
      const origin = await startTestOrigin({ segmentBytes: 12 * 1024 * 1024, window: 4 });
      onTestFinished(() => origin.close());
      origin.produce(3);
      const bin = new URL('../../bin/ethle-edge.js', import.meta.url).pathname;
      const child = spawn(process.execPath, [bin, 'serve', '--origin', origin.url, '--port', '0', '--hold', '0', '--workers', '2'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      const url = await new Promise<string>((resolve, reject) => {
        const t = setInterval(() => {
          const m = /listening on (\S+) \(2 workers/.exec(out);
          if (m) {
            clearInterval(t);
            resolve(m[1]!);
          }
        }, 20);
        void exited.then((code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const readers = await Promise.all(Array.from({ length: 4 }, () => openSlowClient(url)));
      // Together: a connection that sends nothing for requestHeadersTimeoutMs is closed (408).
      for (const w of await Promise.all(readers.map((r) => r.get('/live/a/seg1.ts')))) expect(w.status).toBe(200);
      const base = readers.map((r) => r.received());
      // At most ~32 MB/s: most of the 12 MB is still queued at the edge when SIGTERM comes.
      const bodies = readers.map((r) => r.get('/live/a/seg1.ts', { bytesPerTick: 64 * 1024, tickMs: 2 }));
      await until(() => readers.every((r, i) => r.received() > base[i]!), 'every response started');
      child.kill('SIGTERM');
      for (const got of await Promise.all(bodies)) {
        expect(got.complete).toBe(true);
        expect(got.body.equals(origin.body(1))).toBe(true);
      }
      expect(await exited).toBe(0);
      // Each worker and the parent say they closed.
      expect(out.match(/"msg":"edge closed"/g)?.length).toBe(3);
    },
  );
});
