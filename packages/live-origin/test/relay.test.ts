import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrigin, startRelayOrigin, TABLE_I_BYTES, type LiveOrigin, type RelayOrigin } from '@ethle/live-origin';

// The source: the live origin itself (a real HTTP server producing segments on the wall clock).
let source: LiveOrigin;
let relay: RelayOrigin;
let bridged: RelayOrigin;
let bridge: Server;
let dir: string;

beforeAll(async () => {
  source = await startOrigin({ port: 0, streams: ['15M-2s'] });
  relay = await startRelayOrigin({ upstream: `${source.url}/live/15M-2s/index.m3u8`, port: 0 });
  // What the experiments do across namespaces: the relay reaches its source over a Unix socket
  // that a process with a route to it pipes to the source's TCP port.
  dir = mkdtempSync(join(tmpdir(), 'ethle-relay-'));
  const sock = join(dir, 'source.sock');
  bridge = createServer((c) => {
    const u = connect(source.port, '127.0.0.1');
    c.pipe(u).pipe(c);
    const end = () => (c.destroy(), u.destroy());
    c.on('error', end).on('close', end);
    u.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => bridge.listen(sock, r));
  bridged = await startRelayOrigin({ upstream: `http://source.invalid:9`, upstreamSocket: sock, port: 0 });
});
afterAll(async () => {
  await relay.close();
  await bridged.close();
  await new Promise((r) => bridge.close(r));
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

const newest = (playlist: string) => Number(/(\d+)\.m4s\s*$/.exec(playlist)![1]);

describe('relaying origin: the user’s source behind a production-like origin', () => {
  it('serves the source request for request, keeps connections 75 s, and records sizes and durations', async () => {
    const res = await fetch(`${relay.url}/live/15M-2s/index.m3u8`);
    expect(res.status).toBe(200);
    expect(res.headers.get('keep-alive')).toBe('timeout=75');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const text = await res.text();
    expect(text).toMatch(/^#EXTM3U/);
    const n = newest(text);
    const seg = await fetch(`${relay.url}/live/15M-2s/${n}.m4s`);
    expect(seg.status).toBe(200);
    const body = Buffer.from(await seg.arrayBuffer());
    const direct = Buffer.from(await (await fetch(`${source.url}/live/15M-2s/${n}.m4s`)).arrayBuffer());
    expect(body.equals(direct)).toBe(true);
    expect(body.length).toBe(TABLE_I_BYTES['15M-2s']);
    await fetch(`${relay.url}/live/15M-2s/init.mp4`).then((r) => r.arrayBuffer());
    const s = relay.stats();
    expect(s.source.segments).toEqual([
      { path: `/live/15M-2s/${n}.m4s`, bytes: body.length, durationSeconds: 2, track: '/live/15M-2s/index.m3u8', fetches: 1 },
    ]);
    expect(s.source.other.map((o) => o.path)).toEqual(['/live/15M-2s/init.mp4']);
    expect(s.source.manifests).toBe(1);
    expect(s.fetches[`/live/15M-2s/${n}.m4s`]).toBe(1);
    expect(s.bytesSent).toBeGreaterThan(body.length);
  });

  it('passes byte ranges on (206), recording the whole size; only a range from byte 0 is a fetch', async () => {
    const n = newest(await (await fetch(`${relay.url}/live/15M-2s/index.m3u8`)).text()) - 1;
    const path = `/live/15M-2s/${n}.m4s`;
    // The first test may have fetched it (if a segment was produced in between).
    const before = relay.stats().source.segments.find((x) => x.path === path)?.fetches ?? 0;
    const tail = await fetch(`${relay.url}${path}`, { headers: { range: 'bytes=100-199' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes 100-199/${TABLE_I_BYTES['15M-2s']}`);
    expect((await tail.arrayBuffer()).byteLength).toBe(100);
    await (await fetch(`${relay.url}${path}`, { headers: { range: 'bytes=0-99' } })).arrayBuffer();
    const o = relay.stats().source.segments.find((x) => x.path === path)!;
    expect(o).toMatchObject({ bytes: TABLE_I_BYTES['15M-2s'], durationSeconds: 2, fetches: before + 1 });
  });

  it('DASH: durations from the MPD, per representation', async () => {
    const mpd = await (await fetch(`${relay.url}/live/15M-2s/manifest.mpd`)).text();
    expect(mpd).toContain('<MPD');
    const n = newest(await (await fetch(`${relay.url}/live/15M-2s/index.m3u8`)).text()) - 2;
    await (await fetch(`${relay.url}/live/15M-2s/dash/v/${n}.m4s`)).arrayBuffer();
    const o = relay.stats().source.segments.find((x) => x.path === `/live/15M-2s/dash/v/${n}.m4s`);
    expect(o).toMatchObject({ durationSeconds: 2, track: expect.stringMatching(/v15M$/) });
  });

  it('reaches its source over a Unix socket, the Host header naming the source', async () => {
    const text = await (await fetch(`${bridged.url}/live/15M-2s/index.m3u8`)).text();
    // The live origin writes absolute URLs in MPDs from the Host header: the source's name arrived.
    const mpd = await (await fetch(`${bridged.url}/live/15M-2s/location.mpd`)).text();
    expect(text).toMatch(/^#EXTM3U/);
    expect(mpd).toContain('http://source.invalid:9/live/15M-2s/');
  });

  it('a source that fails is a 502 with the reason; a bad upstream is refused with a code', async () => {
    const dead = await startRelayOrigin({ upstream: 'http://127.0.0.1:9', port: 0, upstreamTimeoutMs: 2000 });
    try {
      const r = await fetch(`${dead.url}/live/x/index.m3u8`);
      expect(r.status).toBe(502);
      expect(await r.text()).toMatch(/^the source failed: /);
    } finally {
      await dead.close();
    }
    await expect(startRelayOrigin({ upstream: 'https://example.org/x.m3u8', port: 0 })).rejects.toMatchObject({
      code: 'ERR_ORIGIN_OPTION',
      option: 'upstream',
    });
    await expect(startRelayOrigin({ upstream: 'not a url', port: 0 })).rejects.toMatchObject({ code: 'ERR_ORIGIN_OPTION' });
  });

  it('a manifest larger than the bound is refused, not relayed in part', async () => {
    const small = await startRelayOrigin({ upstream: source.url, port: 0, maxManifestBytes: 1024 });
    try {
      const r = await fetch(`${small.url}/live/15M-2s/manifest.mpd`);
      expect(r.status).toBe(502);
      expect(await r.text()).toMatch(/larger than 1024 bytes/);
    } finally {
      await small.close();
    }
  });
});
