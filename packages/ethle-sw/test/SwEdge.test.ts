import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMediaPlaylist } from '@ethle/core';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { SwEdge } from '@ethle/sw';

// The worker's edge outside a worker: Node has the same fetch/Request/Response, so SwEdge runs here
// against the real live origin (and one small real server) on port 0, as it does in Chromium.
const STREAM = '2M-2s';
let t = Date.now();
let origin: LiveOrigin;

beforeAll(async () => {
  // The origin's clock is the test's: the live window can be moved on without waiting for it.
  origin = await startOrigin({ port: 0, streams: [STREAM], clock: () => t });
});
afterAll(async () => origin?.close());

function edgeFor(url: string, hold = 2): SwEdge {
  const edge = new SwEdge((input, init) => fetch(input, init));
  edge.configure({ origins: [new URL(url).origin], hold });
  return edge;
}

/** What a player does through the worker: route, then the handler the route names (or the network). */
async function get(edge: SwEdge, url: string): Promise<Response> {
  const route = edge.route(new URL(url));
  const req = new Request(url);
  if (route === 'manifest') return edge.manifest(req);
  if (route === 'segment') return edge.segment(req);
  return fetch(req);
}

describe('SwEdge', () => {
  it('keeps a timeline as the Node edge does: listed, held, visible once x later are listed, fetched, asked for', async () => {
    const edge = edgeFor(origin.url, 2);
    const m3u8 = `${origin.url}/live/${STREAM}/index.m3u8`;
    const held = parseMediaPlaylist(await (await get(edge, m3u8)).text());
    let tl = edge.state().timeline;
    expect(tl).toMatchObject({ v: 1, hold: 2, segmentSeconds: 2, stream: m3u8 });
    const [track] = Object.keys(tl.held);
    expect(tl.held[track!]).toBe(2);
    // The newest 2 are held (not in what the page got), the rest visible.
    const newest = tl.segments.slice(-2);
    expect(newest.every((s) => s.held === true && s.visibleAt === undefined)).toBe(true);
    expect(tl.segments.slice(0, -2).every((s) => s.visibleAt !== undefined && s.held === undefined)).toBe(true);
    // The page asks for the last segment it was given: a request, fetched (or prefetched), with the origin's production times.
    const seg = new URL(held.segments.at(-1)!.uri, m3u8).href;
    await (await get(edge, seg)).arrayBuffer();
    tl = edge.state().timeline;
    const rec = tl.segments.find((s) => seg.endsWith(s.path))!;
    expect(rec).toMatchObject({ requests: 1, firstResult: expect.stringMatching(/^(hit|coalesced|miss)$/), fetchOutcome: 'ok' });
    expect(rec.productionEnd! - rec.productionStart!).toBe(2000);
    expect(rec.fetchEnd!).toBeGreaterThanOrEqual(rec.fetchStart!);
    // Once the origin lists two more, the oldest held one becomes visible at the later one's listing.
    t += 4000;
    await (await get(edge, m3u8)).text();
    tl = edge.state().timeline;
    const before = tl.segments.find((s) => s.id === newest[0]!.id)!;
    expect(before.held).toBeUndefined();
    expect(before.visibleAt).toBe(tl.segments.find((s) => s.id === newest[0]!.id + 2)!.listedAt);
  });

  it('never stores or replays the origin’s /time (dash.js UTCTiming) or other non-segment paths', async () => {
    const edge = edgeFor(origin.url);
    const mpd = `${origin.url}/live/${STREAM}/manifest.mpd`;
    expect(edge.route(new URL(mpd))).toBe('manifest');
    expect((await get(edge, mpd)).status).toBe(200);
    expect(edge.route(new URL(`${origin.url}/time`))).toBeUndefined();
    expect(edge.route(new URL(`${origin.url}/live/${STREAM}/dash/v/init.mp4`))).toBeUndefined();
    // Even handed to the segment handler directly, /time is fetched, never answered from the store.
    const first = await (await edge.segment(new Request(`${origin.url}/time`))).text();
    t += 1500;
    const second = await (await edge.segment(new Request(`${origin.url}/time`))).text();
    expect(Date.parse(second) - Date.parse(first)).toBe(1500);
    expect(edge.store.urls().filter((u) => !/\/\d+\.m4s$/.test(u))).toEqual([]);
  });

  it('answers the segments its manifests list from the store, without the origin’s (stale) Date', async () => {
    const edge = edgeFor(origin.url, 0);
    const m3u8 = `${origin.url}/live/${STREAM}/index.m3u8`;
    const pl = parseMediaPlaylist(await (await get(edge, m3u8)).text());
    const seg = new URL(pl.segments.at(-1)!.uri, m3u8).href;
    expect(edge.route(new URL(`${seg}?CMCD=sid%3D%22a%22`))).toBe('segment');
    const a = await get(edge, seg);
    expect(a.headers.get('x-ethle-cache')).toBe('sw');
    await a.arrayBuffer();
    expect(edge.store.urls()).toContain(seg);
    const b = await get(edge, `${seg}?CMCD=sid%3D%22b%22`);
    expect((await b.arrayBuffer()).byteLength).toBeGreaterThan(0);
    // The origin dated the segment when it was fetched; replaying that Date later would pull a
    // player's clock back by the time the segment sat in the store.
    expect(a.headers.get('date')).toBeNull();
    expect(b.headers.get('date')).toBeNull();
    expect(origin.stats().requests[new URL(seg).pathname]).toBe(1);
  });

  it('keys a playlist without the players’ per-request query, and forgets segments that left the window', async () => {
    const edge = edgeFor(origin.url, 2);
    const m3u8 = `${origin.url}/live/${STREAM}/index.m3u8`;
    let windowSize = 0;
    for (let i = 0; i < 120; i++) {
      const q = i % 2 ? `?CMCD=${encodeURIComponent(`bl=${i},sid="s${i}"`)}` : `?_HLS_msn=${i}&CMCD=mtp%3D${i}`;
      const r = await get(edge, m3u8 + q);
      expect(r.status).toBe(200);
      windowSize = Math.max(windowSize, parseMediaPlaylist(await r.text()).segments.length);
      t += 2000; // one segment per request: 240 s, twice the origin's 120 s window
    }
    const s = edge.state();
    expect(s.streams).toEqual([m3u8]);
    expect(s.known).toBeLessThanOrEqual(windowSize + 2);
  });

  it('an LL-HLS playlist held in whole segments declares the players’ fallback, as the Node edge does', async () => {
    const edge = edgeFor(origin.url, 2);
    const ll = `${origin.url}/live/${STREAM}/ll/index.m3u8`;
    const o = await (await fetch(ll)).text();
    const lost = Number(/[,:]HOLD-BACK=([\d.]+)/.exec(o)![1]) - Number(/PART-HOLD-BACK=([\d.]+)/.exec(o)![1]);
    const r = await get(edge, ll);
    expect(await r.text()).not.toMatch(/#EXT-X-PART:/);
    expect(Number(r.headers.get('x-ethle-low-latency-lost-seconds'))).toBeCloseTo(lost, 3);
    expect(Number(r.headers.get('x-ethle-hold-seconds'))).toBeGreaterThanOrEqual(4 + lost - 0.001);
    const plain = await get(edge, `${origin.url}/live/${STREAM}/index.m3u8`);
    expect(plain.headers.get('x-ethle-low-latency-lost-seconds')).toBeNull();
  });

  it('honours the origin’s no-store on a listed segment: served, fetched again, never kept', async () => {
    const counts = new Map<string, number>();
    const server: Server = createServer((req, res) => {
      counts.set(req.url!, (counts.get(req.url!) ?? 0) + 1);
      if (req.url === '/live/index.m3u8') {
        res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
        return res.end(
          '#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:1\n#EXTINF:2.0,\n1.m4s\n#EXTINF:2.0,\n2.m4s\n',
        );
      }
      res.writeHead(200, { 'content-type': 'video/mp4', 'cache-control': req.url === '/live/1.m4s' ? 'no-store' : 'public, max-age=60' });
      res.end(Buffer.alloc(1000, 1));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const edge = edgeFor(base, 0);
      await (await get(edge, `${base}/live/index.m3u8`)).text();
      for (let i = 0; i < 2; i++) {
        for (const n of [1, 2]) {
          const r = await get(edge, `${base}/live/${n}.m4s`);
          expect(r.status).toBe(200);
          expect((await r.arrayBuffer()).byteLength).toBe(1000);
        }
      }
      expect(counts.get('/live/1.m4s')).toBe(2);
      expect(counts.get('/live/2.m4s')).toBe(1);
      expect(edge.store.urls()).toEqual([`${base}/live/2.m4s`]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
