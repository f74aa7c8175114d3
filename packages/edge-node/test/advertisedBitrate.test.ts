import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { decideStreamHold as decideHold, loadManifest } from '@ethle/core';
import { startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

// Auto mode learns s_seg from what the manifest advertises, so the first receiver's playlist is
// held by the model's x — not a fallback — and the planner's first round has already started
// fetching the segment a player shown that x starts at (newest − x − 2 for hls.js).

const SEG = 1024 * 1024; // 1 MiB per 1 s segment ≈ 8.4 Mbit/s
const RTT_MS = 200;
const WINDOW = 12;

let origin: TestOrigin;
let edge: RunningEdge;
afterEach(async () => {
  await edge?.close();
  await origin?.close();
});

async function setup(o: { bitrateKbps?: number; variantBandwidth?: number }, segmentStart?: 'warm') {
  origin = await startTestOrigin({ segmentBytes: SEG, window: WINDOW, ...o });
  origin.produce(WINDOW);
  // Segment bodies never answer: no Content-Length can tell the edge the size. Only the manifest can.
  for (let i = 0; i < WINDOW; i++) origin.fault(`/live/a/seg${i}.ts`, { kind: 'hang' });
  // Loopback with a told backhaul RTT: the paper's model, pinned (the default learns from the
  // origin's fetches, and loopback delivers like an origin that keeps its window).
  const config = createEdgeConfig({
    origin: origin.url,
    port: 0,
    logLevel: 'silent',
    backhaulRttMs: RTT_MS,
    hold: 'auto',
    segmentStart: segmentStart ?? 'slow-start',
  });
  edge = await startEdge(config);
  const d = decideHold({
    rttMs: RTT_MS,
    segmentBytes: SEG,
    segmentSeconds: 1,
    ranMbps: config.defaultRanMbps,
    initialWindow: config.initialWindow,
    maxHold: config.maxHold,
    receiveWindowBytes: config.backhaulReceiveWindowBytes,
    ...(segmentStart ? { segmentStart } : {}),
  });
  // What the first receiver is served: 0 in the hold-0 group (eq. 1 holds), else the stream's x.
  const expected = d.eq1 ? 0 : d.hold;
  // The case is only telling when the model's x differs from the no-context fallback (1).
  if (segmentStart === undefined) expect(expected).toBeGreaterThanOrEqual(2);
  return expected;
}

async function manifest(path: string) {
  const res = await request(`${edge.url}${path}`);
  return { status: res.statusCode, x: Number(res.headers['x-ethle-hold-segments']), text: await res.body.text() };
}

describe('advertised bitrate as the first s_seg (auto hold)', () => {
  it('EXT-X-BITRATE: the first playlist is held by the model x and the start segment is already being fetched', async () => {
    const x = await setup({ bitrateKbps: Math.round((SEG * 8) / 1000) });
    const m = await manifest('/live/a/index.m3u8');
    expect(m.status).toBe(200);
    expect(m.x).toBe(x);
    const newest = WINDOW - 1;
    expect(m.text).toContain(`seg${newest - x}.ts`);
    expect(m.text).not.toContain(`seg${newest - x + 1}.ts`);
    const start = newest - x - 2;
    await until(() => origin.requests(`/live/a/seg${start}.ts`) > 0, `prefetch of the start segment seg${start}`);
  });

  it("a multivariant playlist's BANDWIDTH stands in for a media playlist that advertises nothing", async () => {
    const x = await setup({ variantBandwidth: SEG * 8 });
    const mv = await manifest('/live/master.m3u8');
    expect(mv.status).toBe(200);
    const variant = /^(.*a\/index\.m3u8.*)$/m.exec(mv.text)?.[1];
    expect(variant).toBeDefined();
    const m = await manifest(
      new URL(variant!, `${edge.url}/live/master.m3u8`).pathname + new URL(variant!, `${edge.url}/live/master.m3u8`).search,
    );
    expect(m.x).toBe(x);
    await until(() => origin.requests(`/live/a/seg${WINDOW - 1 - x - 2}.ts`) > 0, 'prefetch of the start segment');
  });

  it("segmentStart 'warm' (an origin that keeps its window across idle): the first receiver joins at the warm model's x, below the paper's", async () => {
    const kbps = Math.round((SEG * 8) / 1000);
    const slow = await setup({ bitrateKbps: kbps });
    await edge.close();
    await origin.close();
    const x = await setup({ bitrateKbps: kbps }, 'warm');
    // 1 MiB at 200 ms: one RTT + 8.4 Mbit at the window's rate, within the 1 s segment with the
    // radio's time (eq. 1): the receiver is in hold-0.
    expect(x).toBe(0);
    expect(x).toBeLessThan(slow);
    const m = await manifest('/live/a/index.m3u8');
    expect(m.status).toBe(200);
    expect(m.x).toBe(x);
    expect(m.text).toContain(`seg${WINDOW - 1}.ts`);
  });

  it('without any advertised bitrate the first playlist waits for a size, then falls back to x = 1', async () => {
    await setup({});
    const m = await manifest('/live/a/index.m3u8');
    expect(m.status).toBe(200);
    expect(m.x).toBe(1);
  });
});

describe('loadManifest: advertised bitrates', () => {
  const opts = {
    manifestUrl: 'http://o.test/live/s/manifest.mpd',
    originBase: 'http://o.test',
    edgePathPrefix: '',
    routing: 'edge' as const,
    nowMs: Date.now(),
    previousCarry: undefined,
  };
  it('DASH: per adaptation set the Representation players start on (a ladder: the lowest above 1 Mbit/s), summed', () => {
    const mpd = `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-11-22T00:00:00Z" minimumUpdatePeriod="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
  <Period id="p0" start="PT0S">
    <AdaptationSet id="1" mimeType="video/mp4">
      <SegmentTemplate timescale="1000" duration="2000" media="v_$RepresentationID$_$Number$.m4s" initialization="v_$RepresentationID$_init.mp4" startNumber="0"/>
      <Representation id="lo" bandwidth="5000000"/>
      <Representation id="hi" bandwidth="50000000"/>
    </AdaptationSet>
    <AdaptationSet id="2" mimeType="audio/mp4">
      <SegmentTemplate timescale="1000" duration="2000" media="a_$Number$.m4s" initialization="a_init.mp4" startNumber="0"/>
      <Representation id="a" bandwidth="128000"/>
    </AdaptationSet>
  </Period>
</MPD>`;
    // The edge prefetches the start choice only, not the top (core startRepresentation).
    expect(loadManifest(mpd, opts).bitrateHintBps).toBe(5_128_000);
  });

  it('HLS: the newest segment’s EXT-X-BITRATE; a multivariant lists its variants’ AVERAGE-BANDWIDTH or BANDWIDTH', () => {
    const media = '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-BITRATE:9000\n#EXTINF:2,\na.ts\n#EXT-X-BITRATE:15000\n#EXTINF:2,\nb.ts\n';
    expect(loadManifest(media, { ...opts, manifestUrl: 'http://o.test/live/s/index.m3u8' }).bitrateHintBps).toBe(15_000_000);
    const mv =
      '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=20000000,AVERAGE-BANDWIDTH=15000000\nhi/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=3000000\nlo/index.m3u8?x=1\n';
    expect(loadManifest(mv, { ...opts, manifestUrl: 'http://o.test/live/master.m3u8' }).variantBitrates).toEqual([
      { path: '/live/hi/index.m3u8', bps: 15_000_000 },
      { path: '/live/lo/index.m3u8?x=1', bps: 3_000_000 },
    ]);
  });
});

describe('origin keep-warm probe', () => {
  it('a new stream’s first manifest rides the connection the probe kept open, and the RTT is known before it', async () => {
    origin = await startTestOrigin({ window: 6 });
    origin.produce(6);
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, logLevel: 'silent', hold: 0, originProbeMs: 200 }));
    await until(() => origin.requests('/') >= 2, 'two probes');
    const m = await manifest('/live/a/index.m3u8');
    expect(m.status).toBe(200);
    // The probes themselves share one connection: it stays warm.
    expect(new Set(origin.ports('/')).size).toBe(1);
    expect(origin.ports('/')).toContain(origin.ports('/live/a/index.m3u8')[0]);
  });

  it('originProbeMs: 0 sends nothing of its own', async () => {
    origin = await startTestOrigin({ window: 6 });
    origin.produce(6);
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, logLevel: 'silent', hold: 0, originProbeMs: 0 }));
    expect((await manifest('/live/a/index.m3u8')).status).toBe(200);
    await until(() => origin.requests('/live/a/seg5.ts') === 1, 'prefetch');
    expect(origin.requests('/')).toBe(0);
  });
});
