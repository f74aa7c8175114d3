import { describe, expect, it, vi } from 'vitest';

// Parse once, hold many: a stream's loader reads each origin version's text once; validating it
// and every hold (any x, any token, parts) work on that one scan. Counted on the origin text only
// (a rewritten MPD is parsed once more as a check on the rewrite itself).
const scans = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock('../../src/hls/scanMediaPlaylist.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../src/hls/scanMediaPlaylist.js')>();
  return { ...m, scanMediaPlaylist: (t: string) => (scans.texts.push(t), m.scanMediaPlaylist(t)) };
});
vi.mock('../../src/dash/parseMpd.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../src/dash/parseMpd.js')>();
  return { ...m, parseMpd: (t: string) => (scans.texts.push(t), m.parseMpd(t)) };
});
const { createEdgeRouter, holdMediaPlaylist, holdMpd, loadManifest } = await import('../../src/index.js');

const load = (text: string, manifestUrl: string) =>
  loadManifest(text, {
    manifestUrl,
    originBase: 'http://origin.test',
    routing: 'edge',
    edgePathPrefix: '/o',
    nowMs: 1_000_000,
    previousCarry: undefined,
  });
const scansOf = (text: string) => scans.texts.filter((t) => t === text).length;

const HLS = `#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:2\n#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5\n#EXT-X-PART-INF:PART-TARGET=0.5\n#EXT-X-MEDIA-SEQUENCE:10\n${[
  10, 11, 12, 13, 14, 15,
]
  .map((n) => `${[0, 1, 2, 3].map((j) => `#EXT-X-PART:DURATION=0.5,URI="${n}.${j}.m4s"\n`).join('')}#EXTINF:2.0,\n${n}.m4s\n`)
  .join('')}`;
const MPD = `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="1970-01-01T00:00:00Z" minimumUpdatePeriod="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011"><Period id="p0" start="PT0S"><AdaptationSet mimeType="video/mp4"><SegmentTemplate timescale="1" duration="2" startNumber="1" media="$Number$.m4s" initialization="init.mp4"/><Representation id="v" bandwidth="1000000"/></AdaptationSet></Period></MPD>`;

describe('a loaded version is read once and held many times', () => {
  it('HLS: one scan for the view, its validation, every x, tokens and parts', () => {
    const view = load(HLS, 'http://origin.test/live/index.m3u8');
    const texts = [0, 1, 2, 3].map((x) => view.hold(x, undefined, 0).text);
    view.hold(2, 'token-a', 0);
    view.holdParts!(2, undefined, 0);
    view.holdParts!(3, 'token-b', 0);
    expect(scansOf(HLS)).toBe(1);
    // The same texts as the standalone rewriter gives (which scans each time).
    const route = createEdgeRouter({ manifestUrl: 'http://origin.test/live/index.m3u8', edgePathPrefix: '/o' });
    expect(texts[2]).toBe(holdMediaPlaylist(HLS, { hold: 2, route }).text);
    expect(texts[0]).toBe(holdMediaPlaylist(HLS, { hold: 0, route }).text);
  });

  it('DASH: one parse of the origin MPD for the view, its validation, the chunk probe and every x', () => {
    const view = load(MPD, 'http://origin.test/live/manifest.mpd');
    const now = Date.parse('1970-01-01T00:10:00Z');
    const texts = [0, 1, 2].map((x) => view.hold(x, undefined, now).text);
    view.hold(1, 'token-a', now);
    expect(scansOf(MPD)).toBe(1);
    expect(texts[1]).toBe(
      holdMpd(MPD, {
        hold: 1,
        manifestUrl: 'http://origin.test/live/manifest.mpd',
        nowMs: now,
        route: createEdgeRouter({ manifestUrl: 'http://origin.test/live/manifest.mpd', edgePathPrefix: '/o' }),
      }).text,
    );
  });
});
