import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { startTestOrigin, type TestOrigin } from './helpers/startTestOrigin.js';

// What the edge tells the caches after it (browsers, an edge behind it) about a media object:
// its own max-age, unless the origin forbids keeping the object — a byte-range file still being
// written, say — in which case the origin's Cache-Control goes on: a cache after the edge must
// not keep what the edge itself may not.
let origin: TestOrigin | undefined;
const edges: RunningEdge[] = [];
afterEach(async () => {
  for (const e of edges.splice(0).reverse()) await e.close();
  await origin?.close();
  origin = undefined;
});

describe('Cache-Control of media responses', () => {
  it("an object the origin marks no-store is served with the origin's Cache-Control, whole and as a byte range; others keep max-age=60", async () => {
    origin = await startTestOrigin({ ranges: true });
    origin.produce(3);
    origin.headers('/live/a/seg1.ts', { 'cache-control': 'no-store' });
    origin.headers('/live/a/seg2.ts', { 'cache-control': 'private, max-age=0' });
    const edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent', originProbeMs: 0 }));
    edges.push(edge);
    const whole = await request(`${edge.url}/live/a/seg1.ts`);
    expect(Buffer.from(await whole.body.arrayBuffer()).equals(origin.body(1))).toBe(true);
    expect(whole.headers['cache-control']).toBe('no-store');
    const range = await request(`${edge.url}/live/a/seg1.ts`, { headers: { range: 'bytes=0-99' } });
    await range.body.dump();
    expect(range.statusCode).toBe(206);
    expect(range.headers['cache-control']).toBe('no-store');
    const priv = await request(`${edge.url}/live/a/seg2.ts`);
    await priv.body.dump();
    expect(priv.headers['cache-control']).toBe('private, max-age=0');
    // A storable object: the edge's own max-age, whatever the origin said.
    origin.headers('/live/a/seg0.ts', { 'cache-control': 'public, max-age=3600' });
    for (let i = 0; i < 2; i++) {
      const r = await request(`${edge.url}/live/a/seg0.ts`);
      await r.body.dump();
      expect(r.headers['cache-control']).toBe('max-age=60');
    }
  });

  it('an edge behind a parent does not keep what the origin marks no-store', async () => {
    origin = await startTestOrigin();
    origin.produce(2);
    origin.headers('/live/a/seg1.ts', { 'cache-control': 'no-store' });
    const parent = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, role: 'parent', logLevel: 'silent', originProbeMs: 0 }));
    edges.push(parent);
    const child = await startEdge(createEdgeConfig({ origin: parent.url, port: 0, hold: 0, logLevel: 'silent', originProbeMs: 0 }));
    edges.push(child);
    for (let i = 0; i < 2; i++) {
      const r = await request(`${child.url}/live/a/seg1.ts`);
      expect(r.headers['x-ethle-cache']).toBe('miss');
      expect(r.headers['cache-control']).toBe('no-store');
      await r.body.dump();
    }
    expect(origin.requests('/live/a/seg1.ts')).toBe(2);
  });
});
