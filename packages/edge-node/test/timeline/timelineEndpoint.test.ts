import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { createEdgeConfig, startEdge, type RunningEdge } from '../../src/index.js';
import type { TimelineSnapshot } from '@ethle/core';
import { until } from '../helpers/startTestOrigin.js';

// GET /_ethle/timeline on a real edge in front of the real live origin.
let origin: LiveOrigin;
let edge: RunningEdge;
const MANIFEST = '/live/2M-2s/index.m3u8';

async function get(path: string, headers: Record<string, string> = {}) {
  const r = await request(`${edge.url}${path}`, { headers });
  return { status: r.statusCode, headers: r.headers, text: await r.body.text() };
}

beforeAll(async () => {
  origin = await startOrigin({ port: 0 });
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 2, logLevel: 'silent' }));
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
});

describe('GET /_ethle/timeline', () => {
  it('shows the x held segments, their prefetch and the origin production times', async () => {
    expect((await get(MANIFEST)).status).toBe(200);
    const snap = await until(async () => {
      const r = await get(`/_ethle/timeline?stream=${encodeURIComponent(MANIFEST)}`, { origin: 'http://demo.example' });
      if (r.status !== 200) return undefined;
      expect(r.headers['access-control-allow-origin']).toBe('*');
      const s = JSON.parse(r.text) as TimelineSnapshot;
      // Done once the held segments are at the edge with the origin's production times.
      return s.segments.filter((g) => g.held && g.fetchOutcome === 'ok' && g.productionEnd !== undefined).length === 2 ? s : undefined;
    }, 'both held segments prefetched');
    expect(snap.hold).toBe(2);
    expect(snap.held).toEqual({ [snap.segments[0]!.track]: 2 });
    const held = snap.segments.filter((g) => g.held);
    for (const g of held) {
      expect(g.fetchKind).toBe('prefetch');
      expect(g.fetchStart!).toBeLessThanOrEqual(g.fetchEnd!);
      expect(g.productionEnd! - g.productionStart!).toBe(2000);
      // The origin lists a segment only once it is produced.
      expect(g.listedAt).toBeGreaterThanOrEqual(g.productionEnd! - 1000);
    }
    // The held ones are the newest: the playlist receivers get ends just before them.
    const playlist = (await get(MANIFEST)).text;
    for (const g of held) expect(playlist).not.toContain(g.path.split('/').pop()!);
  });

  it('lists the streams it knows; an unknown one is a 404 with a code', async () => {
    const all = JSON.parse((await get('/_ethle/timeline')).text) as { streams: string[] };
    expect(all.streams.some((s) => s.endsWith(MANIFEST))).toBe(true);
    const r = await get('/_ethle/timeline?stream=/live/nope/index.m3u8');
    expect(r.status).toBe(404);
    expect(r.headers['x-ethle-error']).toBe('ERR_EDGE_TIMELINE_UNKNOWN_STREAM');
    expect(r.text).toContain('/live/nope/index.m3u8');
    // Other paths of the reserved space stay 404.
    expect((await get('/_ethle/other')).status).toBe(404);
  });
});
