import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../../src/index.js';
import { startTestOrigin, type TestOrigin } from '../helpers/startTestOrigin.js';

let origin: TestOrigin;
let edge: RunningEdge;

beforeAll(async () => {
  origin = await startTestOrigin();
  origin.produce(6);
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 2, logLevel: 'silent' }));
});
afterAll(async () => {
  await edge.close();
  await origin.close();
});

describe('response headers', () => {
  it('every answer has one Date naming the second it was sent in (manifests set theirs as they answer)', async () => {
    const cases: Array<[string, string, number]> = [
      ['GET', '/live/a/index.m3u8', 200],
      ['HEAD', '/live/a/index.m3u8', 200],
      ['GET', '/live/a/index.m3u8?CMCD=sid%3D%22s-1%22', 200],
      ['GET', '/live/a/seg1.ts', 200],
      ['GET', '/live/a/notes.txt', 404],
      ['POST', '/live/a/index.m3u8', 405],
      ['GET', '/_ethle/x.m3u8', 404],
      ['GET', `/live/${'a'.repeat(3000)}.m3u8`, 414],
      ['OPTIONS', '/live/a/index.m3u8', 204],
      ['GET', '/healthz', 200],
    ];
    for (const [method, path, status] of cases) {
      const t0 = Date.now();
      const r = await request(`${edge.url}${path}`, { method });
      await r.body.dump();
      const t1 = Date.now();
      expect(r.statusCode, `${method} ${path}`).toBe(status);
      const date = r.headers['date'];
      expect(typeof date, `${method} ${path}: one Date`).toBe('string');
      const d = Date.parse(date as string);
      expect(d, `${method} ${path}`).toBeGreaterThanOrEqual(Math.floor(t0 / 1000) * 1000);
      expect(d, `${method} ${path}`).toBeLessThanOrEqual(t1);
    }
  });

  it('a manifest answer carries once each header players, the probe and CORS pages read', async () => {
    const r = await request(`${edge.url}/live/a/index.m3u8`, { headers: { origin: 'http://player.example' } });
    const text = await r.body.text();
    for (const h of [
      'date',
      'content-type',
      'cache-control',
      'age',
      'cmsd-static',
      'cmsd-dynamic',
      'x-ethle-session',
      'x-ethle-hold-segments',
      'x-ethle-hold-seconds',
      'content-length',
      'access-control-allow-origin',
      'access-control-expose-headers',
      'timing-allow-origin',
    ])
      expect(typeof r.headers[h], h).toBe('string');
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(r.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['cmsd-static']).toBe('ot=m,sf=h,st=l');
    expect(r.headers['cmsd-dynamic']).toBe('"ethle-edge"');
    expect(r.headers['x-ethle-session']).toBe('ip-127.0.0.1');
    expect(r.headers['x-ethle-hold-segments']).toBe('2');
  });
});
