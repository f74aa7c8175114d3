import { describe, expect, it } from 'vitest';
import { parseMediaPlaylist, parsePlaylist } from '@ethle/core';

// RFC 8216 §8.3-style live playlist (TS, AES-128).
const TS_LIVE = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:8
#EXT-X-MEDIA-SEQUENCE:2680

#EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=52"
#EXTINF:7.975,
https://priv.example.com/fileSequence2680.ts
#EXTINF:7.941,
https://priv.example.com/fileSequence2681.ts
#EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=53"
#EXTINF:7.975,
https://priv.example.com/fileSequence2682.ts
`;

describe('parseMediaPlaylist', () => {
  it('parses a TS live playlist: msn, durations, keys in force, header values', () => {
    const p = parseMediaPlaylist(TS_LIVE);
    expect(p.kind).toBe('media');
    expect(p.version).toBe(3);
    expect(p.targetDuration).toBe(8);
    expect(p.mediaSequence).toBe(2680);
    expect(p.endList).toBe(false);
    expect(p.segments.map((s) => s.msn)).toEqual([2680, 2681, 2682]);
    expect(p.segments.map((s) => s.duration)).toEqual([7.975, 7.941, 7.975]);
    expect(p.segments[2]?.uri).toBe('https://priv.example.com/fileSequence2682.ts');
    const keyOf = (i: number) => p.segments[i]!.keyLines.map((l) => p.lines[l]);
    expect(keyOf(1)).toEqual(['#EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=52"']);
    expect(keyOf(2)).toEqual(['#EXT-X-KEY:METHOD=AES-128,URI="https://priv.example.com/key.php?r=53"']);
    expect(p.lines.join('\n') + '\n').toBe(TS_LIVE);
  });

  it('resolves implicit byte-range offsets from the previous segment', () => {
    const p = parseMediaPlaylist(`#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:4
#EXTINF:4.0,
#EXT-X-BYTERANGE:1000@0
main.ts
#EXTINF:4.0,
#EXT-X-BYTERANGE:1500
main.ts
#EXTINF:4.0,
#EXT-X-BYTERANGE:700
main.ts
#EXTINF:4.0,
other.ts
#EXT-X-ENDLIST
`);
    expect(p.segments.map((s) => s.byteRange)).toEqual([
      { length: 1000, offset: 0 },
      { length: 1500, offset: 1000 },
      { length: 700, offset: 2500 },
      undefined,
    ]);
    expect(p.endList).toBe(true);
  });

  it('counts discontinuity sequence numbers, keeps PDT, and tracks the EXT-X-MAP in force', () => {
    const p = parseMediaPlaylist(`#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:10
#EXT-X-DISCONTINUITY-SEQUENCE:4
#EXT-X-MAP:URI="init-a.mp4"
#EXT-X-PROGRAM-DATE-TIME:2026-11-22T10:00:00.000Z
#EXTINF:2,
a10.m4s
#EXT-X-DISCONTINUITY
#EXT-X-MAP:URI="init-b.mp4"
#EXT-X-PROGRAM-DATE-TIME:2026-11-22T10:00:05.000+00:00
#EXTINF:2,
b11.m4s
#EXTINF:2,
b12.m4s
`);
    expect(p.discontinuitySequence).toBe(4);
    expect(p.segments.map((s) => s.discontinuitySequence)).toEqual([4, 5, 5]);
    expect(p.segments.map((s) => s.discontinuity)).toEqual([false, true, false]);
    expect(p.segments[1]?.programDateTimeMs).toBe(Date.UTC(2026, 10, 22, 10, 0, 5));
    expect(p.segments[2]?.programDateTime).toBeUndefined();
    expect(p.segments.map((s) => p.lines[s.mapLine!])).toEqual([
      '#EXT-X-MAP:URI="init-a.mp4"',
      '#EXT-X-MAP:URI="init-b.mp4"',
      '#EXT-X-MAP:URI="init-b.mp4"',
    ]);
  });

  it('carries EXT-X-BITRATE forward to the segments after it until the next one', () => {
    const p = parseMediaPlaylist(`#EXTM3U
#EXT-X-TARGETDURATION:2
#EXTINF:2,
a0.ts
#EXT-X-BITRATE:15000
#EXTINF:2,
a1.ts
#EXTINF:2,
a2.ts
#EXT-X-BITRATE:50000
#EXTINF:2,
a3.ts
`);
    expect(p.segments.map((s) => s.bitrateKbps)).toEqual([undefined, 15000, 15000, 50000]);
    expect(() => parseMediaPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-BITRATE:fast\n#EXTINF:2,\na.ts\n')).toThrow(/bitrate/);
  });

  it('keeps one key per KEYFORMAT and clears them on METHOD=NONE', () => {
    const p = parseMediaPlaylist(`#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k1",KEYFORMAT="com.apple.streamingkeydelivery"
#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAA",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"
#EXTINF:2,
s0.ts
#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k2",KEYFORMAT="com.apple.streamingkeydelivery"
#EXTINF:2,
s1.ts
#EXT-X-KEY:METHOD=NONE
#EXTINF:2,
s2.ts
`);
    expect(p.segments.map((s) => s.keyLines.length)).toEqual([2, 2, 0]);
    expect(p.lines[p.segments[1]!.keyLines[0]!]).toContain('skd://k2');
  });

  it('parses LL-HLS: server control, part target, parts, the in-progress segment, preload hints, rendition reports', () => {
    const p = parseMediaPlaylist(`#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=24.0
#EXT-X-PART-INF:PART-TARGET=0.33334
#EXT-X-MEDIA-SEQUENCE:266
#EXT-X-MAP:URI="init.mp4"
#EXTINF:4.00008,
fileSequence266.mp4
#EXT-X-PART:DURATION=0.33334,URI="filePart267.0.mp4",INDEPENDENT=YES
#EXT-X-PART:DURATION=0.33334,URI="filePart267.1.mp4"
#EXTINF:0.66668,
fileSequence267.mp4
#EXT-X-PART:DURATION=0.33334,URI="filePart268.0.mp4",INDEPENDENT=YES
#EXT-X-PART:DURATION=0.33334,URI="filePart268.1.mp4"
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="filePart268.2.mp4"
#EXT-X-RENDITION-REPORT:URI="../1M/waitForMSN.php",LAST-MSN=268,LAST-PART=1
#EXT-X-RENDITION-REPORT:URI="../4M/waitForMSN.php",LAST-MSN=268,LAST-PART=1
`);
    expect(p.serverControl).toEqual({ canBlockReload: true, canSkipDateRanges: false, partHoldBack: 1, canSkipUntil: 24 });
    expect(p.partTarget).toBe(0.33334);
    expect(p.segments.map((s) => s.parts.length)).toEqual([0, 2]);
    expect(p.segments[1]?.parts[0]).toMatchObject({ uri: 'filePart267.0.mp4', independent: true, duration: 0.33334 });
    expect(p.partialSegment?.msn).toBe(268);
    expect(p.partialSegment?.parts.map((x) => x.uri)).toEqual(['filePart268.0.mp4', 'filePart268.1.mp4']);
    expect(p.preloadHints).toEqual([{ type: 'PART', uri: 'filePart268.2.mp4', line: 15 }]);
    expect(p.renditionReports.map((r) => [r.uri, r.lastMsn, r.lastPart])).toEqual([
      ['../1M/waitForMSN.php', 268, 1],
      ['../4M/waitForMSN.php', 268, 1],
    ]);
  });

  it('numbers the segments of a delta update after the skipped ones', () => {
    const p = parseMediaPlaylist(`#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24
#EXT-X-MEDIA-SEQUENCE:266
#EXT-X-SKIP:SKIPPED-SEGMENTS=3
#EXTINF:4.0,
fileSequence269.mp4
`);
    expect(p.skippedSegments).toBe(3);
    expect(p.segments[0]?.msn).toBe(269);
  });

  it('accepts what real origins write: EXT-X-MAP before EXT-X-SKIP, a fractional target duration, a repeated #EXTM3U, EXTINF without comma', () => {
    const p = parseMediaPlaylist(`#EXTM3U
#EXTM3U
#EXT-X-TARGETDURATION:6.006
#EXT-X-VERSION:9
#EXT-X-MAP:URI="fileSequence1.mp4"
#EXT-X-SKIP:SKIPPED-SEGMENTS=17
#EXTINF:6.00000
fileSequence18.m4s
`);
    expect(p.targetDuration).toBe(6.006);
    expect(p.segments[0]).toMatchObject({ msn: 17, duration: 6, title: '', uri: 'fileSequence18.m4s' });
    expect(p.lines[p.segments[0]!.mapLine!]).toBe('#EXT-X-MAP:URI="fileSequence1.mp4"');
  });

  it('keeps CRLF line endings and the absence of a final newline', () => {
    const text = '#EXTM3U\r\n#EXT-X-TARGETDURATION:2\r\n#EXTINF:2,\r\na.ts';
    const p = parseMediaPlaylist(text);
    expect(p.lineEnding).toBe('\r\n');
    expect(p.trailingNewline).toBe(false);
    expect(p.segments[0]?.uri).toBe('a.ts');
  });

  it('parsePlaylist tells media from multivariant', () => {
    expect(parsePlaylist(TS_LIVE).kind).toBe('media');
    expect(parsePlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n').kind).toBe('multivariant');
  });
});
