import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deltaMediaPlaylist, holdMediaPlaylist, parseMediaPlaylist } from '@ethle/core';
import { msnCount, renderWindow, streamModel } from './playlistModel.js';

// 10 segments of 2 s, CAN-SKIP-UNTIL = 6 × target duration = 12 s.
function full(opts: { dateRange?: boolean; skipDateRanges?: boolean } = {}): string {
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:9',
    '#EXT-X-TARGETDURATION:2',
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12.0${opts.skipDateRanges ? ',CAN-SKIP-DATERANGES=YES' : ''},PART-HOLD-BACK=1.5`,
    '#EXT-X-PART-INF:PART-TARGET=0.5',
    '#EXT-X-MEDIA-SEQUENCE:50',
    '#EXT-X-KEY:METHOD=AES-128,URI="k.bin"',
    '#EXT-X-MAP:URI="init.mp4"',
    '#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z',
  ];
  for (let m = 50; m < 60; m++) {
    if (m === 52 && opts.dateRange) lines.push('#EXT-X-DATERANGE:ID="ad1",START-DATE="2026-01-01T00:00:04.000Z",DURATION=2.0');
    if (m === 51) lines.push('#EXT-X-CUE-OUT:DURATION=2');
    lines.push('#EXTINF:2.0,', `s${m}.mp4`);
  }
  lines.push('#EXT-X-PART:DURATION=0.5,URI="p60.0.mp4"', '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p60.1.mp4"');
  return `${lines.join('\n')}\n`;
}

describe('deltaMediaPlaylist (_HLS_skip)', () => {
  it('replaces the segments ≥ CAN-SKIP-UNTIL before the end with EXT-X-SKIP, writing the key and map in force again', () => {
    const r = deltaMediaPlaylist(full(), { skip: 'YES' });
    expect(r.skippedSegments).toBe(4);
    expect(r.text).toBe(`#EXTM3U
#EXT-X-VERSION:9
#EXT-X-TARGETDURATION:2
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12.0,PART-HOLD-BACK=1.5
#EXT-X-PART-INF:PART-TARGET=0.5
#EXT-X-MEDIA-SEQUENCE:50
#EXT-X-SKIP:SKIPPED-SEGMENTS=4
#EXT-X-KEY:METHOD=AES-128,URI="k.bin"
#EXT-X-MAP:URI="init.mp4"
${[54, 55, 56, 57, 58, 59].map((m) => `#EXTINF:2.0,\ns${m}.mp4\n`).join('')}#EXT-X-PART:DURATION=0.5,URI="p60.0.mp4"
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p60.1.mp4"
`);
    const p = parseMediaPlaylist(r.text);
    expect(p.skippedSegments).toBe(4);
    expect(p.segments[0]!.msn).toBe(54);
  });

  it('keeps skipped date ranges for YES, drops them for v2 when CAN-SKIP-DATERANGES=YES', () => {
    expect(deltaMediaPlaylist(full({ dateRange: true }), { skip: 'YES' }).text).toContain('#EXT-X-DATERANGE:ID="ad1"');
    expect(deltaMediaPlaylist(full({ dateRange: true }), { skip: 'v2' }).text).toContain('#EXT-X-DATERANGE:ID="ad1"');
    expect(deltaMediaPlaylist(full({ dateRange: true, skipDateRanges: true }), { skip: 'v2' }).text).not.toContain('#EXT-X-DATERANGE');
    expect(deltaMediaPlaylist(full({ dateRange: true }), { skip: 'YES' }).text).not.toContain('#EXT-X-CUE-OUT');
  });

  it('serves the full playlist without CAN-SKIP-UNTIL, when ended, or when nothing is old enough', () => {
    const noSkip = full().replace('CAN-SKIP-UNTIL=12.0,', '');
    expect(deltaMediaPlaylist(noSkip, { skip: 'YES' })).toEqual({ text: noSkip, skippedSegments: 0 });
    const ended = `${full().replace(/#EXT-X-PART:.*\n#EXT-X-PRELOAD-HINT:.*\n/, '')}#EXT-X-ENDLIST\n`;
    expect(deltaMediaPlaylist(ended, { skip: 'YES' }).skippedSegments).toBe(0);
    const long = full().replace('CAN-SKIP-UNTIL=12.0', 'CAN-SKIP-UNTIL=40.0');
    expect(deltaMediaPlaylist(long, { skip: 'YES' }).skippedSegments).toBe(0);
    expect(() => deltaMediaPlaylist(full(), { skip: 'yes' as 'YES' })).toThrow(
      expect.objectContaining({ code: 'ERR_HLS_INVALID_OPTIONS' }),
    );
  });

  it('works on a part-held playlist (what the edge serves): parts, hint and reports stay', () => {
    const held = holdMediaPlaylist(full(), { holdParts: 1 });
    const d = deltaMediaPlaylist(held.text, { skip: 'YES' });
    expect(d.skippedSegments).toBe(4);
    const p = parseMediaPlaylist(d.text);
    expect(p.preloadHints.map((h) => h.uri)).toEqual(['p60.0.mp4']);
    expect(p.segments.at(-1)!.msn).toBe(59);
  });

  it('property: the delta lists the same newest segments with the same key and map lines as the full playlist', () => {
    fc.assert(
      fc.property(
        streamModel.filter((m) => !m.endList && !m.byteRanges),
        (m) => {
          const last = m.base + msnCount(m) - 1;
          const until = 6 * m.td;
          const text = renderWindow(m, m.base, last)
            .text.replace(
              /#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,/,
              `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=${until},`,
            )
            .replace(
              /#EXT-X-TARGETDURATION:(\d+)(\r?\n)(?!#EXT-X-SERVER-CONTROL)/,
              `#EXT-X-TARGETDURATION:$1$2#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=${until}$2`,
            );
          const f = parseMediaPlaylist(text);
          const d = deltaMediaPlaylist(text, { skip: 'YES' });
          const p = parseMediaPlaylist(d.text);
          expect(p.skippedSegments).toBe(d.skippedSegments);
          expect(p.mediaSequence).toBe(f.mediaSequence);
          const kept = f.segments.slice(d.skippedSegments);
          // What is skipped ends at least CAN-SKIP-UNTIL before the end; what is kept does not.
          const tail = (from: number) => f.segments.slice(from).reduce((s, g) => s + g.duration, 0);
          if (d.skippedSegments > 0) expect(tail(d.skippedSegments)).toBeGreaterThanOrEqual(until - 1e-9);
          if (d.skippedSegments < f.segments.length - 1) expect(tail(d.skippedSegments + 1)).toBeLessThan(until);
          expect(p.segments.map((s) => [s.msn, s.uri, s.duration])).toEqual(kept.map((s) => [s.msn, s.uri, s.duration]));
          p.segments.forEach((s, i) => {
            const g = kept[i]!;
            expect(s.keyLines.map((k) => p.lines[k])).toEqual(g.keyLines.map((k) => f.lines[k]));
            expect(s.mapLine === undefined ? undefined : p.lines[s.mapLine]).toBe(g.mapLine === undefined ? undefined : f.lines[g.mapLine]);
            expect(s.parts.map((q) => q.uri)).toEqual(g.parts.map((q) => q.uri));
          });
          expect(p.partialSegment?.parts.map((q) => q.uri)).toEqual(f.partialSegment?.parts.map((q) => q.uri));
          expect(p.renditionReports.map((q) => p.lines[q.line])).toEqual(f.renditionReports.map((q) => f.lines[q.line]));
        },
      ),
      { numRuns: 300 },
    );
  });
});
