import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopMedia, LOOP_CHUNKS, firstPts, readBoxes, startOrigin, TABLE_I_BYTES, type LiveOrigin } from '@ethle/live-origin';

/** A settable clock: the origin's notion of "now" (production schedule) without waiting. */
let fakeNow = Date.UTC(2026, 10, 22, 12, 0, 0);
let origin: LiveOrigin;

beforeAll(async () => {
  origin = await startOrigin({ port: 0, clock: () => fakeNow });
});
afterAll(() => origin.close());

const get = (path: string, init?: RequestInit) => fetch(`${origin.url}${path}`, init);

/** The newest segment number of a stream's HLS playlist now. */
const newestOf = async (name: string) => Number(/(\d+)\.m4s\s*$/.exec(await (await get(`/live/${name}/index.m3u8`)).text())![1]);

/** GET with the path sent byte for byte (fetch would normalise dot segments away). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin.url}/`, { path }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function tfdt(buf: Buffer): number[] {
  const out: number[] = [];
  for (const moof of readBoxes(buf).filter((b) => b.type === 'moof')) {
    for (const traf of readBoxes(buf, moof.payload, moof.end).filter((b) => b.type === 'traf')) {
      const t = readBoxes(buf, traf.payload, traf.end).find((b) => b.type === 'tfdt')!;
      out.push(Number(buf.readBigUInt64BE(t.payload + 4)));
    }
  }
  return out;
}

describe('segment sizes', () => {
  it.each(Object.entries(TABLE_I_BYTES))('%s: fMP4, TS and DASH video segments are within 1 %% of Table I', async (name, bytes) => {
    const pl = await (await get(`/live/${name}/index.m3u8`)).text();
    const n = Number(/(\d+)\.m4s\s*$/.exec(pl)![1]);
    for (const path of [`/live/${name}/${n}.m4s`, `/live/${name}/ts/${n}.ts`, `/live/${name}/dash/v/${n}.m4s`]) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      const body = Buffer.from(await r.arrayBuffer());
      expect(Number(r.headers.get('content-length'))).toBe(body.length);
      expect(Math.abs(body.length - bytes) / bytes, path).toBeLessThan(0.01);
    }
  });

  it('2M-2s is bitrate × length / 8', async () => {
    const pl = await (await get('/live/2M-2s/index.m3u8')).text();
    const n = Number(/(\d+)\.m4s\s*$/.exec(pl)![1]);
    const r = await get(`/live/2M-2s/${n}.m4s`, { method: 'HEAD' });
    expect(Number(r.headers.get('content-length'))).toBe(500_000);
  });
});

describe('byte ranges', () => {
  it('a single range is the same bytes as the slice of the whole segment (206, Content-Range); bad ones get the whole or 416', async () => {
    const n = await newestOf('2M-2s');
    const path = `/live/2M-2s/${n}.m4s`;
    const whole = Buffer.from(await (await get(path)).arrayBuffer());
    // Across the media/padding boundary and at both ends.
    for (const [range, start, end] of [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-299999', 1000, 299_999],
      ['bytes=250000-', 250_000, whole.length - 1],
      ['bytes=-500', whole.length - 500, whole.length - 1],
      ['bytes=499990-600000', 499_990, whole.length - 1],
    ] as const) {
      const r = await get(path, { headers: { range } });
      expect(r.status, range).toBe(206);
      expect(r.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${whole.length}`);
      const body = Buffer.from(await r.arrayBuffer());
      expect(body.equals(whole.subarray(start, end + 1)), range).toBe(true);
    }
    const beyond = await get(path, { headers: { range: `bytes=${whole.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    for (const range of ['bytes=0-1,5-9', 'items=0-1', 'bytes=9-3']) {
      const r = await get(path, { headers: { range } });
      expect(r.status, range).toBe(200);
      expect(Buffer.from(await r.arrayBuffer()).length).toBe(whole.length);
    }
  });
});

describe('availability on the wall clock', () => {
  it('a future segment is refused, an expired one is gone, and both follow the clock', async () => {
    const pl = await (await get('/live/15M-2s/index.m3u8')).text();
    const newest = Number(/(\d+)\.m4s\s*$/.exec(pl)![1]);
    const oldest = Number(/EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(pl)![1]);
    expect((await get(`/live/15M-2s/${newest + 1}.m4s`)).status).toBe(404);
    expect((await get(`/live/15M-2s/${newest}.m4s`, { method: 'HEAD' })).status).toBe(200);
    fakeNow += 2000; // one segment later the next one is produced
    expect((await get(`/live/15M-2s/${newest + 1}.m4s`, { method: 'HEAD' })).status).toBe(200);
    fakeNow += 10 * 60 * 1000; // ten minutes later the old one has left the window
    expect((await get(`/live/15M-2s/${oldest}.m4s`)).status).toBe(410);
    const later = await (await get('/live/15M-2s/index.m3u8')).text();
    expect(Number(/EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(later)![1])).toBe(oldest + 300 + 1);
  });

  it('PDT and the production headers state when each segment was produced', async () => {
    const pl = await (await get('/live/2M-2s/index.m3u8')).text();
    const m = [...pl.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)\n#EXTINF:([\d.]+),\n(\d+)\.m4s/g)];
    expect(m.length).toBeGreaterThan(10);
    const last = m[m.length - 1]!;
    const r = await get(`/live/2M-2s/${last[3]}.m4s`, { method: 'HEAD' });
    const start = Date.parse(r.headers.get('x-ethle-production-start')!);
    const end = Date.parse(r.headers.get('x-ethle-production-end')!);
    expect(Math.abs(Date.parse(last[1]!) - start)).toBeLessThanOrEqual(50);
    expect(end - start).toBe(2000);
    // The newest listed segment was completed no later than now and less than a segment ago.
    expect(end).toBeLessThanOrEqual(fakeNow);
    expect(fakeNow - end).toBeLessThan(2000);
    // Consecutive PDTs are one segment apart: production is continuous.
    for (let i = 1; i < m.length; i++) expect(Date.parse(m[i]![1]!) - Date.parse(m[i - 1]![1]!)).toBe(2000);
  });

  it('EXT-X-BITRATE on every segment states the size the segment really has', async () => {
    const pl = await (await get('/live/15M-2s/index.m3u8')).text();
    const m = [...pl.matchAll(/#EXT-X-BITRATE:(\d+)\n#EXT-X-PROGRAM-DATE-TIME:\S+\n#EXTINF:[\d.]+,\n(\d+)\.m4s/g)];
    expect(m.length).toBe(pl.split('#EXTINF').length - 1);
    const last = m[m.length - 1]!;
    const r = await get(`/live/15M-2s/${last[2]}.m4s`, { method: 'HEAD' });
    const bytes = Number(r.headers.get('content-length'));
    // kbit/s × 2 s / 8 = bytes, to the kbit/s rounding.
    expect(Math.abs((Number(last[1]) * 1000 * 2) / 8 - bytes)).toBeLessThan(250);
  });

  it('the DASH MPD puts segment n at AST + n·L, as the HLS PDT does', async () => {
    const mpd = await (await get('/live/2M-2s/manifest.mpd')).text();
    const ast = Date.parse(/availabilityStartTime="([^"]+)"/.exec(mpd)![1]!);
    expect(ast).toBe(origin.t0Ms);
    const n = await newestOf('2M-2s');
    const r = await get(`/live/2M-2s/dash/v/${n}.m4s`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(Date.parse(r.headers.get('x-ethle-production-start')!)).toBe(ast + n * 2000);
  });
});

describe('continuous timestamps across the loop boundary', () => {
  const media = new LoopMedia();
  it('every track of the committed loop is exactly 40 s', () => {
    expect(media.loopDuration('av', 1) / media.timescale('av', 1)).toBe(40);
    expect(media.loopDuration('av', 2) / media.timescale('av', 2)).toBe(40);
    expect(media.loopDuration('a') / media.timescale('a')).toBe(40);
  });

  it('fMP4: tfdt and fragment sequence numbers continue from loop k to loop k+1', async () => {
    // Serve the chunks around a loop boundary through the origin (segments 19 and 20 of a 2 s stream).
    const at = (n: number) => get(`/live/2M-2s/${n}.m4s`).then(async (r) => Buffer.from(await r.arrayBuffer()));
    const newest = await newestOf('2M-2s');
    const boundary = newest - (newest % LOOP_CHUNKS); // first segment of the newest loop
    const loops = boundary / LOOP_CHUNKS;
    expect(loops).toBeGreaterThan(0);
    const a = await at(boundary - 1);
    const b = await at(boundary);
    const [va, aa] = tfdt(a);
    const [vb, ab] = tfdt(b);
    expect(vb! - va!).toBe(2 * media.timescale('av', 1)); // exactly one 2 s chunk of video later
    expect(ab).toBe(loops * media.loopDuration('av', 2)); // audio starts the loop exactly where the last one ended
    expect(aa).toBe((loops - 1) * media.loopDuration('av', 2) + media.chunkDecodeTime('av', LOOP_CHUNKS - 1, 2));
    // Fragment sequence numbers count on across the boundary.
    const seq = (buf: Buffer) => {
      const moof = readBoxes(buf).find((x) => x.type === 'moof')!;
      const mfhd = readBoxes(buf, moof.payload, moof.end).find((x) => x.type === 'mfhd')!;
      return buf.readUInt32BE(mfhd.payload + 4);
    };
    expect(seq(b) - seq(a)).toBe(1);
  });

  it('TS: PTS continue across the loop, continuity counters never jump', () => {
    const last = media.tsSegment(LOOP_CHUNKS - 1, 1);
    const next = media.tsSegment(LOOP_CHUNKS, 1);
    expect(firstPts(next)! - firstPts(last)!).toBe(2n * 90_000n);
    const both = Buffer.concat([last, next]);
    const cc = new Map<number, number>();
    for (let p = 0; p < both.length; p += 188) {
      const pid = ((both[p + 1]! & 0x1f) << 8) | both[p + 2]!;
      if (!((both[p + 3]! >> 4) & 1)) continue;
      const c = both[p + 3]! & 0x0f;
      if (cc.has(pid)) expect(c, `PID ${pid} at ${p}`).toBe((cc.get(pid)! + 1) & 0x0f);
      cc.set(pid, c);
    }
  });
});

describe('delivery pause', () => {
  it('holds segment responses for the pause, while production and manifests go on', async () => {
    const real = await startOrigin({ port: 0, streams: ['2M-2s'] });
    try {
      const pl = await (await fetch(`${real.url}/live/2M-2s/index.m3u8`)).text();
      const n = Number(/(\d+)\.m4s\s*$/.exec(pl)![1]);
      real.pause('2M-2s');
      const t0 = performance.now();
      const pending = fetch(`${real.url}/live/2M-2s/${n}.m4s`).then(async (r) => {
        await r.arrayBuffer();
        return performance.now();
      });
      // Manifests are not paused.
      expect((await fetch(`${real.url}/live/2M-2s/index.m3u8`)).status).toBe(200);
      const resumeAt = new Promise<number>((resolve) =>
        setTimeout(() => {
          real.resume('2M-2s');
          resolve(performance.now());
        }, 1500),
      );
      const done = await pending;
      const resumed = await resumeAt;
      expect(done).toBeGreaterThanOrEqual(resumed);
      expect(done - t0).toBeGreaterThan(1450);
      expect(done - resumed).toBeLessThan(500);
      // Admin endpoint does the same over HTTP.
      expect((await fetch(`${real.url}/admin/2M-2s/pause`, { method: 'POST' })).status).toBe(200);
      expect(await (await fetch(`${real.url}/admin/2M-2s/resume`, { method: 'POST' })).json()).toEqual({ stream: '2M-2s', paused: false });
    } finally {
      await real.close();
    }
  });
});

describe('bad requests and stats', () => {
  it.each([
    ['/live/99M-3s/index.m3u8', 404],
    ['/live/2M-2s/../../etc/passwd', 400],
    ['/live/2M-2s/%2e%2e/x', 400],
    ['/live/2M-2s/99999999999.m4s', 400],
    ['/live/2M-2s/dash/v/t123.m4s', 404],
    [`/live/2M-2s/index.m3u8?${'x'.repeat(5000)}`, 414],
    ['/live/master.m3u8?seconds=3', 400],
    ['/nope', 404],
  ])('%s → %i with a short message', async (path, status) => {
    const r = await rawGet(path);
    expect(r.status).toBe(status);
    expect(r.body.length).toBeLessThan(200);
  });

  it('rejects other methods', async () => {
    expect((await get('/live/2M-2s/index.m3u8', { method: 'DELETE' })).status).toBe(405);
    expect((await get('/admin/2M-2s/pause')).status).toBe(405);
  });

  it('/stats counts requests per path and bytes, and ?reset=1 zeroes it', async () => {
    await get('/stats?reset=1');
    const pl = await (await get('/live/2M-2s/index.m3u8')).text();
    const n = Number(/(\d+)\.m4s\s*$/.exec(pl)![1]);
    await (await get(`/live/2M-2s/${n}.m4s`)).arrayBuffer();
    await (await get(`/live/2M-2s/${n}.m4s`)).arrayBuffer();
    // One more fetch as two ranges: two requests, one fetch (the range from byte 0).
    await (await get(`/live/2M-2s/${n}.m4s`, { headers: { range: 'bytes=0-99' } })).arrayBuffer();
    await (await get(`/live/2M-2s/${n}.m4s`, { headers: { range: 'bytes=100-' } })).arrayBuffer();
    const s = await (await get('/stats')).json();
    expect(s.requests['/live/2M-2s/index.m3u8']).toBe(1);
    expect(s.requests[`/live/2M-2s/${n}.m4s`]).toBe(4);
    expect(s.fetches[`/live/2M-2s/${n}.m4s`]).toBe(3);
    expect(s.bytesSent).toBeGreaterThanOrEqual(1_000_000);
    expect(s.openConnections).toBeGreaterThanOrEqual(1);
  });

  it('the multivariant playlist lists the streams of one segment length', async () => {
    const m = await (await get('/live/master.m3u8?seconds=2')).text();
    expect(m.match(/#EXT-X-STREAM-INF/g)).toHaveLength(3);
    expect(m).toContain('15M-2s/index.m3u8');
    expect(m).toContain('CODECS="avc1.4d401e,mp4a.40.2"');
  });
});

describe('keep-alive', () => {
  it("keeps an idle connection for nginx's 75 s by default; keepAliveSeconds sets it, and the server closes an idle connection then, not before", async () => {
    const { connect } = await import('node:net');
    const dflt = await startOrigin({ port: 0, streams: ['2M-2s'] });
    expect(dflt.keepAliveSeconds).toBe(75);
    await dflt.close();
    const short = await startOrigin({ port: 0, streams: ['2M-2s'], keepAliveSeconds: 0.6 });
    try {
      const sock = connect(short.port, '127.0.0.1');
      let answered = 0;
      sock.on('data', () => (answered = performance.now()));
      const closed = new Promise<number>((resolve) => sock.once('close', () => resolve(performance.now())));
      sock.write(`GET /live/2M-2s/index.m3u8 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      const at = await closed;
      expect(answered).toBeGreaterThan(0);
      // Idle from the response on: closed by the server at the keep-alive (its timer's granularity aside).
      expect(at - answered).toBeGreaterThan(500);
      expect(at - answered).toBeLessThan(5000);
    } finally {
      await short.close();
    }
    await expect(startOrigin({ port: 0, keepAliveSeconds: 0 })).rejects.toThrow(/keepAliveSeconds/);
  });
});
