import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { SwEdge } from '@ethle/sw';

// Both edges mount the core's per-stream layer (HoldPolicy, StreamProgress, planPrefetch,
// streamIdentity, isStorable): for the same inputs — backhaul RTT, radio throughput, what the
// manifests advertise and the segments weigh — the worker and the Node edge hold the same x per
// stream, over time, and fetch, keep and serve the same segments. (The Node edge also corrects x
// by the backhaul rates it measures, which a worker cannot: the segments here are small enough
// that loopback never asks for more.)
const RTT_MS = 224;
const RAN_MBPS = 60;

describe('the worker and the Node edge decide the first x alike (the live origin)', () => {
  let origin: LiveOrigin;
  let edge: RunningEdge;
  beforeAll(async () => {
    origin = await startOrigin({ port: 0, streams: ['15M-2s', '50M-2s'] });
    edge = await startEdge(
      createEdgeConfig({
        origin: origin.url,
        port: 0,
        hold: 'auto',
        backhaulRttMs: RTT_MS,
        defaultRanMbps: RAN_MBPS,
        logLevel: 'silent',
        originProbeMs: 0,
      }),
    );
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  it.each([
    ['15M-2s', 'index.m3u8'],
    ['50M-2s', 'index.m3u8'],
    ['15M-2s', 'manifest.mpd'],
    ['50M-2s', 'manifest.mpd'],
  ])('%s %s', async (stream, file) => {
    const node = await fetch(`${edge.url}/live/${stream}/${file}`);
    await node.text();
    const nodeX = node.headers.get('x-ethle-hold-segments');
    expect(Number(nodeX)).toBeGreaterThan(0);
    const sw = new SwEdge((input, init) => fetch(input, init));
    sw.configure({ origins: [origin.url], hold: 'auto', context: { rttMs: RTT_MS, ranMbps: RAN_MBPS } });
    const r = await sw.manifest(new Request(`${origin.url}/live/${stream}/${file}`));
    await r.text();
    expect(r.headers.get('x-ethle-hold-segments')).toBe(nodeX);
  });
});

/**
 * A live HLS origin the test moves by hand: streams of 1 s segments, each with an advertised
 * bitrate and a real size, segment responses held until `open()`, every segment fetch counted.
 */
interface TestStream {
  /** EXT-X-BITRATE, kbit/s. */
  kbps: number;
  bytes: number;
  cacheControl: string;
}
const LISTED = 8;
const STREAMS: Record<string, TestStream> = {
  // Advertises a quarter of what it weighs: x rises once the edges have measured a segment.
  a: { kbps: 800, bytes: 400_000, cacheControl: 'public, max-age=60' },
  b: { kbps: 2_400, bytes: 300_000, cacheControl: 'public, max-age=60' },
  // The origin wants to be asked every time: served, never kept.
  c: { kbps: 3_200, bytes: 400_000, cacheControl: 'no-cache' },
};

async function startTestOrigin() {
  let first = 100;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const counts = new Map<string, number>();
  const bodies = new Map(Object.entries(STREAMS).map(([k, s]) => [k, Buffer.alloc(s.bytes, k)]));
  const server: Server = createServer((req, res) => {
    const m = /^\/live\/(\w)\/(?:(index\.m3u8)|(\d+)\.m4s)(?:\?.*)?$/.exec(req.url ?? '');
    const s = m === null ? undefined : STREAMS[m[1]!];
    if (m === null || s === undefined) return void res.writeHead(404).end();
    if (m[2] !== undefined) {
      let text = `#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:${first}\n#EXT-X-BITRATE:${s.kbps}\n`;
      for (let n = first; n < first + LISTED; n++) text += `#EXTINF:1.0,\n${n}.m4s\n`;
      return void res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': 'no-store' }).end(text);
    }
    const path = `/live/${m[1]}/${m[3]}.m4s`;
    // The Node edge fetches a segment a player will wait for as parallel byte ranges: one fetch.
    const r = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (r === null || r[1] === '0') counts.set(path, (counts.get(path) ?? 0) + 1);
    const body = bodies.get(m[1]!)!;
    const headers = { 'content-type': 'video/mp4', 'cache-control': s.cacheControl };
    void gate.then(() => {
      if (r === null) return void res.writeHead(200, { ...headers, 'content-length': s.bytes }).end(body);
      const [from, to] = [Number(r[1]), Math.min(r[2] === '' ? Infinity : Number(r[2]), s.bytes - 1)];
      if (from >= s.bytes) return void res.writeHead(416, { 'content-range': `bytes */${s.bytes}` }).end();
      res
        .writeHead(206, { ...headers, 'content-length': to - from + 1, 'content-range': `bytes ${from}-${to}/${s.bytes}` })
        .end(body.subarray(from, to + 1));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: release,
    advance: (n: number) => void (first += n),
    /** Segment ids of a stream the origin was asked for, ascending, and how often each. */
    fetched: (stream: string) =>
      [...counts.keys()]
        .filter((p) => p.startsWith(`/live/${stream}/`))
        .map((p) => Number(/(\d+)\.m4s$/.exec(p)![1]))
        .sort((x, y) => x - y),
    count: (stream: string, id: number) => counts.get(`/live/${stream}/${id}.m4s`) ?? 0,
    close: () => new Promise((r) => server.close(r)),
  };
}
type TestOrigin = Awaited<ReturnType<typeof startTestOrigin>>;

describe('the worker and the Node edge: two streams and a no-cache origin, over time', () => {
  // One origin per edge, alike: each origin's log is what one edge fetched.
  let forNode: TestOrigin;
  let forSw: TestOrigin;
  let edge: RunningEdge;
  let sw: SwEdge;
  beforeAll(async () => {
    forNode = await startTestOrigin();
    forSw = await startTestOrigin();
    // The worker has no TCP connection to learn the origin's segment start from: both take the paper's.
    edge = await startEdge(
      createEdgeConfig({
        origin: forNode.url,
        port: 0,
        hold: 'auto',
        backhaulRttMs: RTT_MS,
        defaultRanMbps: RAN_MBPS,
        segmentStart: 'slow-start',
        logLevel: 'silent',
        originProbeMs: 0,
      }),
    );
    sw = new SwEdge((input, init) => fetch(input, init));
    sw.configure({ origins: [forSw.url], hold: 'auto', context: { rttMs: RTT_MS, ranMbps: RAN_MBPS } });
  });
  afterAll(async () => {
    await edge?.close();
    await forNode?.close();
    await forSw?.close();
  });

  /** x each edge serves the page for a stream now (the page's manifest request; CMCD names its session at the Node edge). */
  async function holds(stream: string): Promise<[number, number]> {
    const node = await fetch(`${edge.url}/live/${stream}/index.m3u8?CMCD=${encodeURIComponent('sid="page"')}`);
    await node.text();
    const w = await sw.manifest(new Request(`${forSw.url}/live/${stream}/index.m3u8?CMCD=${encodeURIComponent('sid="page"')}`));
    await w.text();
    return [Number(node.headers.get('x-ethle-hold-segments')), Number(w.headers.get('x-ethle-hold-segments'))];
  }

  /** The player fetches a segment through both edges: what each served, and from where. */
  async function play(stream: string, id: number): Promise<{ node: { bytes: number; cache: string | null }; sw: { bytes: number } }> {
    const n = await fetch(`${edge.url}/live/${stream}/${id}.m4s`);
    const nb = (await n.arrayBuffer()).byteLength;
    const url = `${forSw.url}/live/${stream}/${id}.m4s`;
    expect(sw.route(new URL(url))).toBe('segment');
    const w = await sw.segment(new Request(url));
    return { node: { bytes: nb, cache: n.headers.get('x-ethle-cache') }, sw: { bytes: (await w.arrayBuffer()).byteLength } };
  }

  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  /** Waits until both origins were asked for exactly these segments of a stream (each edge's planner settled). */
  async function fetchedByBoth(stream: string, ids: number[]): Promise<void> {
    await vi.waitFor(
      () => {
        expect(forNode.fetched(stream)).toEqual(ids);
        expect(forSw.fetched(stream)).toEqual(ids);
      },
      { timeout: 10_000, interval: 20 },
    );
  }

  it('holds the same x per stream, fetches the same segments, keeps what may be kept', async () => {
    // Before any segment has been measured: x from what the manifests advertise, per stream.
    // a looks light (hold-0 for this page; the stream's x is 1), b does not.
    expect(await holds('a')).toEqual([0, 0]);
    expect(await holds('b')).toEqual([2, 2]);
    expect(await holds('c')).toEqual([2, 2]);

    // Both planners anticipate where a player shown its playlist starts, each stream with the x a
    // new player is shown (ids 100–107 listed): 3 segments behind the newest it sees, and all
    // after. a's new players are shown 0 (its stream x is 1): they start at 105, not 104.
    forNode.open();
    forSw.open();
    await fetchedByBoth('a', range(105, 107));
    await fetchedByBoth('b', range(103, 107));
    // c's responses are not kept: both planners ask again for the first x + 1 of its window once
    // prefetchRetryMs has passed, and get no further.
    await fetchedByBoth('c', range(103, 105));

    // The player's first segments come from what each edge kept; the origins see no second request.
    for (const [stream, id] of [
      ['a', 105],
      ['b', 103],
    ] as const) {
      const r = await play(stream, id);
      expect(r).toEqual({ node: { bytes: STREAMS[stream]!.bytes, cache: 'hit' }, sw: { bytes: STREAMS[stream]!.bytes } });
      expect([forNode.count(stream, id), forSw.count(stream, id)]).toEqual([1, 1]);
    }

    // Measured: a weighs four times what it advertised, and both edges raise its x alike; b keeps its own.
    expect(await holds('a')).toEqual([2, 2]);
    expect(await holds('b')).toEqual([2, 2]);

    // The origin moves on two segments; once the Node edge's poller has the new version, the player
    // advances one segment in a: both edges fetch the one segment x = 2 ahead of it, nothing more.
    forNode.advance(2);
    forSw.advance(2);
    await vi.waitFor(
      async () => {
        const text = await (await fetch(`${edge.url}/live/a/index.m3u8?CMCD=${encodeURIComponent('sid="page"')}`)).text();
        expect(text).toContain('\n107.m4s');
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(await holds('a')).toEqual([2, 2]);
    await play('a', 106);
    await fetchedByBoth('a', range(105, 108));
    expect(forNode.fetched('b')).toEqual(range(103, 107));
    expect(forSw.fetched('b')).toEqual(range(103, 107));

    // The no-cache stream: served whole, never from what was kept (a second origin request), and
    // nothing of it stays in the worker's store.
    const c = await play('c', 105);
    expect(c.node.bytes).toBe(STREAMS.c!.bytes);
    expect(c.node.cache).not.toBe('hit');
    expect(c.sw.bytes).toBe(STREAMS.c!.bytes);
    expect(forSw.count('c', 105)).toBeGreaterThanOrEqual(2);
    expect(forNode.count('c', 105)).toBeGreaterThanOrEqual(2);
    expect(sw.store.urls().filter((u) => u.includes('/live/c/'))).toEqual([]);
    expect(sw.store.urls().filter((u) => u.includes('/live/a/')).length).toBe(4); // 105–108

    const state = sw.state();
    expect(Object.keys(state.holds).sort()).toEqual(['a', 'b', 'c'].map((s) => `${forSw.url}/live/${s}/index.m3u8`));
    expect(state.errors).toEqual([]);
  });
});
