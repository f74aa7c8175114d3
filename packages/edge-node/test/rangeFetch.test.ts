import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { RangeAssembler } from '../src/origin/RangeAssembler.js';
import { startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

// A segment a receiver waits for while the edge has no lead comes as parallel byte ranges (each in
// its own slow start). Whatever the origin does with Range, the receiver gets exactly the bytes.

const SEG = 2 * 1024 * 1024;

let origin: TestOrigin;
let edge: RunningEdge;
afterEach(async () => {
  await edge?.close();
  await origin?.close();
});

async function setup(o: { ranges: boolean; advertisedBytes?: number; hold?: number | 'auto'; segmentBytes?: number }) {
  const bytes = o.segmentBytes ?? SEG;
  origin = await startTestOrigin({
    segmentBytes: bytes,
    window: 8,
    ranges: o.ranges,
    bitrateKbps: Math.round(((o.advertisedBytes ?? bytes) * 8) / 1000),
  });
  origin.produce(8);
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, logLevel: 'silent', hold: o.hold ?? 0, originProbeMs: 0 }));
}

/** Where the last of `parts` ranges starts for an advertised size (EXT-X-BITRATE is whole kbit/s, 1 s segments). */
const lastRangeStart = (advertisedBytes: number, parts: number) =>
  (parts - 1) * Math.ceil((Math.round((advertisedBytes * 8) / 1000) * 1000) / 8 / parts);

/** Start segments large enough for 8 ranges of MIN_PART_BYTES (256 KiB) and more. */
const BIG = 4 * 1024 * 1024;

async function get(path: string) {
  const res = await request(`${edge.url}${path}`);
  return { status: res.statusCode, cache: res.headers['x-ethle-cache'], body: Buffer.from(await res.body.arrayBuffer()) };
}

describe('parallel byte ranges for a waited-for segment', () => {
  it('a miss comes as maxHold ranges (the last open-ended) and is byte-identical', async () => {
    await setup({ ranges: true });
    const seen: { path: string; result: string; bytesAtEdge: number }[] = [];
    edge.events.on('segment-request', (e) => seen.push(e));
    await get('/live/a/index.m3u8');
    // seg2 is outside what the planner fetched for a new player (seg5..seg7 with hold 0).
    const r = await get('/live/a/seg2.ts');
    expect(r.status).toBe(200);
    expect(r.cache).toBe('miss');
    expect(r.body.equals(origin.body(2))).toBe(true);
    const q = SEG / 4;
    expect(origin.ranges('/live/a/seg2.ts').sort()).toEqual(
      [`bytes=0-${q - 1}`, `bytes=${q}-${2 * q - 1}`, `bytes=${2 * q}-${3 * q - 1}`, `bytes=${3 * q}-`].sort(),
    );
    // Cached whole: the next receiver gets a hit without another origin request.
    const again = await get('/live/a/seg2.ts');
    expect(again.cache).toBe('hit');
    expect(again.body.equals(origin.body(2))).toBe(true);
    expect(origin.requests('/live/a/seg2.ts')).toBe(4);
    // The 'segment-request' event tells each receiver request's cache result as it was asked,
    // who asked (no CMCD: its address) and of which stream.
    const stream = 'origin/live/a/index.m3u8';
    expect(seen).toEqual([
      { origin: 'origin', path: '/live/a/seg2.ts', result: 'miss', bytesAtEdge: 0, receiver: 'ip:127.0.0.1', stream },
      { origin: 'origin', path: '/live/a/seg2.ts', result: 'hit', bytesAtEdge: SEG, receiver: 'ip:127.0.0.1', stream },
    ]);
  });

  it('before any receiver request, every segment a new player starts on is fetched as ranges, the most for the first', async () => {
    await setup({ ranges: true, segmentBytes: BIG });
    await get('/live/a/index.m3u8');
    // hold 0: the player is shown seg0..seg7 and starts at the third from the end (seg5), then asks
    // for seg6 and seg7 as soon as it has the one before: the edge has no lead on any of them.
    // x + 1 = 1 + 1 fetches start at once, in the order they are needed: seg5 as 2 × maxHold
    // ranges, seg6 as maxHold.
    await until(() => origin.ranges('/live/a/seg5.ts').length === 8, 'seg5 as 8 ranges');
    await until(() => origin.ranges('/live/a/seg6.ts').length === 4, 'seg6 as 4 ranges');
    // seg7 waits for a slot: its prefetch is ranked among the visible ones still arriving then
    // (maxHold ranges behind seg5 or seg6, 2 × maxHold once both are whole); asked for before
    // that, it is a miss, maxHold ranges. Read whole through the edge, every range of it was asked.
    for (const id of [5, 6, 7]) expect((await get(`/live/a/seg${id}.ts`)).body.equals(origin.body(id))).toBe(true);
    expect([4, 8]).toContain(origin.ranges('/live/a/seg7.ts').length);
  });

  it("auto, a new player shown 0 while the stream's x is 1: the 8 ranges go to the segment it asks for first", async () => {
    // Over loopback eq. 1 holds for the default radio: a new player joins hold-0 and is shown
    // seg0..seg7 (hls.js starts at seg5), while hold-x's x is at least 1. Anticipated from x = 1,
    // seg4 took the 8 ranges (issue 38: 15M-4s at 224 ms, 3 of 3 runs).
    await setup({ ranges: true, hold: 'auto', segmentBytes: BIG });
    const planned = new Map<string, number>();
    edge.events.on('origin-fetch', (r) => planned.set(r.path, r.parts));
    const held = await request(`${edge.url}/live/a/index.m3u8`);
    expect(held.headers['x-ethle-hold-segments']).toBe('0');
    await held.body.dump();
    await until(() => planned.has('/live/a/seg5.ts'), 'seg5 fetched');
    expect(planned.get('/live/a/seg5.ts')).toBe(8);
    expect(origin.requests('/live/a/seg4.ts')).toBe(0);
  });

  it('with x held, the start segments come as ranges and the held ones on one connection each', async () => {
    await setup({ ranges: true, hold: 2, segmentBytes: BIG });
    await get('/live/a/index.m3u8');
    // hold 2: the player is shown seg0..seg5, starts at seg3 and asks for seg4 and seg5 right
    // after: 8, 4 and 2 ranges. seg6 and seg7 become visible a segment length apart: one flow
    // each, as the paper's x.
    for (const [id, n] of new Map([
      [3, 8],
      [4, 4],
      [5, 2],
    ]))
      await until(() => origin.ranges(`/live/a/seg${id}.ts`).length === n, `seg${id} as ${n} ranges`);
    await until(() => origin.requests('/live/a/seg6.ts') > 0 && origin.requests('/live/a/seg7.ts') > 0, 'held seg6 and seg7 prefetched');
    expect(origin.ranges('/live/a/seg6.ts')).toEqual([]);
    expect(origin.ranges('/live/a/seg7.ts')).toEqual([]);
    expect(origin.requests('/live/a/seg6.ts')).toBe(1);
  });

  // The start segment is sized from the advertised bitrate (later ones from measured sizes).
  it('an advertised size far too large: ranges past the end are 416 and count as empty', async () => {
    await setup({ ranges: true, advertisedBytes: SEG * 3 });
    await get('/live/a/index.m3u8');
    // seg5 is the first a new player needs: 2 × maxHold ranges.
    await until(() => origin.ranges('/live/a/seg5.ts').length === 8, 'seg5 as 8 ranges');
    expect(origin.ranges('/live/a/seg5.ts')).toContain(`bytes=${lastRangeStart(SEG * 3, 8)}-`);
    const r = await get('/live/a/seg5.ts');
    expect(r.status).toBe(200);
    expect(r.body.equals(origin.body(5))).toBe(true);
  });

  it('an advertised size far too small: the open-ended last range carries the rest', async () => {
    await setup({ ranges: true, advertisedBytes: SEG / 2 });
    await get('/live/a/index.m3u8');
    // 2 × maxHold ranges for the first start segment, but none under 256 KiB: 4 of this estimate.
    await until(() => origin.ranges('/live/a/seg5.ts').length === 4, 'seg5 as 4 ranges');
    expect(origin.ranges('/live/a/seg5.ts')).toContain(`bytes=${lastRangeStart(SEG / 2, 4)}-`);
    const r = await get('/live/a/seg5.ts');
    expect(r.body.equals(origin.body(5))).toBe(true);
  });

  it('an origin that ignores Range: the first response is the whole segment, used as is', async () => {
    await setup({ ranges: false });
    await get('/live/a/index.m3u8');
    const r = await get('/live/a/seg1.ts');
    expect(r.status).toBe(200);
    expect(r.body.equals(origin.body(1))).toBe(true);
  });

  it('a range that breaks off fails the whole segment: an error for the receiver, nothing cached, a retry works', async () => {
    await setup({ ranges: true });
    await get('/live/a/index.m3u8');
    origin.fault('/live/a/seg1.ts', { kind: 'truncate', afterBytes: 1000 });
    const bad = await request(`${edge.url}/live/a/seg1.ts`).then(
      async (res) => {
        // Headers may already be out (200) when a later range breaks: then the body is cut short.
        const body = await res.body.arrayBuffer().then(
          (b) => b.byteLength,
          () => -1,
        );
        return { status: res.statusCode, bytes: body };
      },
      () => ({ status: 0, bytes: -1 }),
    );
    expect(bad.status === 502 || bad.bytes < SEG).toBe(true);
    origin.fault('/live/a/seg1.ts', undefined);
    const good = await get('/live/a/seg1.ts');
    expect(good.status).toBe(200);
    expect(good.body.equals(origin.body(1))).toBe(true);
  });
});

describe('RangeAssembler', () => {
  it('emits the parts in order whatever order their chunks and ends arrive in', () => {
    const out: string[] = [];
    const a = new RangeAssembler(3, (c) => out.push(c.toString()));
    a.chunk(2, Buffer.from('E'));
    a.chunk(0, Buffer.from('A'));
    a.chunk(1, Buffer.from('C'));
    a.end(2);
    a.chunk(0, Buffer.from('B'));
    expect(out).toEqual(['A', 'B']);
    a.chunk(1, Buffer.from('D'));
    a.end(0);
    expect(out).toEqual(['A', 'B', 'C', 'D']);
    expect(a.complete).toBe(false);
    a.end(1);
    expect(out).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(a.complete).toBe(true);
  });
});
