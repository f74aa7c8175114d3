import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';

// Issue 36's soak (a box of two workers behind a parent tier, LL-HLS held in parts): objects the
// origin sent more than once were mostly LL parts. A part the playlist lists but the edge had
// not prefetched (the first version's older parts; one whose prefetch failed) was an unplanned
// object: over 1 MiB it streamed through uncached and was cancelled when its one receiver left,
// so the next receiver — the parent's second worker — fetched it from the origin again.

const STREAM = '15M-4s'; // 7.2 MB segments of four 1 s parts: each ~1.8 MB, over the 1 MiB unplanned cap
const LL = `/live/${STREAM}/ll/index.m3u8`;
const PART_URI = /^#EXT-X-PART:.*URI="([^"]+)"/gm;

let origin: LiveOrigin;
let edge: RunningEdge;
beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: [STREAM] });
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, holdParts: 2, hold: 0, logLevel: 'silent' }));
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
});

describe('LL-HLS parts a playlist lists are objects of the stream', () => {
  it('a listed part the edge did not prefetch crosses the backhaul once, though its first receiver aborts', async () => {
    const r = await request(edge.url + LL);
    expect(r.statusCode).toBe(200);
    const parts = [...(await r.body.text()).matchAll(PART_URI)].map((m) => m[1]!);
    // The edge prefetches the hinted part and the newest six the origin lists; this playlist
    // holds back the newest two, so its sixth-newest part is the origin's eighth: not prefetched,
    // fetched when a receiver asks, and listed for 4 s more at least (a box under load is slow).
    expect(parts.length).toBeGreaterThanOrEqual(10);
    const path = `/live/${STREAM}/ll/${parts[parts.length - 6]}`;

    // A receiver that leaves after its first bytes (the soak aborts one request in ten).
    const a = await request(edge.url + path);
    expect(a.statusCode).toBe(200);
    for await (const _chunk of a.body) break;
    a.body.destroy();

    // The next receivers (a parent's other worker, more players) get the whole part, one after
    // the other.
    const bodies: Buffer[] = [];
    for (let i = 0; i < 2; i++) {
      const b = await request(edge.url + path);
      expect(b.statusCode).toBe(200);
      bodies.push(Buffer.from(await b.body.arrayBuffer()));
    }
    // Before: each request streamed the part through uncached (the aborted one cancelled its
    // fetch), so every receiver's request was another origin fetch.
    expect(origin.stats().fetches[path]).toBe(1);

    const direct = Buffer.from(await (await request(origin.url + path)).body.arrayBuffer());
    expect(direct.length).toBeGreaterThan(1024 * 1024);
    for (const b of bodies) expect(b.equals(direct)).toBe(true);
  });
});
