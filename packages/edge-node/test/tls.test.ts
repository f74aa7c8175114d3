import { describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { createEdgeConfig, startEdge } from '../src/index.js';
import { startTestOrigin } from './helpers/startTestOrigin.js';

const fixtures = new URL('./fixtures/tls/', import.meta.url).pathname;
/** The edge in front of `origin`, on HTTPS with the test key and certificate, holding 1. */
const startTlsEdge = (origin: string) =>
  startEdge(
    createEdgeConfig({
      origin,
      port: 0,
      hold: 1,
      logLevel: 'silent',
      tls: { keyPath: `${fixtures}key.pem`, certPath: `${fixtures}cert.pem` },
    }),
  );

describe('TLS', () => {
  it('serves HTTPS with the configured key and certificate', async () => {
    const origin = await startTestOrigin();
    origin.produce(4);
    const edge = await startTlsEdge(origin.url);
    try {
      expect(edge.url.startsWith('https://')).toBe(true);
      const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
      const r = await request(`${edge.url}/live/t/index.m3u8`, { dispatcher });
      expect(r.statusCode).toBe(200);
      expect(await r.body.text()).toContain('#EXTM3U');
      await dispatcher.close();
    } finally {
      await edge.close();
      await origin.close();
    }
  });

  it('serves a cached segment of many origin chunks whole over HTTPS, to receivers at once', async () => {
    // The origin sends each segment in 16 KB writes: the edge's entry holds many chunks, all of
    // which every hit writes to its TLS socket (encrypted per response).
    const origin = await startTestOrigin({ segmentBytes: 1_000_003 });
    origin.faultPrefix('/live/t/seg', { kind: 'streamed', chunkBytes: 16 * 1024 });
    origin.produce(4);
    const edge = await startTlsEdge(origin.url);
    const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
    try {
      await (await request(`${edge.url}/live/t/index.m3u8`, { dispatcher })).body.text();
      const url = `${edge.url}/live/t/seg1.ts`;
      // The first request fills the cache; then four hits at once.
      const first = await request(url, { dispatcher });
      expect(Buffer.from(await first.body.arrayBuffer()).equals(origin.body(1))).toBe(true);
      const hits = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const r = await request(url, { dispatcher });
          return {
            status: r.statusCode,
            cache: r.headers['x-ethle-cache'],
            length: r.headers['content-length'],
            body: Buffer.from(await r.body.arrayBuffer()),
          };
        }),
      );
      for (const h of hits) {
        expect(h.status).toBe(200);
        expect(h.cache).toBe('hit');
        expect(h.length).toBe('1000003');
        expect(h.body.equals(origin.body(1))).toBe(true);
      }
      // A range of the joined entry is still the right bytes.
      const r = await request(url, { dispatcher, headers: { range: 'bytes=500000-500099' } });
      expect(r.statusCode).toBe(206);
      expect(Buffer.from(await r.body.arrayBuffer()).equals(origin.body(1).subarray(500000, 500100))).toBe(true);
    } finally {
      await dispatcher.close();
      await edge.close();
      await origin.close();
    }
  });
});
