import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableSegments, parseMediaPlaylist, parseMpd, parseMultivariantPlaylist } from '@ethle/core';
import { CHUNK_SECONDS, LoopMedia, readBoxes, startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { CUE_BREAK_SECONDS, CUE_EVERY_SECONDS } from '../src/streams/CueSchedule.js';
import { decodeSpliceInsert } from './decodeSpliceInsert.js';

// The stream shapes an edge must handle, on a settable clock: parsed with @ethle/core's parsers
// and checked against the bytes the origin really serves.
const START = Date.UTC(2026, 10, 22, 12, 0, 0);
let fakeNow = START;
let origin: LiveOrigin;
const PERIOD = 8; // s: a multiple of 2 and 4
const PER_FILE = 3;
const media = new LoopMedia();

beforeAll(async () => {
  origin = await startOrigin({
    port: 0,
    clock: () => fakeNow,
    streams: ['2M-2s', '2M-4s', '15M-2s'],
    periodSeconds: PERIOD,
    segmentsPerFile: PER_FILE,
  });
});
afterAll(() => origin.close());

const get = (path: string, init?: RequestInit) => fetch(`${origin.url}${path}`, init);
const text = async (path: string) => {
  const r = await get(path);
  expect(r.status, path).toBe(200);
  return r.text();
};
const bytes = async (path: string, init?: RequestInit) => Buffer.from(await (await get(path, init)).arrayBuffer());

/** GET with a Host header of our choosing (fetch does not let one set it). */
function getWithHost(path: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin.url}${path}`, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

function firstTfdt(buf: Buffer): number {
  const moof = readBoxes(buf).find((b) => b.type === 'moof')!;
  const traf = readBoxes(buf, moof.payload, moof.end).find((b) => b.type === 'traf')!;
  const t = readBoxes(buf, traf.payload, traf.end).find((b) => b.type === 'tfdt')!;
  return buf[t.payload] === 1 ? Number(buf.readBigUInt64BE(t.payload + 4)) : buf.readUInt32BE(t.payload + 4);
}

describe('HLS byte ranges: N segments to a file', () => {
  it('every listed range of a file is exactly the bytes of that segment, back to back', async () => {
    const pl = parseMediaPlaylist(await text('/live/2M-2s/byterange.m3u8'));
    const plain = parseMediaPlaylist(await text('/live/2M-2s/index.m3u8'));
    expect(pl.segments.map((s) => s.msn)).toEqual(plain.segments.map((s) => s.msn));
    expect(pl.version).toBeGreaterThanOrEqual(4); // EXT-X-BYTERANGE
    const newest = pl.segments.at(-1)!;
    for (const s of pl.segments.slice(-2 * PER_FILE)) {
      expect(s.uri).toBe(`br/${Math.floor(s.msn / PER_FILE)}.m4s`);
      expect(s.byteRange!.offset).toBe((s.msn % PER_FILE) * 500_000); // 2M-2s segments are 500 000 B
      const { offset, length } = s.byteRange!;
      const r = await get(`/live/2M-2s/${s.uri}`, { headers: { range: `bytes=${offset}-${offset + length - 1}` } });
      expect(r.status).toBe(206);
      expect(r.headers.get('x-ethle-production-start')).toBe(new Date(s.programDateTimeMs!).toISOString());
      const body = Buffer.from(await r.arrayBuffer());
      expect(body.equals(await bytes(`/live/2M-2s/${s.msn}.m4s`)), `segment ${s.msn}`).toBe(true);
    }
    // Ranges of one file tile it: each starts where the previous one ended.
    const sameFile = pl.segments.filter((s) => s.uri === newest.uri);
    for (let i = 1; i < sameFile.length; i++)
      expect(sameFile[i]!.byteRange!.offset).toBe(sameFile[i - 1]!.byteRange!.offset + sameFile[i - 1]!.byteRange!.length);
  });

  it('15M-2s: a range is the segment whatever the segment size (lengths measured, not assumed)', async () => {
    const pl = parseMediaPlaylist(await text('/live/15M-2s/byterange.m3u8'));
    const s = pl.segments.at(-1)!;
    const { offset, length } = s.byteRange!;
    const body = await bytes(`/live/15M-2s/${s.uri}`, { headers: { range: `bytes=${offset}-${offset + length - 1}` } });
    expect(body.equals(await bytes(`/live/15M-2s/${s.msn}.m4s`))).toBe(true);
  });

  it('a file grows while its segments are produced: no-store until complete, then immutable; beyond its end 416, a future file 404', async () => {
    // Put the clock just after the first segment of a file is complete.
    const t0 = origin.t0Ms;
    const f = Math.floor((fakeNow - t0) / 2000 / PER_FILE) + 2;
    const atSegmentEnd = (n: number) => t0 + (n + 1) * 2000 + 1;
    expect((await get(`/live/2M-2s/br/${f}.m4s`)).status).toBe(404);
    fakeNow = atSegmentEnd(f * PER_FILE);
    let r = await get(`/live/2M-2s/br/${f}.m4s`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await r.arrayBuffer()).length).toBe(500_000);
    expect((await get(`/live/2M-2s/br/${f}.m4s`, { headers: { range: 'bytes=500000-' } })).status).toBe(416);
    fakeNow = atSegmentEnd(f * PER_FILE + PER_FILE - 1);
    r = await get(`/live/2M-2s/br/${f}.m4s`);
    expect(r.headers.get('cache-control')).toContain('immutable');
    const whole = Buffer.from(await r.arrayBuffer());
    const parts = await Promise.all(Array.from({ length: PER_FILE }, (_, i) => bytes(`/live/2M-2s/${f * PER_FILE + i}.m4s`)));
    expect(whole.equals(Buffer.concat(parts))).toBe(true);
    // The production headers follow the bytes asked for: the range inside the second segment.
    r = await get(`/live/2M-2s/br/${f}.m4s`, { headers: { range: 'bytes=600000-700000' } });
    expect(r.status).toBe(206);
    expect(Date.parse(r.headers.get('x-ethle-production-start')!)).toBe(t0 + (f * PER_FILE + 1) * 2000);
    expect(Date.parse(r.headers.get('x-ethle-production-end')!)).toBe(t0 + (f * PER_FILE + 2) * 2000);
  });
});

describe('HLS with SCTE-35 cues', () => {
  it('without its cue tags it is the plain fMP4 playlist, byte for byte', async () => {
    const [cues, plain] = await Promise.all([text('/live/2M-2s/cues.m3u8'), text('/live/2M-2s/index.m3u8')]);
    expect(
      cues
        .split('\n')
        .filter((l) => !/^#EXT-X-(CUE-OUT|CUE-OUT-CONT|CUE-IN|DATERANGE)\b/.test(l))
        .join('\n'),
    ).toBe(plain);
  });

  it('each break: DATERANGE SCTE35-OUT and CUE-OUT before its first segment, CUE-OUT-CONT inside, DATERANGE SCTE35-IN and CUE-IN before the first after it', async () => {
    for (const [name, L] of [
      ['2M-2s', 2],
      ['2M-4s', 4],
    ] as const) {
      const pl = parseMediaPlaylist(await text(`/live/${name}/cues.m3u8`));
      const lines = pl.lines;
      let outs = 0;
      let ins = 0;
      const mapLine = lines.findIndex((l) => l.startsWith('#EXT-X-MAP'));
      for (const [i, seg] of pl.segments.entries()) {
        // The lines after the previous segment's URI (after the header for the first one).
        const from = i === 0 ? mapLine + 1 : pl.segments[i - 1]!.uriLine + 1;
        const own = lines.slice(from, seg.uriLine);
        const startsBreak = (seg.msn * L) % CUE_EVERY_SECONDS === 0;
        const endsBreak = (seg.msn * L) % CUE_EVERY_SECONDS === CUE_BREAK_SECONDS;
        const inside = (seg.msn * L) % CUE_EVERY_SECONDS > 0 && (seg.msn * L) % CUE_EVERY_SECONDS < CUE_BREAK_SECONDS;
        const id = Math.floor((seg.msn * L) / CUE_EVERY_SECONDS);
        // The cue tags come first among the segment's own lines: they belong to it.
        const before = own.slice(
          0,
          own.findIndex((l) => l.startsWith('#EXT-X-BITRATE')),
        );
        if (startsBreak) {
          outs++;
          expect(before[0]).toMatch(
            new RegExp(
              `^#EXT-X-DATERANGE:ID="splice-${id}",START-DATE="${new Date(seg.programDateTimeMs!).toISOString()}",PLANNED-DURATION=20.000,SCTE35-OUT=0x[0-9A-F]+$`,
            ),
          );
          expect(before[1]).toBe('#EXT-X-CUE-OUT:20.000');
          const s = decodeSpliceInsert(Buffer.from(/SCTE35-OUT=0x([0-9A-F]+)/.exec(before[0]!)![1]!, 'hex'));
          expect(s).toMatchObject({
            crcOk: true,
            eventId: id,
            outOfNetwork: true,
            ptsTime: (seg.msn * L * 90_000) % 2 ** 33,
            duration: CUE_BREAK_SECONDS * 90_000,
            autoReturn: true,
          });
        } else if (endsBreak) {
          ins++;
          expect(before[0]).toMatch(
            new RegExp(
              `^#EXT-X-DATERANGE:ID="splice-${id}",START-DATE="${new Date(seg.programDateTimeMs! - CUE_BREAK_SECONDS * 1000).toISOString()}",DURATION=20.000,SCTE35-IN=0x[0-9A-F]+$`,
            ),
          );
          expect(before[1]).toBe('#EXT-X-CUE-IN');
          const s = decodeSpliceInsert(Buffer.from(/SCTE35-IN=0x([0-9A-F]+)/.exec(before[0]!)![1]!, 'hex'));
          expect(s).toMatchObject({
            crcOk: true,
            eventId: id,
            outOfNetwork: false,
            ptsTime: (seg.msn * L * 90_000) % 2 ** 33,
            duration: undefined,
          });
        } else if (inside) {
          expect(before).toEqual([`#EXT-X-CUE-OUT-CONT:ElapsedTime=${((seg.msn * L) % CUE_EVERY_SECONDS).toFixed(3)},Duration=20.000`]);
        } else {
          expect(before).toEqual([]);
        }
      }
      // A 120 s window holds two whole breaks.
      expect(outs, name).toBeGreaterThanOrEqual(1);
      expect(ins, name).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('HLS multivariant with a separate audio rendition', () => {
  it('variants play video-only playlists with one AUDIO group whose playlist is audio-only', async () => {
    const mv = parseMultivariantPlaylist(await text('/live/master-audio.m3u8?seconds=2'));
    expect(mv.renditions).toHaveLength(1);
    const audio = mv.renditions[0]!;
    expect(audio).toMatchObject({ type: 'AUDIO', groupId: 'aac', uri: '2M-2s/audio.m3u8' });
    expect(mv.variants.map((v) => v.uri)).toEqual(['2M-2s/video.m3u8', '15M-2s/video.m3u8']);
    for (const v of mv.variants) {
      expect(v.attributes.AUDIO).toBe('aac');
      expect(v.attributes.CODECS).toBe([...media.codecs('v'), ...media.codecs('a')].join(','));
    }
    expect((await get('/live/master-audio.m3u8?seconds=3')).status).toBe(400);
  });

  it('video.m3u8 lists the padded video segments; audio.m3u8 the audio ones with their real durations, start times and sizes', async () => {
    const video = parseMediaPlaylist(await text('/live/2M-2s/video.m3u8'));
    const audio = parseMediaPlaylist(await text('/live/2M-2s/audio.m3u8'));
    expect(audio.segments.map((s) => s.msn)).toEqual(video.segments.map((s) => s.msn));
    const scale = media.timescale('a');
    for (const s of audio.segments) {
      const g = s.msn * (2 / CHUNK_SECONDS);
      const start = media.chunkDecodeTime('a', g) / scale;
      expect(s.duration).toBeCloseTo(media.chunkDecodeTime('a', g + 1) / scale - start, 3);
      expect(Math.abs(s.programDateTimeMs! - (origin.t0Ms + start * 1000))).toBeLessThanOrEqual(0.5);
      expect(Math.abs(s.programDateTimeMs! - (origin.t0Ms + s.msn * 2000))).toBeLessThan(22); // within an AAC frame of n·L
      expect(Math.round(s.duration)).toBeLessThanOrEqual(audio.targetDuration);
    }
    const a = audio.segments.at(-1)!;
    const abody = await bytes(`/live/2M-2s/${a.uri}`);
    expect(firstTfdt(abody)).toBe(media.chunkDecodeTime('a', a.msn));
    expect(Math.abs((a.bitrateKbps! * 1000 * 2) / 8 - abody.length)).toBeLessThan(250);
    const v = video.segments.at(-1)!;
    expect(v.uri).toBe(`dash/v/${v.msn}.m4s`);
    expect((await bytes(`/live/2M-2s/${v.uri}`)).length).toBe(500_000);
    expect(video.segments.every((s) => s.duration === 2)).toBe(true);
  });
});

describe('DASH: multiple Periods', () => {
  it('periods.mpd: a Period every periodSeconds, SegmentTimeline per Period, and together the same segments as timeline.mpd', async () => {
    const info = parseMpd(await text('/live/2M-4s/periods.mpd'));
    const single = parseMpd(await text('/live/2M-4s/timeline.mpd'));
    expect(info.periods.length).toBeGreaterThan(10); // 120 s window, 8 s Periods
    for (const [i, p] of info.periods.entries()) {
      expect(p.id).toBe(`p${p.startSeconds / PERIOD}`);
      expect(p.startSeconds % PERIOD).toBe(0);
      if (i > 0) expect(p.startSeconds).toBe(info.periods[i - 1]!.startSeconds + PERIOD);
      for (const r of p.representations) expect(r.template!.presentationTimeOffset).toBe(p.startSeconds * r.template!.timescale);
    }
    const key = (s: { representationId: string; time: number; url: string; startSeconds: number }) =>
      `${s.representationId} ${s.time} ${s.url} ${s.startSeconds.toFixed(6)}`;
    const multi = availableSegments(info, fakeNow, { maxPerRepresentation: 1000 });
    const one = availableSegments(single, fakeNow, { maxPerRepresentation: 1000 });
    expect(multi.map(key).sort()).toEqual(one.map(key).sort());
    // Each segment lies inside its Period.
    for (const s of multi) {
      const p = info.periods.find((x) => x.id === s.periodId)!;
      expect(s.startSeconds).toBeGreaterThanOrEqual(p.startSeconds);
      expect(s.startSeconds).toBeLessThan(p.startSeconds + PERIOD);
    }
    // The newest segment's $Time$ URL serves media with that decode time.
    const newest = multi.filter((s) => s.representationId.startsWith('v')).at(-1)!;
    expect(firstTfdt(await bytes(`/live/2M-4s/${newest.url}`))).toBe(newest.time);
  });

  it('list.mpd: SegmentList per Period, a SegmentURL per segment from the Period start, in order', async () => {
    // Structure only: @ethle/core's parseMpd refuses dynamic SegmentList MPDs (it cannot hold them).
    const mpd = await text('/live/2M-2s/list.mpd');
    const periods = [...mpd.matchAll(/<Period id="p(\d+)" start="PT(\d+)S">([\s\S]*?)<\/Period>/g)];
    expect(periods.length).toBe(mpd.split('<Period ').length - 1);
    expect(periods.length).toBeGreaterThan(10);
    for (let i = 1; i < periods.length; i++) expect(Number(periods[i]![1])).toBe(Number(periods[i - 1]![1]) + 1);
    const newest = Math.floor((fakeNow - origin.t0Ms) / 2000) - 1;
    for (const [, p, start, body] of periods) {
      expect(Number(start)).toBe(Number(p) * PERIOD);
      const lists = [
        ...body!.matchAll(/<SegmentList timescale="(\d+)" presentationTimeOffset="(\d+)" duration="(\d+)">([\s\S]*?)<\/SegmentList>/g),
      ];
      expect(lists).toHaveLength(2);
      for (const [, scale, pto, duration, inner] of lists) {
        expect(Number(pto)).toBe(Number(start) * Number(scale));
        expect(Number(duration)).toBe(2 * Number(scale));
        const kind = inner!.includes('dash/v/') ? 'v' : 'a';
        expect(inner).toContain(`<Initialization sourceURL="dash/${kind}/init.mp4"/>`);
        const numbers = [...inner!.matchAll(/<SegmentURL media="dash\/[va]\/(\d+)\.m4s"\/>/g)].map((m) => Number(m[1]));
        const first = (Number(p) * PERIOD) / 2;
        const last = Math.min(newest, first + PERIOD / 2 - 1);
        expect(numbers).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
      }
    }
    expect(periods.at(-1)![3]).toContain(`dash/v/${newest}.m4s`);
    expect((await get(`/live/2M-2s/dash/v/${newest}.m4s`, { method: 'HEAD' })).status).toBe(200);
  });

  it('a Period only appears once one of its segments is available', async () => {
    const t0 = origin.t0Ms;
    const p = Math.floor((fakeNow - t0) / 1000 / PERIOD) + 2;
    fakeNow = t0 + p * PERIOD * 1000 + 1000; // the Period has started, its first segment is not complete
    expect(await text('/live/2M-2s/periods.mpd')).not.toContain(`id="p${p}"`);
    fakeNow = t0 + p * PERIOD * 1000 + 2000; // now it is
    const info = parseMpd(await text('/live/2M-2s/periods.mpd'));
    expect(info.periods.at(-1)!.id).toBe(`p${p}`);
    expect(info.periods.at(-1)!.representations[0]!.template!.timeline).toHaveLength(1);
  });
});

describe('DASH: Location and an absolute BaseURL', () => {
  it('name the origin as the client reached it, and the segments resolve against the BaseURL', async () => {
    const mpd = await getWithHost('/live/2M-2s/location.mpd', 'origin.example:8081');
    const info = parseMpd(mpd);
    expect(info.root.children.map((c) => c.name).slice(0, 2)).toEqual(['BaseURL', 'Location']); // MPD schema order
    expect(mpd).toContain('<Location>http://origin.example:8081/live/2M-2s/location.mpd</Location>');
    expect(info.periods[0]!.representations.every((r) => r.baseUrls[0] === 'http://origin.example:8081/live/2M-2s/')).toBe(true);
    expect(info.utcTiming[0]!.value).toBe('http://origin.example:8081/time');
    // Reached by its address, it names its address; the segments are there.
    const direct = await text('/live/2M-2s/location.mpd');
    const base = /<BaseURL>([^<]+)<\/BaseURL>/.exec(direct)![1]!;
    expect(base).toBe(`${origin.url}/live/2M-2s/`);
    const seg = availableSegments(parseMpd(direct), fakeNow)
      .filter((s) => s.representationId.startsWith('v'))
      .at(-1)!;
    expect((await fetch(new URL(seg.url, base), { method: 'HEAD' })).status).toBe(200);
    // Without the BaseURL and Location it is manifest.mpd.
    const plain = await text('/live/2M-2s/manifest.mpd');
    expect(direct.replace(/ {2}<(BaseURL|Location)>[^<]+<\/\1>\n/g, '')).toBe(plain);
  });

  it('a Host header unfit for a URL is not echoed into the MPD', async () => {
    const mpd = await getWithHost('/live/2M-2s/location.mpd', 'evil"><x y="');
    expect(mpd).toContain(`<Location>${origin.url}/live/2M-2s/location.mpd</Location>`);
    expect(() => parseMpd(mpd)).not.toThrow();
  });
});

describe('DASH: SCTE-35 EventStream', () => {
  it('cues.mpd is manifest.mpd plus one Event per break starting in the window, with the splice_insert in base64', async () => {
    const [cues, plain] = await Promise.all([text('/live/2M-2s/cues.mpd'), text('/live/2M-2s/manifest.mpd')]);
    expect(cues.replace(/ {4}<EventStream [\s\S]*?<\/EventStream>\n/, '')).toBe(plain);
    expect(cues).toContain('<EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="1">');
    const events = [
      ...cues.matchAll(
        /<Event presentationTime="(\d+)" duration="(\d+)" id="(\d+)"><Signal xmlns="http:\/\/www\.scte\.org\/schemas\/35\/2016"><Binary>([A-Za-z0-9+/=]+)<\/Binary><\/Signal><\/Event>/g,
      ),
    ];
    const info = parseMpd(cues);
    const segs = availableSegments(info, fakeNow, { maxPerRepresentation: 1000 }).filter((s) => s.representationId.startsWith('v'));
    const from = segs[0]!.startSeconds;
    const to = segs.at(-1)!.endSeconds;
    const expected: number[] = [];
    for (let t = Math.ceil(from / CUE_EVERY_SECONDS) * CUE_EVERY_SECONDS; t < to; t += CUE_EVERY_SECONDS) expected.push(t);
    expect(events.map((e) => Number(e[1]))).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(1);
    for (const [, at, duration, id, b64] of events) {
      expect(Number(duration)).toBe(CUE_BREAK_SECONDS);
      expect(Number(id)).toBe(Number(at) / CUE_EVERY_SECONDS);
      expect(decodeSpliceInsert(Buffer.from(b64!, 'base64'))).toMatchObject({
        crcOk: true,
        eventId: Number(id),
        outOfNetwork: true,
        ptsTime: (Number(at) * 90_000) % 2 ** 33,
        duration: CUE_BREAK_SECONDS * 90_000,
      });
    }
  });
});

describe('options', () => {
  it.each([
    [{ periodSeconds: 7 }, 'periodSeconds'],
    [{ periodSeconds: 30, streams: ['2M-4s'] }, 'periodSeconds'], // not a multiple of 4
    [{ segmentsPerFile: 0 }, 'segmentsPerFile'],
    [{ segmentsPerFile: 2.5 }, 'segmentsPerFile'],
  ])('%o is refused with ERR_ORIGIN_OPTION naming the option', async (o, option) => {
    await expect(startOrigin({ port: 0, ...o })).rejects.toMatchObject({ code: 'ERR_ORIGIN_OPTION', option, name: 'OriginOptionError' });
  });
});

describe('ABR ladders: every stream of one segment length', () => {
  it('master-2s.mpd: one video Representation per stream (its own segments, its size), audio once', async () => {
    fakeNow = START + 600_000;
    const info = parseMpd(await text('/live/master-2s.mpd'));
    const video = info.periods[0]!.representations.filter((r) => r.id !== 'a32k');
    expect(video.map((r) => [r.id, r.bandwidth])).toEqual([
      ['2M-2s', 2e6],
      ['15M-2s', 15e6],
    ]);
    const segs = availableSegments(info, fakeNow);
    const newest = (id: string) => segs.filter((s) => s.representationId === id).at(-1)!;
    // Relative to /live/: each rendition's segment is its stream's own, at its own size.
    expect(newest('15M-2s').url).toMatch(/^15M-2s\/dash\/v\/\d+\.m4s$/);
    const [lo, hi] = await Promise.all([bytes(`/live/${newest('2M-2s').url}`), bytes(`/live/${newest('15M-2s').url}`)]);
    expect(firstTfdt(lo)).toBe(firstTfdt(hi));
    expect(hi.length).toBeGreaterThan(5 * lo.length);
    expect(segs.filter((s) => s.representationId === 'a32k').at(-1)!.url).toMatch(/^2M-2s\/dash\/a\/\d+\.m4s$/);
    expect((await get(`/live/${newest('2M-2s').url.replace('/v/', '/a/')}`)).status).toBe(200);
  });

  it('the length in the path or in the query, never both at odds; another length has its own ladder', async () => {
    expect(await text('/live/master-2s.m3u8')).toBe(await text('/live/master.m3u8?seconds=2'));
    expect(parseMultivariantPlaylist(await text('/live/master-4s.m3u8')).variants.map((v) => v.uri)).toEqual(['2M-4s/index.m3u8']);
    expect(parseMpd(await text('/live/master.mpd?seconds=4')).periods[0]!.representations.map((r) => r.id)).toEqual(['2M-4s', 'a32k']);
    expect((await get('/live/master-2s.m3u8?seconds=4')).status).toBe(400);
    expect((await get('/live/master-10s.mpd')).status).toBe(404);
    expect((await get('/live/master-audio.mpd')).status).toBe(404);
  });
});
