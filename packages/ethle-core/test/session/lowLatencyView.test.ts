import { describe, expect, it } from 'vitest';
import { holdMpd, loadManifest, parseMpd } from '@ethle/core';

// The views an edge holds low-latency manifests in parts with (issue 20).
const LL = `#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0,CAN-SKIP-UNTIL=24.0
#EXT-X-PART-INF:PART-TARGET=1.0
#EXT-X-MEDIA-SEQUENCE:266
#EXT-X-MAP:URI="init.mp4"
#EXTINF:4.0,
s266.mp4
#EXTINF:4.0,
s267.mp4
#EXTINF:4.0,
s268.mp4
#EXT-X-PART:DURATION=1.0,URI="p269.0.mp4",INDEPENDENT=YES
#EXT-X-PART:DURATION=1.0,URI="p269.1.mp4"
#EXT-X-PART:DURATION=1.0,URI="p269.2.mp4"
#EXT-X-PART:DURATION=1.0,URI="p269.3.mp4"
#EXTINF:4.0,
s269.mp4
#EXT-X-PART:DURATION=1.0,URI="p270.0.mp4",INDEPENDENT=YES
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p270.1.mp4"
`;
const opts = {
  manifestUrl: 'http://o.test/live/a/ll/index.m3u8',
  originBase: 'http://o.test',
  routing: 'edge' as const,
  edgePathPrefix: '',
  nowMs: 0,
  previousCarry: undefined,
};

describe('loadManifest — low-latency views', () => {
  it('LL-HLS: the next part to block on, the hinted part first among the prefetch paths, a held view with its position', () => {
    const v = loadManifest(LL, opts);
    expect(v.lowLatency).toEqual({
      partSeconds: 1,
      nextPart: { msn: 270, part: 1 },
      partPaths: [
        '/live/a/ll/p270.1.mp4',
        '/live/a/ll/p270.0.mp4',
        '/live/a/ll/p269.3.mp4',
        '/live/a/ll/p269.2.mp4',
        '/live/a/ll/p269.1.mp4',
        '/live/a/ll/p269.0.mp4',
      ],
    });
    const h = v.holdParts!(2, undefined, 0);
    expect(h.holdParts).toBe(2);
    expect(h.holdSeconds).toBe(2);
    // p270.0 and p269.3 held: 269 is in progress again, its parts 0–2 listed.
    expect(h.position).toEqual({
      lastMsn: 268,
      lastPart: { msn: 269, part: 2 },
      partsPerSegment: 4,
      partTarget: 1,
      targetDuration: 4,
      ended: false,
    });
    expect(h.text).toContain('#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p269.3.mp4"');
    expect(h.text).not.toContain('p270.0.mp4');
  });

  it('LL-HLS after the last part of a segment: the next part is part 0 of the next segment', () => {
    const text = LL.replace('#EXT-X-PART:DURATION=1.0,URI="p270.0.mp4",INDEPENDENT=YES\n', '').replace('p270.1.mp4', 'p270.0.mp4');
    expect(loadManifest(text, opts).lowLatency?.nextPart).toEqual({ msn: 270, part: 0 });
  });

  it('no blocking at the origin: no next part to block on; no parts, or ended: no low-latency view', () => {
    expect(loadManifest(LL.replace('CAN-BLOCK-RELOAD=YES,', ''), opts).lowLatency?.nextPart).toBeUndefined();
    expect(loadManifest(`${LL}#EXT-X-ENDLIST\n`, opts).lowLatency).toBeUndefined();
    const plain = '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:1\n#EXTINF:4.0,\na.ts\n#EXTINF:4.0,\nb.ts\n';
    const v = loadManifest(plain, opts);
    expect(v.lowLatency).toBeUndefined();
    expect(v.holdParts).toBeUndefined();
  });

  it("LL-HLS held in whole segments: the hold declares the player's fallback from PART-HOLD-BACK to HOLD-BACK as well", () => {
    // x = 1: s269 (4 s) and the in-progress p270.0 (1 s) leave; LL-HLS goes, so a player starts
    // HOLD-BACK (3 × 4 s, not given) behind the end instead of PART-HOLD-BACK (3 s).
    const h = loadManifest(LL, opts).hold(1, undefined, 0);
    expect(h.text).not.toContain('PART-HOLD-BACK');
    expect(h.lowLatencyLostSeconds).toBe(9);
    expect(h.holdSeconds).toBe(4 + 1 + 9);
    // HOLD-BACK given: that is where the player starts.
    const given = LL.replace('PART-HOLD-BACK=3.0', 'HOLD-BACK=14,PART-HOLD-BACK=3.0');
    expect(loadManifest(given, opts).hold(1, undefined, 0)).toMatchObject({ holdSeconds: 4 + 1 + 11, lowLatencyLostSeconds: 11 });
    // PART-HOLD-BACK missing: the spec's 3 × PART-TARGET.
    const noPhb = LL.replace(',PART-HOLD-BACK=3.0', '');
    expect(loadManifest(noPhb, opts).hold(1, undefined, 0)).toMatchObject({ holdSeconds: 4 + 1 + 9, lowLatencyLostSeconds: 9 });
    // Unheld, LL-HLS stays: nothing lost. A playlist without parts loses nothing when held.
    const unheld = loadManifest(LL, opts).hold(0, undefined, 0);
    expect(unheld).toMatchObject({ holdSeconds: 0 });
    expect(unheld.lowLatencyLostSeconds).toBeUndefined();
    const plain = LL.split('\n')
      .filter((l) => !/PART|PRELOAD|SERVER-CONTROL/.test(l))
      .join('\n');
    const p = loadManifest(plain, opts).hold(1, undefined, 0);
    expect(p).toMatchObject({ holdSegments: 1, holdSeconds: 4 });
    expect(p.lowLatencyLostSeconds).toBeUndefined();
  });
});

const AST = '2026-01-01T00:00:00Z';
const llMpd = (ato: string) => `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${AST}" minimumUpdatePeriod="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
  <Period id="0" start="PT0S">
    <AdaptationSet contentType="video" mimeType="video/mp4">
      <SegmentTemplate timescale="1000" duration="2000" startNumber="0"${ato} availabilityTimeComplete="false" initialization="v/init.mp4" media="v/$Number$.m4s"/>
      <Representation id="v" bandwidth="2000000"/>
    </AdaptationSet>
  </Period>
</MPD>
`;

describe('holdMpd — holding chunks of low-latency DASH', () => {
  it('N chunks move AST by N × (duration − availabilityTimeOffset), nothing else changes', () => {
    const text = llMpd(' availabilityTimeOffset="1.5"');
    const r = holdMpd(text, { hold: 0, holdChunks: 3 });
    expect(r).toMatchObject({ appliedHold: 0, appliedChunks: 3, chunkSeconds: 0.5, offsetSeconds: 1.5, mode: 'ast-shift' });
    expect(parseMpd(r.text).availabilityStartTimeMs - Date.parse(AST)).toBe(1500);
    expect(r.text.replace(/availabilityStartTime="[^"]+"/, '')).toBe(text.replace(/availabilityStartTime="[^"]+"/, ''));
    const v = loadManifest(text, { ...opts, manifestUrl: 'http://o.test/live/a/ll.mpd', nowMs: Date.parse(AST) + 60_000 });
    expect(v.lowLatency?.partSeconds).toBe(0.5);
    expect(v.holdParts!(2, undefined, Date.parse(AST) + 60_000)).toMatchObject({ holdParts: 2, holdSeconds: 1, holdSegments: 0 });
  });

  it('templates that are not chunked hold nothing (no-chunks); INF offsets parse; holdChunks needs hold 0', () => {
    expect(holdMpd(llMpd(''), { hold: 0, holdChunks: 2 })).toMatchObject({ appliedChunks: 0, offsetSeconds: 0, reason: 'no-chunks' });
    expect(holdMpd(llMpd(' availabilityTimeOffset="INF"'), { hold: 0, holdChunks: 2 })).toMatchObject({ reason: 'no-chunks' });
    expect(loadManifest(llMpd(''), { ...opts, nowMs: Date.parse(AST) }).holdParts).toBeUndefined();
    expect(() => holdMpd(llMpd(' availabilityTimeOffset="1.5"'), { hold: 1, holdChunks: 2 })).toThrow(/holdChunks/);
    expect(() => holdMpd(llMpd(' availabilityTimeOffset="1.5"'), { hold: 0, holdChunks: 1.5 })).toThrow(/holdChunks/);
  });
});
