import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMediaPlaylist, parseMpd, parseMultivariantPlaylist, type HlsMediaPlaylist } from '@ethle/core';
import { readBoxes, startOrigin, type LiveOrigin } from '@ethle/live-origin';

// LL-HLS and LL-DASH renditions on a settable clock: the origin's "now" moves only when a test moves
// it, so blocking and streaming are checked against production times without waiting for them.
let fakeNow = Date.UTC(2026, 10, 22, 12, 0, 0);
let origin: LiveOrigin;
/** How often the origin has read its clock: a held request re-reads it while it waits. */
let clockReads = 0;

beforeAll(async () => {
  origin = await startOrigin({ port: 0, clock: () => (clockReads++, fakeNow), streams: ['2M-2s', '15M-2s', '15M-4s'] });
});
afterAll(() => origin.close());

const get = (path: string) => fetch(`${origin.url}${path}`);
const text = async (path: string) => (await get(path)).text();
const bytes = async (path: string) => Buffer.from(await (await get(path)).arrayBuffer());
const playlist = async (name: string, query = '') => parseMediaPlaylist(await text(`/live/${name}/ll/index.m3u8${query}`));

/** The part being produced now (the preload hint) and when it completes, from the playlist itself. */
function hinted(pl: HlsMediaPlaylist): { msn: number; index: number; uri: string } {
  const uri = pl.preloadHints[0]!.uri;
  const [msn, index] = uri.split('.').map(Number) as [number, number];
  return { msn, index, uri };
}

/** Production window of a part, from its response headers. */
async function window(path: string): Promise<{ startMs: number; endMs: number }> {
  const r = await fetch(`${origin.url}${path}`, { method: 'HEAD' });
  return { startMs: Date.parse(r.headers.get('x-ethle-production-start')!), endMs: Date.parse(r.headers.get('x-ethle-production-end')!) };
}

/** Polls `cond` every 10 ms up to `ms` (a condition, not a sleep standing in for an event). */
async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A GET whose chunks are recorded as they arrive. */
function stream(path: string): { res: Promise<IncomingMessage>; chunks: Buffer[]; ended: () => boolean; done: Promise<Buffer> } {
  const chunks: Buffer[] = [];
  let ended = false;
  let resolveRes!: (r: IncomingMessage) => void;
  const res = new Promise<IncomingMessage>((r) => (resolveRes = r));
  const done = new Promise<Buffer>((resolve, reject) => {
    const req = request(`${origin.url}${path}`, (r) => {
      resolveRes(r);
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        ended = true;
        resolve(Buffer.concat(chunks));
      });
    });
    req.on('error', reject);
    req.end();
  });
  return { res, chunks, ended: () => ended, done };
}

const topTypes = (b: Buffer) => readBoxes(b).map((x) => x.type);

describe('LL-HLS playlist', () => {
  it('parses with @ethle/core: parts of the newest segments and the one in progress, a preload hint, server control within the spec minimums', async () => {
    fakeNow += 2000 + 750; // somewhere inside a segment
    for (const [name, L, partTarget, independentAt, reports] of [
      ['15M-2s', 2, 0.52, [0], 1],
      ['15M-4s', 4, 1, [0, 2], 0],
    ] as const) {
      const pl = await playlist(name);
      expect(pl.version).toBe(9);
      expect(pl.targetDuration).toBe(L);
      expect(pl.partTarget).toBe(partTarget);
      const sc = pl.serverControl!;
      expect(sc.canBlockReload).toBe(true);
      expect(sc.partHoldBack!).toBeGreaterThanOrEqual(3 * partTarget - 1e-9);
      expect(sc.holdBack!).toBeGreaterThanOrEqual(3 * L);
      expect(sc.canSkipUntil!).toBeGreaterThanOrEqual(6 * L);
      const withParts = pl.segments.filter((s) => s.parts.length > 0);
      expect(withParts.map((s) => s.msn)).toEqual(pl.segments.slice(-3).map((s) => s.msn));
      for (const s of withParts) {
        // Parts add up to their segment, at most PART-TARGET each, independent where a key frame starts them.
        expect(s.parts.reduce((a, p) => a + p.duration, 0)).toBeCloseTo(s.duration, 6);
        for (const p of s.parts) expect(p.duration).toBeLessThanOrEqual(partTarget);
        expect(s.parts.flatMap((p, j) => (p.independent ? [j] : []))).toEqual(independentAt);
        expect(s.parts.map((p) => p.uri)).toEqual(s.parts.map((_, j) => `${s.msn}.${j}.m4s`));
      }
      const last = pl.segments.at(-1)!.msn;
      const partial = pl.partialSegment;
      const hint = hinted(pl);
      expect(hint.msn).toBe(last + 1);
      expect(hint.index).toBe(partial?.parts.length ?? 0);
      expect(pl.renditionReports.length).toBe(reports); // the other streams of the same segment length
    }
  });

  it('the multivariant LL playlist lists each stream of a segment length; its media playlists report each other', async () => {
    const mv = parseMultivariantPlaylist(await text('/live/master-ll.m3u8?seconds=2'));
    expect(mv.variants.map((v) => v.uri)).toEqual(['2M-2s/ll/index.m3u8', '15M-2s/ll/index.m3u8']);
    const pl = await playlist('2M-2s');
    const r = pl.renditionReports[0]!;
    expect(r.uri).toBe('../../15M-2s/ll/index.m3u8');
    const own = pl.partialSegment ?? { msn: pl.segments.at(-1)!.msn, parts: pl.segments.at(-1)!.parts };
    expect([r.lastMsn, r.lastPart]).toEqual([own.msn, own.parts.length - 1]);
  });
});

describe('LL-HLS parts', () => {
  it('are CMAF chunks (moof+mdat) that concatenate to the segment, sized by the stream bitrate (Table I per second)', async () => {
    const pl = await playlist('15M-2s');
    const seg = pl.segments.at(-1)!;
    const whole = await bytes(`/live/15M-2s/ll/${seg.uri}`);
    const parts = await Promise.all(seg.parts.map((p) => bytes(`/live/15M-2s/ll/${p.uri}`)));
    expect(Buffer.concat(parts).equals(whole)).toBe(true);
    expect(whole.length).toBe(3.7e6);
    parts.forEach((p, j) => {
      expect(topTypes(p)).toEqual(['moof', 'mdat']);
      expect(Math.abs(p.length - (3.7e6 * seg.parts[j]!.duration) / 2)).toBeLessThanOrEqual(1);
    });
    // The init segment is the muxed fMP4 one.
    expect((await bytes('/live/15M-2s/ll/init.mp4')).equals(await bytes('/live/15M-2s/init.mp4'))).toBe(true);
  });

  it('the hinted part answers at once and streams: bytes arrive before the part is complete, the rest when it is', async () => {
    const pl = await playlist('15M-2s');
    const hint = hinted(pl);
    const path = `/live/15M-2s/ll/${hint.uri}`;
    const { startMs, endMs } = await window(path);
    fakeNow = startMs + (endMs - startMs) / 4;
    const s = stream(path);
    const res = await s.res;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined(); // chunked: produced while sent
    await until(() => s.chunks.length > 0);
    const early = s.chunks.reduce((a, c) => a + c.length, 0);
    expect(s.ended()).toBe(false);
    fakeNow = endMs;
    const body = await s.done;
    expect(early).toBeLessThan(body.length);
    // Once complete the same URL answers whole with a length, the same bytes.
    const r = await get(path);
    expect(r.headers.get('content-length')).toBe(String(body.length));
    expect(Buffer.from(await r.arrayBuffer()).equals(body)).toBe(true);
  });

  it('a whole LL segment is 404 until its last part is produced', async () => {
    const pl = await playlist('15M-2s');
    const r = await get(`/live/15M-2s/ll/${hinted(pl).msn}.m4s`);
    expect(r.status).toBe(404);
    await r.text();
  });
});

describe('blocking playlist reload', () => {
  it('a request for the next part resolves when it is produced, not before', async () => {
    const pl = await playlist('15M-2s');
    const hint = hinted(pl);
    const { endMs } = await window(`/live/15M-2s/ll/${hint.uri}`);
    fakeNow = endMs - 1;
    let answered = false;
    const pending = text(`/live/15M-2s/ll/index.m3u8?_HLS_msn=${hint.msn}&_HLS_part=${hint.index}`).then((t) => {
      answered = true;
      return t;
    });
    // One millisecond short of production the request is still held after the origin has looked at
    // its clock several more times.
    const reads = clockReads;
    await until(() => clockReads >= reads + 5);
    expect(answered).toBe(false);
    fakeNow = endMs;
    const after = parseMediaPlaylist(await pending);
    const listed =
      after.partialSegment?.msn === hint.msn ? after.partialSegment.parts : after.segments.find((s) => s.msn === hint.msn)!.parts;
    expect(listed.map((p) => p.uri)).toContain(hint.uri);
  });

  it('_HLS_msn alone waits for the whole segment; a part index past the last means part 0 of the next segment', async () => {
    const pl = await playlist('15M-2s');
    const hint = hinted(pl);
    const segEnd = Date.parse(pl.segments.at(-1)!.programDateTime!) + 4000; // end of the segment in progress
    fakeNow = segEnd - 1;
    let whole = false;
    const wholeReq = text(`/live/15M-2s/ll/index.m3u8?_HLS_msn=${hint.msn}`).then((t) => ((whole = true), t));
    let past = false;
    const pastReq = text(`/live/15M-2s/ll/index.m3u8?_HLS_msn=${hint.msn - 1}&_HLS_part=4`).then((t) => ((past = true), t));
    // _HLS_msn = M-1, part 4 = part 0 of M: the hinted part or an earlier one — answered once it is listed.
    await until(() => past);
    const reads = clockReads;
    await until(() => clockReads >= reads + 5);
    expect(whole).toBe(false);
    fakeNow = segEnd;
    expect(parseMediaPlaylist(await wholeReq).segments.at(-1)!.msn).toBe(hint.msn);
    await pastReq;
  });

  it('400 for _HLS_part without _HLS_msn, for requests too far ahead (RFC 8216bis §6.2.5.2) and for bad values', async () => {
    // Part 0 of the segment after `last` in production: the newest part is `last`.3.
    const before = await playlist('15M-2s');
    fakeNow = Date.parse(before.segments.at(-1)!.programDateTime!) + 2000 + 100;
    const pl = await playlist('15M-2s');
    const last = pl.segments.at(-1)!.msn;
    expect(hinted(pl)).toMatchObject({ msn: last + 1, index: 0 });
    // Within the Advance Part Limit (floor(3 / 0.52) = 5 parts) it is held: 4 parts ahead.
    const held = text(`/live/15M-2s/ll/index.m3u8?_HLS_msn=${last + 1}&_HLS_part=3`);
    for (const q of [
      '_HLS_part=1',
      `_HLS_msn=${last + 3}`,
      `_HLS_msn=${last + 2}&_HLS_part=2`, // 7 parts ahead
      '_HLS_msn=-1',
      '_HLS_msn=1&_HLS_part=x',
      '_HLS_skip=NO',
    ]) {
      const r = await get(`/live/15M-2s/ll/index.m3u8?${q}`);
      expect(r.status, q).toBe(400);
      const body = await r.text();
      expect(body.trim().split('\n'), q).toHaveLength(1);
    }
    // Within the limit it blocks (answered here because we move the clock past it).
    const ok = text(`/live/15M-2s/ll/index.m3u8?_HLS_msn=${last + 2}`);
    fakeNow += 3 * 2000;
    expect(parseMediaPlaylist(await held).segments.at(-1)!.msn).toBeGreaterThanOrEqual(last + 1);
    expect(parseMediaPlaylist(await ok).segments.at(-1)!.msn).toBeGreaterThanOrEqual(last + 2);
  });
});

describe('delta updates', () => {
  it('_HLS_skip=YES skips all but the last CAN-SKIP-UNTIL seconds; with the previous full playlist it rebuilds the full one', async () => {
    const previousText = await text('/live/15M-2s/ll/index.m3u8');
    const previous = parseMediaPlaylist(previousText);
    fakeNow += 1300; // a few parts later
    const deltaText = await text('/live/15M-2s/ll/index.m3u8?_HLS_skip=YES');
    const fullText = await text('/live/15M-2s/ll/index.m3u8');
    const delta = parseMediaPlaylist(deltaText);
    expect(delta.skippedSegments).toBeGreaterThan(0);
    // What is left covers at least CAN-SKIP-UNTIL.
    const kept = delta.segments.reduce((a, s) => a + s.duration, 0);
    expect(kept).toBeGreaterThanOrEqual(delta.serverControl!.canSkipUntil!);
    // Rebuild: the EXT-X-SKIP line becomes the previous playlist's lines of the skipped segments.
    const skipped = previous.segments.filter((s) => s.msn >= delta.mediaSequence && s.msn < delta.mediaSequence + delta.skippedSegments);
    expect(skipped).toHaveLength(delta.skippedSegments);
    // (The playlist-wide EXT-X-MAP counts among the first segment's lines; it stays in the delta.)
    const lines = skipped.flatMap((s) => previous.lines.slice(s.firstLine, s.uriLine + 1)).filter((l) => !l.startsWith('#EXT-X-MAP'));
    const rebuilt = deltaText.replace(/^#EXT-X-SKIP:.*\n/m, lines.map((l) => `${l}\n`).join(''));
    expect(rebuilt).toBe(fullText);
    expect(previousText).not.toBe(fullText);
  });
});

describe('LL-DASH', () => {
  it('ll.mpd: availabilityTimeOffset = segment − chunk, availabilityTimeComplete=false, a ServiceDescription, UTCTiming; it parses with @ethle/core', async () => {
    const mpd = await text('/live/15M-2s/ll.mpd');
    expect(mpd.match(/availabilityTimeOffset="1.5" availabilityTimeComplete="false"/g)).toHaveLength(2);
    expect(mpd).toMatch(/<ServiceDescription id="0">\s*<Latency referenceId="0" target="3000"/);
    expect(mpd).toContain(`<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="${origin.url}/time"/>`);
    const info = parseMpd(mpd);
    expect(info.type).toBe('dynamic');
    expect((await text('/live/15M-4s/ll.mpd')).match(/availabilityTimeOffset="3"/g)).toHaveLength(2);
  });

  it('the segment in production is streamed chunk by chunk: bytes before it is complete, one moof+mdat per chunk, Table I in all', async () => {
    const pl = await playlist('15M-2s');
    const n = hinted(pl).msn;
    const path = `/live/15M-2s/ll/dash/v/${n}.m4s`;
    const { startMs, endMs } = await window(path);
    expect(endMs - startMs).toBe(2000);
    fakeNow = startMs + 600; // the first chunk (0.52 s) is done, the second in production
    const s = stream(path);
    await until(() => s.chunks.reduce((a, c) => a + c.length, 0) >= 3.7e6 * 0.26);
    expect(s.ended()).toBe(false);
    fakeNow = endMs;
    const body = await s.done;
    expect(body.length).toBe(3.7e6);
    expect(topTypes(body)).toEqual(['moof', 'mdat', 'moof', 'mdat', 'moof', 'mdat', 'moof', 'mdat']);
    const audio = await bytes(`/live/15M-2s/ll/dash/a/${n}.m4s`);
    expect(topTypes(audio)).toHaveLength(8);
  });
});

describe('partSeconds', () => {
  it('must divide the 2 s chunk: a coded one-line error otherwise', async () => {
    await expect(startOrigin({ port: 0, partSeconds: 0.3 })).rejects.toMatchObject({ code: 'ERR_ORIGIN_OPTION', option: 'partSeconds' });
  });

  it('sets the part grid (1 s parts on 2 s segments)', async () => {
    const o = await startOrigin({ port: 0, clock: () => fakeNow, streams: ['2M-2s'], partSeconds: 1 });
    try {
      const pl = parseMediaPlaylist(await (await fetch(`${o.url}/live/2M-2s/ll/index.m3u8`)).text());
      expect(pl.partTarget).toBe(1);
      expect(pl.segments.at(-1)!.parts.map((p) => p.duration)).toEqual([1, 1]);
    } finally {
      await o.close();
    }
  });
});
