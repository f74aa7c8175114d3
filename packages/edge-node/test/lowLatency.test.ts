import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { decidePartHold, deltaMediaPlaylist, parseMediaPlaylist, parseMpd } from '@ethle/core';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { until } from './helpers/startTestOrigin.js';

// Low-latency live through the edge (issue 20), against the project's real live origin and real
// HTTP clients on loopback: LL-HLS held in parts with blocking reloads parked at the edge, and
// LL-DASH held in chunks with segments streamed through while the origin produces them.
const STREAM = '2M-2s';
const LL = `/live/${STREAM}/ll/index.m3u8`;
const N = 2;

async function text(url: string) {
  const r = await request(url);
  return { status: r.statusCode, headers: r.headers, text: await r.body.text() };
}

/** The newest part a playlist lists (msn, index) and its parts per segment. */
function newestPart(t: string): { msn: number; part: number; k: number } {
  const p = parseMediaPlaylist(t);
  const complete = [...p.segments].reverse().find((s) => s.parts.length > 0)!;
  const k = complete.parts.length;
  const ps = p.partialSegment;
  if (ps !== undefined && ps.parts.length > 0) return { msn: ps.msn, part: ps.parts.length - 1, k };
  const last = p.segments[p.segments.length - 1]!;
  return { msn: last.msn, part: last.parts.length - 1, k };
}
const ordinal = (p: { msn: number; part: number; k: number }): number => p.msn * p.k + p.part;
const position = (ord: number, k: number) => ({ msn: Math.floor(ord / k), part: ord % k });
const hintOf = (t: string): string | undefined => /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="([^"]+)"/.exec(t)?.[1];

let origin: LiveOrigin;
beforeAll(async () => {
  // Two 2 s streams: each playlist carries a rendition report for the other.
  origin = await startOrigin({ port: 0, streams: [STREAM, '15M-2s'] });
});
afterAll(async () => origin?.close());

describe('LL-HLS with --hold-parts 2', () => {
  let edge: RunningEdge;
  beforeAll(async () => {
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, holdParts: N, hold: 0, logLevel: 'silent' }));
    expect((await text(edge.url + LL)).status).toBe(200);
  });
  afterAll(async () => edge?.close());

  it('the edge playlist never lists the newest 2 origin parts; hint and rendition reports follow the held view', async () => {
    let exact = 0;
    for (let i = 0; i < 8; i++) {
      const e = await text(edge.url + LL);
      const o = await text(origin.url + LL); // fetched after: the origin is at least as far on
      expect(e.status).toBe(200);
      expect(e.headers['x-ethle-hold-parts']).toBe(String(N));
      expect(Number(e.headers['x-ethle-hold-seconds'])).toBeGreaterThan(0.9);
      expect(Number(e.headers['x-ethle-hold-seconds'])).toBeLessThan(1.1);
      const ep = newestPart(e.text);
      const op = newestPart(o.text);
      const gap = ordinal(op) - ordinal(ep);
      expect(gap).toBeGreaterThanOrEqual(N);
      if (gap === N) exact += 1;
      // The hint names the part after the newest listed one (the first held one).
      const next = position(ordinal(ep) + 1, ep.k);
      expect(hintOf(e.text)).toBe(`${next.msn}.${next.part}.m4s`);
      // Every stream shares the part grid: the other rendition is reported where this one is.
      const report = /#EXT-X-RENDITION-REPORT:.*LAST-MSN=(\d+),LAST-PART=(\d+)/.exec(e.text)!;
      expect({ msn: Number(report[1]), part: Number(report[2]) }).toEqual({ msn: ep.msn, part: ep.part });
      // Wait for the next part through the edge itself (a blocking reload).
      const b = await text(`${edge.url}${LL}?_HLS_msn=${next.msn}&_HLS_part=${next.part}`);
      expect(b.status).toBe(200);
      expect(ordinal(newestPart(b.text))).toBeGreaterThanOrEqual(ordinal(ep) + 1);
    }
    // Most samples see exactly N (the origin may move on between the two fetches).
    expect(exact).toBeGreaterThanOrEqual(4);
  });

  it('50 receivers blocking on a coming part: all answered once the held view lists it, one origin request per playlist version', async () => {
    const now = newestPart((await text(edge.url + LL)).text);
    const want = position(ordinal(now) + 2, now.k); // two parts on: ≥ one part duration of waiting
    const before = origin.stats();
    const answers = Array.from({ length: 50 }, () => text(`${edge.url}${LL}?_HLS_msn=${want.msn}&_HLS_part=${want.part}`));
    // All 50 are parked at the edge at once (none was answered yet: the part is not produced).
    await until(() => edge.stats().blocked === 50, '50 parked blocking reloads', 2_000);
    const res = await Promise.all(answers);
    expect(edge.stats().blocked).toBe(0);
    for (const r of res) {
      expect(r.status).toBe(200);
      expect(r.text).toBe(res[0]!.text); // one version, one held text
    }
    const got = newestPart(res[0]!.text);
    expect(ordinal(got)).toBe(ordinal({ ...want, k: now.k }));
    const after = origin.stats();
    // The version that satisfied them: the origin listing want + N parts, asked for exactly once.
    const satisfying = position(ordinal({ ...want, k: now.k }) + N, now.k);
    expect(after.blocking[`${LL}?_HLS_msn=${satisfying.msn}&_HLS_part=${satisfying.part}`]).toBe(1);
    // Every playlist request the origin saw meanwhile was one of the edge's blocking polls, each of
    // a different version (the receivers' 50 never reached it).
    const polls = (after.requests[LL] ?? 0) - (before.requests[LL] ?? 0);
    const newKeys = Object.entries(after.blocking).filter(([k]) => k.startsWith(LL) && before.blocking[k] === undefined);
    expect(polls).toBe(newKeys.length);
    expect(polls).toBeLessThanOrEqual(4); // ~3 parts of 0.5 s went by, one poll each
    for (const [, count] of Object.entries(after.blocking)) expect(count).toBe(1);
  });

  it('delta updates (_HLS_skip) are made from the edge’s own held view', async () => {
    const now = newestPart((await text(edge.url + LL)).text);
    const want = position(ordinal(now) + 1, now.k);
    const q = `_HLS_msn=${want.msn}&_HLS_part=${want.part}`;
    // Both park on the same part and are answered from the same version.
    const [full, delta, v2] = await Promise.all([
      text(`${edge.url}${LL}?${q}`),
      text(`${edge.url}${LL}?${q}&_HLS_skip=YES`),
      text(`${edge.url}${LL}?${q}&_HLS_skip=v2`),
    ]);
    expect(delta.status).toBe(200);
    expect(delta.text).toMatch(/#EXT-X-SKIP:SKIPPED-SEGMENTS=\d+/);
    expect(delta.text).toBe(deltaMediaPlaylist(full.text, { skip: 'YES' }).text);
    expect(v2.text).toBe(deltaMediaPlaylist(full.text, { skip: 'v2' }).text);
    expect(delta.text.length).toBeLessThan(full.text.length / 2);
    // The receivers' directives never reached the origin: each version was asked for once.
    for (const [, count] of Object.entries(origin.stats().blocking)) expect(count).toBe(1);
  });

  it('a parked reload is answered within one part duration of the held view listing its part', async () => {
    // The held view lists part P once the origin has produced P + N: a direct blocking request to
    // the origin for P + N returns at that moment, so the two answers may differ by the edge's own
    // poll and rewrite, never by a part (0.5 s) or more — an edge that found out at its next
    // periodic reload, not through its blocking poll, would.
    const now = newestPart((await text(edge.url + LL)).text);
    const want = position(ordinal(now) + 2, now.k);
    const avail = position(ordinal(now) + 2 + N, now.k);
    const at = async (p: Promise<{ status: number; text: string }>, who: string) => {
      const r = await p;
      expect(r.status, `${who}: ${r.text}`).toBe(200);
      return performance.now();
    };
    const [edgeAt, originAt] = await Promise.all([
      at(text(`${edge.url}${LL}?_HLS_msn=${want.msn}&_HLS_part=${want.part}`), 'edge'),
      at(text(`${origin.url}${LL}?_HLS_msn=${avail.msn}&_HLS_part=${avail.part}`), 'origin'),
    ]);
    expect(Math.abs(edgeAt - originAt)).toBeLessThan(500);
  });

  it('bad and too-far directives are 400 at once', async () => {
    const now = newestPart((await text(edge.url + LL)).text);
    expect((await text(`${edge.url}${LL}?_HLS_part=1`)).status).toBe(400);
    expect((await text(`${edge.url}${LL}?_HLS_msn=x`)).status).toBe(400);
    const far = await text(`${edge.url}${LL}?_HLS_msn=${now.msn + 3}`);
    expect(far.status).toBe(400);
    expect(far.headers['x-ethle-error']).toBe('ERR_EDGE_BLOCKING_BAD_REQUEST');
  });

  it('each part crosses the backhaul once: the hinted part is prefetched and streamed to every receiver', async () => {
    const e = await text(edge.url + LL);
    const hint = hintOf(e.text)!;
    const partPath = `/live/${STREAM}/ll/${hint}`;
    const bodies = await Promise.all(
      Array.from({ length: 10 }, async () => Buffer.from(await (await request(edge.url + partPath)).body.arrayBuffer())),
    );
    const direct = Buffer.from(await (await request(origin.url + partPath)).body.arrayBuffer());
    for (const b of bodies) expect(b.equals(direct)).toBe(true);
    // One fetch by the edge (its prefetch), one by this test.
    expect(origin.stats().fetches[partPath]).toBe(2);
  });
});

describe('parked blocking reloads are bounded', () => {
  it('one more than maxBlockedPerStream gets 503 ERR_EDGE_BLOCKED_FULL at once; a receiver that leaves frees its place', async () => {
    const edge = await startEdge(
      createEdgeConfig({ origin: origin.url, port: 0, holdParts: N, hold: 0, maxBlockedPerStream: 5, logLevel: 'silent' }),
    );
    try {
      const now = newestPart((await text(edge.url + LL)).text);
      const want = position(ordinal(now) + 3, now.k);
      const url = `${edge.url}${LL}?_HLS_msn=${want.msn}&_HLS_part=${want.part}`;
      const leaver = new AbortController();
      const gone = request(url, { signal: leaver.signal }).catch(() => 'aborted');
      const parked = Array.from({ length: 4 }, () => text(url));
      await until(() => edge.stats().blocked === 5, '5 parked', 2_000);
      const full = await text(url);
      expect(full.status).toBe(503);
      expect(full.headers['x-ethle-error']).toBe('ERR_EDGE_BLOCKED_FULL');
      leaver.abort();
      expect(await gone).toBe('aborted');
      await until(() => edge.stats().blocked === 4, 'the leaver unparked', 2_000);
      const again = text(url); // its place is free
      await until(() => edge.stats().blocked === 5, '5 parked again', 2_000);
      for (const r of [...(await Promise.all(parked)), await again]) expect(r.status).toBe(200);
    } finally {
      await edge.close();
    }
  });

  it('a parked request is answered 503 ERR_EDGE_BLOCKING_TIMEOUT after 3 target durations when the origin stops', async () => {
    const o2 = await startOrigin({ port: 0, streams: [STREAM] });
    const edge = await startEdge(createEdgeConfig({ origin: o2.url, port: 0, holdParts: N, hold: 0, logLevel: 'silent' }));
    try {
      const now = newestPart((await text(edge.url + LL)).text);
      const want = position(ordinal(now) + 1, now.k);
      const pending = text(`${edge.url}${LL}?_HLS_msn=${want.msn}&_HLS_part=${want.part}`);
      await until(() => edge.stats().blocked === 1, 'parked', 2_000);
      const t0 = Date.now();
      await o2.close(); // nothing new will come
      const r = await pending;
      const waited = Date.now() - t0;
      expect(r.status).toBe(503);
      expect(r.headers['x-ethle-error']).toBe('ERR_EDGE_BLOCKING_TIMEOUT');
      // 3 × EXT-X-TARGETDURATION (2 s) from parking, which was just before the close.
      expect(waited).toBeGreaterThan(5_500);
      expect(waited).toBeLessThan(7_000);
      expect(edge.stats().blocked).toBe(0);
    } finally {
      await edge.close();
      await o2.close();
    }
  });
});

describe('LL-DASH with --hold-parts 2', () => {
  let edge: RunningEdge;
  beforeAll(async () => {
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, holdParts: N, hold: 0, logLevel: 'silent' }));
  });
  afterAll(async () => edge?.close());

  it('the MPD is held by 2 chunks: availabilityStartTime 1 s later, declared in the headers', async () => {
    const e = await text(`${edge.url}/live/${STREAM}/ll.mpd`);
    const o = await text(`${origin.url}/live/${STREAM}/ll.mpd`);
    expect(e.status).toBe(200);
    expect(e.headers['x-ethle-hold-parts']).toBe(String(N));
    expect(Number(e.headers['x-ethle-hold-seconds'])).toBeCloseTo(1, 3);
    expect(parseMpd(e.text).availabilityStartTimeMs - parseMpd(o.text).availabilityStartTimeMs).toBe(1000);
    // Chunked delivery stays announced as it was (the shift is in AST alone).
    expect(e.text).toMatch(/availabilityTimeOffset="1.5" availabilityTimeComplete="false"/);
  });

  it('a segment in production streams through the edge to 20 receivers from one origin fetch', async () => {
    // The segment whose production started last (announced after its first chunk at the origin) —
    // one with most of its 2 s still to go: late in a segment, wait for the next one to begin (the
    // event the test is about is its production, which the origin's clock defines).
    const phase = (Date.now() - origin.t0Ms) % 2000;
    if (phase > 800) await new Promise((r) => setTimeout(r, 2000 - phase + 100));
    const n = Math.floor((Date.now() - origin.t0Ms) / 2000);
    const path = `/live/${STREAM}/ll/dash/v/${n}.m4s`;
    const endMs = origin.t0Ms + (n + 1) * 2000;
    const firstBytesAt: number[] = [];
    const bodies = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const r = await request(edge.url + path);
        expect(r.statusCode).toBe(200);
        const chunks: Buffer[] = [];
        for await (const c of r.body) {
          if (chunks.length === 0) firstBytesAt.push(Date.now());
          chunks.push(c as Buffer);
        }
        return Buffer.concat(chunks);
      }),
    );
    const whole = Buffer.from(await (await request(origin.url + path)).body.arrayBuffer());
    for (const b of bodies) expect(b.equals(whole)).toBe(true);
    // Bytes reached the receivers while the origin was still producing the segment.
    expect(Math.min(...firstBytesAt)).toBeLessThan(endMs - 400);
    expect(origin.stats().fetches[path]).toBe(2); // the edge's one flow, and this test's check
  });
});

describe('--hold-parts auto', () => {
  it('holds what the part model says for the stream’s backhaul: nothing on a short one, parts on a long one, the same N for every receiver', async () => {
    // RTTs given (no emulated delay on loopback): the model's inputs are RTT, part length, the
    // stream's bitrate (its first segment's size) and the planned radio.
    const edges = await Promise.all(
      [224, 900].map((rtt) =>
        startEdge(createEdgeConfig({ origin: origin.url, port: 0, holdParts: 'auto', hold: 0, backhaulRttMs: rtt, logLevel: 'silent' })),
      ),
    );
    try {
      const decided = await Promise.all(
        edges.map(async (edge) => {
          const changes: Array<{ to: number; rttMs: number | undefined; bitrateMbps: number | undefined }> = [];
          edge.events.on('part-hold-change', (e) => changes.push(e));
          const first = await text(edge.url + LL);
          const second = await text(edge.url + LL);
          expect(first.status).toBe(200);
          const n = Number(first.headers['x-ethle-hold-parts']);
          expect(second.headers['x-ethle-hold-parts']).toBe(String(n));
          // The first receiver waited for the stream's bitrate: N is the model's for these inputs.
          const c = changes.at(-1);
          const inputs = c === undefined ? undefined : { rttMs: c.rttMs, bitrateBps: c.bitrateMbps! * 1e6 };
          if (n > 0) expect(n).toBe(decidePartHold({ ...inputs!, partSeconds: 0.5, ranBps: 100e6, current: undefined, maxHoldParts: 4 }).n);
          const hold = Number(first.headers['x-ethle-hold-seconds']);
          expect(hold).toBeCloseTo(n * 0.5, 1);
          return n;
        }),
      );
      expect(decided[0]).toBe(0);
      expect(decided[1]).toBeGreaterThan(0);
    } finally {
      await Promise.all(edges.map((e) => e.close()));
    }
  });
});
