import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type EdgeConfigInput, type RunningEdge } from '../src/index.js';
import { metricValue, startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

let origin: TestOrigin;
let edge: RunningEdge;

async function setup(extra: Partial<EdgeConfigInput> = {}) {
  origin = await startTestOrigin();
  origin.produce(6);
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent', ...extra }));
}
afterEach(async () => {
  await edge?.close();
  await origin?.close();
});

async function get(path: string) {
  const res = await request(`${edge.url}${path}`);
  try {
    const body = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers, body, text: body.toString('utf8'), aborted: false };
  } catch {
    return { status: res.statusCode, headers: res.headers, body: Buffer.alloc(0), text: '', aborted: true };
  }
}
const metrics = async () => (await get('/metrics')).text;

describe('origin faults', () => {
  it('origin 5xx on a segment → 502 with a short message, counted, and recovers', async () => {
    await setup();
    origin.fault('/live/a/seg1.ts', { kind: 'status', status: 500 });
    const r = await get('/live/a/seg1.ts');
    expect(r.status).toBe(502);
    expect(r.text).toMatch(/ERR_EDGE_ORIGIN_STATUS/);
    expect(metricValue(await metrics(), 'ethle_origin_fetches_total', { kind: 'segment', outcome: 'status' })).toBe(1);
    origin.fault('/live/a/seg1.ts', undefined);
    const ok = await get('/live/a/seg1.ts');
    expect(ok.status).toBe(200);
    expect(ok.body.equals(origin.body(1))).toBe(true);
  });

  it('origin 404 on a segment is passed on as 404', async () => {
    await setup();
    expect((await get('/live/a/seg99.ts')).status).toBe(404);
  });

  it('origin timeout → 504', async () => {
    await setup({ originHeadersTimeoutMs: 200 });
    origin.fault('/live/a/seg2.ts', { kind: 'hang' });
    const r = await get('/live/a/seg2.ts');
    expect(r.status).toBe(504);
    expect(metricValue(await metrics(), 'ethle_origin_fetches_total', { kind: 'segment', outcome: 'timeout' })).toBe(1);
  });

  it('truncated body → the receiver transfer fails, never a short segment passed off as complete', async () => {
    await setup();
    origin.fault('/live/a/seg3.ts', { kind: 'truncate', afterBytes: 1000 });
    const r = await get('/live/a/seg3.ts');
    expect(r.aborted).toBe(true);
    await until(
      async () => metricValue(await metrics(), 'ethle_origin_fetches_total', { kind: 'segment', outcome: 'truncated' }) === 1,
      'truncation counted',
    );
    // Not cached: the next request goes to the origin again and gets the whole segment.
    origin.fault('/live/a/seg3.ts', undefined);
    const ok = await get('/live/a/seg3.ts');
    expect(ok.body.length).toBe(origin.segmentBytes);
    expect(origin.requests('/live/a/seg3.ts')).toBe(2);
  });

  it('unreachable origin → 502 for manifests, never a crash', async () => {
    await setup();
    await origin.close();
    const r = await get('/live/a/index.m3u8');
    expect(r.status).toBe(502);
    expect(r.text).toMatch(/ERR_EDGE_ORIGIN_UNREACHABLE/);
  });

  it('a broken manifest: last good version served (marked stale) for a bounded time, then 502; recovers', async () => {
    await setup({ manifestStaleMs: 1500 });
    const good = await get('/live/a/index.m3u8');
    expect(good.status).toBe(200);
    origin.fault('/live/a/index.m3u8', { kind: 'garbage', body: '<html>oops</html>' });
    const stale = await until(async () => {
      const r = await get('/live/a/index.m3u8');
      return r.headers['x-ethle-manifest-stale'] !== undefined ? r : undefined;
    }, 'stale marker');
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(good.text);
    expect(metricValue(await metrics(), 'ethle_manifest_errors_total', { reason: 'ERR_EDGE_MANIFEST_UNPARSABLE' })).toBeGreaterThan(0);
    const broken = await until(async () => {
      const r = await get('/live/a/index.m3u8');
      return r.status === 502 ? r : undefined;
    }, '502 after the stale bound');
    expect(broken.text).toMatch(/ERR_EDGE_MANIFEST_UNPARSABLE/);
    origin.fault('/live/a/index.m3u8', undefined);
    origin.produce(1);
    const back = await until(
      async () => {
        const r = await get('/live/a/index.m3u8');
        return r.status === 200 && r.headers['x-ethle-manifest-stale'] === undefined ? r : undefined;
      },
      'recovery',
      20_000,
    );
    expect(back.text).toContain('seg6.ts');
  });
});

describe('made-up stream paths', () => {
  it('leave no poller behind', async () => {
    await setup();
    origin.fault('/nope/x.m3u8', { kind: 'status', status: 404 });
    const r = await get('/nope/x.m3u8');
    expect(r.status).toBe(404);
    const n = origin.requests('/nope/x.m3u8');
    expect(n).toBe(1);
    await new Promise((res) => setTimeout(res, 1500)); // > one poll interval: nothing polls it
    expect(origin.requests('/nope/x.m3u8')).toBe(1);
  });
});
