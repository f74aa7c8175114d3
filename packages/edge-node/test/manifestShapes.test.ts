import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { loadManifest } from '@ethle/core';

// Manifest shapes other packagers produce (issue 15), through the loaders and a real edge: what the
// core now reports (URIs left absolute, unheld pass-through with a reason, time-dependent holds)
// reaches the edge.

const ORIGIN = 'http://origin.example:8081';
const opts = (path: string) => ({
  manifestUrl: ORIGIN + path,
  originBase: ORIGIN,
  edgePathPrefix: '',
  routing: 'edge' as const,
  nowMs: Date.now(),
  previousCarry: undefined,
});
const astIso = (ms: number) => new Date(ms).toISOString();

describe('loadManifest passes what the core found on to the edge', () => {
  it('HLS: URIs on another host are listed; other spellings of the origin are prefetched like its own', () => {
    const text = `#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:1
#EXTINF:2,
HTTP://ORIGIN.example:8081/live/a/s1.ts
#EXTINF:2,
https://cdn.example/live/a/s2.ts
#EXTINF:2,
s3.ts
`;
    const view = loadManifest(text, opts('/live/a/index.m3u8'));
    expect(view.leftAbsolute).toEqual(['https://cdn.example/live/a/s2.ts']);
    expect(view.segments(Date.now()).map((s) => s.path)).toEqual(['/live/a/s1.ts', '/live/a/s3.ts']);
    // Three 2 s segments, target 2 s: holding one would list less than 3 target durations.
    expect(view.hold(1, undefined, Date.now())).toMatchObject({ holdSegments: 0, holdSeconds: 0, reason: 'short-window' });
  });

  it('DASH: a live SegmentList MPD loads and is served unheld with the reason', () => {
    const text = `<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${astIso(Date.now() - 60_000)}"><Period id="p" start="PT0S"><AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="1"><SegmentList timescale="1000" duration="2000"><SegmentURL media="http://origin.example:8081/live/v/1.m4s"/></SegmentList></Representation></AdaptationSet></Period></MPD>`;
    const view = loadManifest(text, opts('/live/manifest.mpd'));
    const held = view.hold(2, 'tok', Date.now());
    expect(held).toMatchObject({ holdSegments: 0, holdSeconds: 0, reason: 'segment-list' });
    expect(held.text).toContain('<SegmentURL media="v/1.m4s?ethle_session=tok"/>');
  });

  it('DASH: an S@r=-1 hold says until when its text is right', () => {
    const ast = Date.now() - 60_000;
    const text = `<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${astIso(ast)}"><Period id="p" start="PT0S"><AdaptationSet mimeType="video/mp4"><SegmentTemplate timescale="1000" media="v/$Time$.m4s"><SegmentTimeline><S t="0" d="2000" r="-1"/></SegmentTimeline></SegmentTemplate><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>`;
    const before = Date.now();
    const held = loadManifest(text, opts('/live/manifest.mpd')).hold(2, undefined, Date.now());
    expect(held).toMatchObject({ holdSegments: 2, holdSeconds: 4 });
    // The next segment completes within one segment duration of now.
    expect(held.validUntilMs).toBeGreaterThan(before);
    expect(held.validUntilMs! - ast).toBeLessThanOrEqual(Date.now() - ast + 2000);
    expect((held.validUntilMs! - ast) % 2000).toBe(0);
  });
});

describe('through a running edge', () => {
  let origin: Server | undefined;
  let edge: RunningEdge | undefined;
  afterEach(async () => {
    await edge?.close();
    await new Promise<void>((resolve) => (origin ? origin.close(() => resolve()) : resolve()));
    origin = edge = undefined;
  });

  async function serve(files: Record<string, () => string>) {
    origin = createServer((req, res) => {
      const body = files[req.url ?? '']?.();
      if (body === undefined) return void res.writeHead(404).end();
      res
        .writeHead(200, { 'content-type': req.url!.endsWith('.mpd') ? 'application/dash+xml' : 'application/vnd.apple.mpegurl' })
        .end(body);
    });
    await new Promise<void>((resolve) => origin!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    edge = await startEdge(createEdgeConfig({ origin: url, port: 0, logLevel: 'silent', hold: 2 }));
    return url;
  }

  it('a live SegmentList MPD is served (200, declared hold 0), not refused', async () => {
    let originUrl = '';
    originUrl = await serve({
      '/live/list.mpd': () =>
        `<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${astIso(Date.now() - 60_000)}"><Location>${originUrl}/live/list.mpd</Location><Period id="p" start="PT0S"><AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="1"><SegmentList timescale="1000" duration="2000"><SegmentURL media="${originUrl}/live/v/1.m4s"/></SegmentList></Representation></AdaptationSet></Period></MPD>`,
    });
    const res = await request(`${edge!.url}/live/list.mpd`);
    const text = await res.body.text();
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ethle-hold-segments']).toBe('0');
    expect(res.headers['x-ethle-hold-seconds']).toBe('0');
    // Neither the MPD's Location nor its segments send the player back to the origin.
    expect(text).not.toContain(originUrl);
    expect(text).toMatch(/<Location>list\.mpd[^<]*<\/Location>/);
  });
});
