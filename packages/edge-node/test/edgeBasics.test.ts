import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { metricValue, startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

let origin: TestOrigin;
let edge: RunningEdge;

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await request(`${edge.url}${path}`, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body, text: body.toString('utf8') };
}

/** Send a raw request line (clients normalise dot segments; attackers do not). */
function raw(target: string, method = 'GET'): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(edge.url);
    const s = connect(Number(u.port), u.hostname, () => s.write(`${method} ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`));
    let data = '';
    s.on('data', (d) => (data += d.toString()));
    s.on('end', () => resolve(Number(data.split(' ')[1])));
    s.on('error', reject);
  });
}

beforeEach(async () => {
  origin = await startTestOrigin();
  origin.produce(6);
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 2, logLevel: 'silent' }));
});
afterEach(async () => {
  await edge.close();
  await origin.close();
});

describe('edge basics (hand-driven origin)', () => {
  it('answers /healthz and /metrics', async () => {
    expect((await get('/healthz')).status).toBe(200);
    const m = await get('/metrics');
    expect(m.status).toBe(200);
    expect(m.text).toContain('ethle_origin_fetches_total');
  });

  it('holds the newest x segments and declares it', async () => {
    const r = await get('/live/a/index.m3u8');
    expect(r.status).toBe(200);
    expect(r.headers['x-ethle-hold-segments']).toBe('2');
    expect(r.headers['x-ethle-hold-seconds']).toBe('2');
    expect(r.text).toContain('seg3.ts');
    expect(r.text).not.toContain('seg4.ts');
  });

  it('adds CORS headers for cross-origin (Origin) requests only', async () => {
    const cross = await get('/live/a/index.m3u8', { origin: 'http://player.example' });
    expect(cross.headers['access-control-allow-origin']).toBe('*');
    expect(String(cross.headers['access-control-expose-headers'])).toContain('X-Ethle-Hold-Segments');
    const plain = await get('/live/a/index.m3u8');
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    const seg = await get('/live/a/seg1.ts', { origin: 'http://player.example' });
    expect(String(seg.headers['access-control-expose-headers'])).toContain('X-Ethle-Cache');
  });

  it('serves a segment byte-identical, then from cache', async () => {
    const a = await get('/live/a/seg2.ts');
    expect(a.status).toBe(200);
    expect(a.body.equals(origin.body(2))).toBe(true);
    expect(a.headers['x-ethle-cache']).toBe('miss');
    const b = await get('/live/a/seg2.ts');
    expect(b.headers['x-ethle-cache']).toBe('hit');
    expect(b.body.equals(origin.body(2))).toBe(true);
    expect(origin.requests('/live/a/seg2.ts')).toBe(1);
  });

  it('prefetches the held segments after the first manifest request', async () => {
    await get('/live/a/index.m3u8');
    await until(() => origin.requests('/live/a/seg5.ts') === 1 && origin.requests('/live/a/seg4.ts') === 1, 'held segments prefetched');
    const r = await get('/live/a/seg3.ts');
    expect(r.status).toBe(200);
    await until(async () => metricValue((await get('/metrics')).text, 'ethle_lead_segments') === 2, 'lead of 2');
  });

  it('rejects garbage requests without forwarding', async () => {
    // Paths the origin was asked for, but the edge's own keep-warm probe of the base URL.
    const paths = () => [...origin.allRequests().keys()].filter((p) => p !== '/').length;
    const before = paths();
    expect(await raw('/live/../etc/passwd')).toBe(400);
    expect(await raw('/live/%2e%2e/x')).toBe(400);
    expect(await raw('http://evil.example/live/a/seg1.ts')).toBe(400);
    expect(await raw(`/live/${'a'.repeat(5000)}`)).toBe(414);
    expect(await raw('/live/a/index.m3u8', 'DELETE')).toBe(405);
    expect(await raw('/nothing-here', 'BREW')).toBe(400);
    expect(paths()).toBe(before);
  });
});

describe('stream lifecycle', () => {
  it('a stream without receivers goes idle: its poller stops', async () => {
    await edge.close();
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 1, logLevel: 'silent', streamIdleMs: 300 }));
    const idle = new Promise<string>((resolve) => edge.events.on('stream-idle', (e) => resolve(e.stream)));
    expect((await get('/live/b/index.m3u8')).status).toBe(200);
    expect(await idle).toBe('origin/live/b/index.m3u8');
    const polls = origin.requests('/live/b/index.m3u8');
    // The poller is stopped: more than two poll intervals later no further manifest fetch started
    // (one already on the wire when the stream went idle may still reach the origin: at most +1).
    await new Promise((r) => setTimeout(r, 1200));
    expect(origin.requests('/live/b/index.m3u8')).toBeLessThanOrEqual(polls + 1);
  });
});
