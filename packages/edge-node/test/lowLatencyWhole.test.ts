import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { capturedLogger } from './helpers/capturedLogger.js';

// An LL-HLS stream held in whole segments (no --hold-parts) reaches players without its
// low-latency features, so they start HOLD-BACK behind the playlist's end instead of
// PART-HOLD-BACK: X-Ethle-Hold-Seconds counts that fallback as well as the held segments, the
// fallback has a header of its own, and the operator is told once per stream.
let origin: LiveOrigin | undefined;
let edge: RunningEdge | undefined;
afterEach(async () => {
  await edge?.close();
  await origin?.close();
  edge = origin = undefined;
});

const LL = '/live/2M-2s/ll/index.m3u8';

describe('LL-HLS held in whole segments', () => {
  it('X-Ethle-Hold-Seconds counts the fallback from PART-HOLD-BACK to HOLD-BACK; the loss has a header of its own and one warning per stream', async () => {
    const log = capturedLogger('warn');
    origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 2, logLevel: 'warn' }), { logger: log.logger });
    const o = await (await request(`${origin.url}${LL}`)).body.text();
    const partHoldBack = Number(/PART-HOLD-BACK=([\d.]+)/.exec(o)![1]);
    const target = Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(o)![1]);
    const holdBack = Number(/[,:]HOLD-BACK=([\d.]+)/.exec(o)?.[1] ?? 3 * target);
    expect(holdBack - partHoldBack).toBeGreaterThan(1); // the origin's LL playlist is what this test is about
    for (let i = 0; i < 3; i++) {
      const r = await request(`${edge.url}${LL}`);
      const text = await r.body.text();
      expect(r.statusCode).toBe(200);
      expect(text).not.toMatch(/#EXT-X-PART:|PART-HOLD-BACK|CAN-BLOCK-RELOAD/);
      expect(r.headers['x-ethle-hold-segments']).toBe('2');
      const lost = Number(r.headers['x-ethle-low-latency-lost-seconds']);
      expect(lost).toBeCloseTo(holdBack - partHoldBack, 3);
      // The two held segments, the in-progress segment's parts (less than a segment), the fallback.
      const declared = Number(r.headers['x-ethle-hold-seconds']);
      expect(declared).toBeGreaterThanOrEqual(2 * target + lost - 0.001);
      expect(declared).toBeLessThan(3 * target + lost);
    }
    expect(log.lines.filter((l) => String(l.msg).startsWith('LL-HLS stream held in whole segments'))).toHaveLength(1);
    // The same stream's regular playlist loses nothing: no header, the held segments only.
    const plain = await request(`${edge.url}/live/2M-2s/index.m3u8`);
    await plain.body.dump();
    expect(plain.headers['x-ethle-low-latency-lost-seconds']).toBeUndefined();
    expect(Number(plain.headers['x-ethle-hold-seconds'])).toBeCloseTo(2 * target, 3);
  });

  it('held at 0 the LL-HLS playlist keeps its features and declares nothing lost', async () => {
    origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent' }));
    const r = await request(`${edge.url}${LL}`);
    const text = await r.body.text();
    expect(text).toMatch(/PART-HOLD-BACK/);
    expect(r.headers['x-ethle-hold-seconds']).toBe('0');
    expect(r.headers['x-ethle-low-latency-lost-seconds']).toBeUndefined();
  });
});
