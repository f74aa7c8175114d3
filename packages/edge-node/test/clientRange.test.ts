import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { parseRange } from '../src/http/parseRange.js';
import { startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

// Issue 15 item 1: a receiver's Range is answered from the edge's copy (206/416), never ignored.

let origin: TestOrigin;
let edge: RunningEdge;
afterEach(async () => {
  await edge?.close();
  await origin?.close();
});

const SEG = 256 * 1024;
async function setup() {
  origin = await startTestOrigin({ segmentBytes: SEG });
  origin.produce(6);
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent', originProbeMs: 0 }));
  await request(`${edge.url}/live/a/index.m3u8`).then((r) => r.body.dump());
  // seg5 is what the planner fetches for a new player: wait until the edge has it whole.
  await until(async () => {
    const r = await request(`${edge.url}/live/a/seg5.ts`, { method: 'HEAD' });
    return r.headers['x-ethle-cache'] === 'hit';
  }, 'seg5 cached');
}
async function get(path: string, headers: Record<string, string>) {
  const r = await request(`${edge.url}${path}`, { headers });
  return { status: r.statusCode, headers: r.headers, body: Buffer.from(await r.body.arrayBuffer()) };
}

describe('client byte ranges', () => {
  it('a single range of a cached segment: 206 with exactly those bytes', async () => {
    await setup();
    const whole = origin.body(5);
    const r = await get('/live/a/seg5.ts', { range: 'bytes=100-199' });
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 100-199/${SEG}`);
    expect(r.body.equals(whole.subarray(100, 200))).toBe(true);
    const tail = await get('/live/a/seg5.ts', { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(whole.subarray(SEG - 10))).toBe(true);
    const open = await get('/live/a/seg5.ts', { range: `bytes=${SEG - 5}-` });
    expect(open.body.equals(whole.subarray(SEG - 5))).toBe(true);
    expect(origin.requests('/live/a/seg5.ts')).toBe(1);
  });

  it('a range past the end: 416 with the length; several ranges: the whole object with 200', async () => {
    await setup();
    const r = await get('/live/a/seg5.ts', { range: `bytes=${SEG}-` });
    expect(r.status).toBe(416);
    expect(r.headers['content-range']).toBe(`bytes */${SEG}`);
    const multi = await get('/live/a/seg5.ts', { range: 'bytes=0-9,20-29' });
    expect(multi.status).toBe(200);
    expect(multi.body.equals(origin.body(5))).toBe(true);
  });

  it('a range of a segment still arriving is served as its bytes arrive (read-while-writer)', async () => {
    await setup();
    origin.fault('/live/a/seg1.ts', { kind: 'slow', chunkBytes: 16 * 1024, intervalMs: 10 });
    const r = await get('/live/a/seg1.ts', { range: 'bytes=200000-200099' });
    expect(r.status).toBe(206);
    expect(r.body.equals(origin.body(1).subarray(200_000, 200_100))).toBe(true);
  });

  it('If-Range with another validator gets the whole object', async () => {
    await setup();
    const r = await get('/live/a/seg5.ts', { range: 'bytes=0-9', 'if-range': '"not-this-one"' });
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(SEG);
  });
});

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=50-500', 100, { start: 50, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-1,5-6', 100, undefined],
    ['bytes=9-0', 100, undefined],
    ['items=0-9', 100, undefined],
    ['bytes=-', 100, undefined],
  ] as const)('%s of %d → %j', (h, size, want) => {
    expect(parseRange(h, size)).toEqual(want);
  });
});
