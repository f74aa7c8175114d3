import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdMediaPlaylist, parseMediaPlaylist } from '@ethle/core';
import { msnCount, renderWindow, streamModel } from './playlistModel.js';

// HLS shapes other packagers produce (issue 15): ad-break cue tags, LL-HLS through a holding edge.
const lines = (t: string) => t.split('\n').filter((l) => l !== '');
const lastUriLine = (ls: string[]) => ls.reduce((at, l, i) => (l.startsWith('#') ? at : i), -1);

const CUES = `#EXTM3U
#EXT-X-VERSION:6
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:10
#EXTINF:2.0,
s10.ts
#EXTINF:2.0,
s11.ts
#EXTINF:2.0,
s12.ts
#EXT-X-DATERANGE:ID="break-1",START-DATE="2026-01-01T00:00:06Z",PLANNED-DURATION=4,SCTE35-OUT=0xFC302000
#EXT-OATCLS-SCTE35:/DAlAAAAAAAAAP/wFAUAAAABf+/+AAAAAH4AFJmwAAEAAAAAAAA=
#EXT-X-CUE-OUT:4
#EXTINF:2.0,
ad0.ts
#EXT-X-CUE-OUT-CONT:ElapsedTime=2,Duration=4
#EXTINF:2.0,
ad1.ts
#EXT-X-CUE-IN
#EXT-X-DISCONTINUITY
#EXTINF:2.0,
s15.ts
`;

describe('ad-break cue tags belong to the segment they precede (issue 15, item 6)', () => {
  it('holding the segments of an ad break takes its cue tags with them; nothing dangles after the last URI', () => {
    const ls = lines(CUES);
    for (let x = 1; x <= 3; x++) {
      const r = holdMediaPlaylist(CUES, { hold: x });
      expect(r.appliedHold).toBe(x);
      const out = lines(r.text);
      expect(out.slice(lastUriLine(out) + 1)).toEqual([]);
      // What stays is the origin text up to the last visible segment, byte for byte.
      expect(out).toEqual(ls.slice(0, out.length));
      expect(parseMediaPlaylist(r.text).segments).toHaveLength(6 - x);
    }
    // Holding the first ad segment: the tags that open the break go with it, every one of them.
    const r = holdMediaPlaylist(CUES, { hold: 3 });
    expect(r.text).not.toMatch(/CUE-OUT|SCTE35|DATERANGE/);
    expect(r.text.endsWith('s12.ts\n')).toBe(true);
    // …and come back with it once it is no longer held.
    expect(holdMediaPlaylist(CUES, { hold: 2 }).text).toContain('#EXT-X-CUE-OUT:4\n#EXTINF:2.0,\nad0.ts\n');
  });

  it('property: for any window and x, no tag follows the last URI and the served lines are the origin lines up to it', () => {
    const cue = fc.constantFrom(
      '#EXT-X-CUE-OUT:30',
      '#EXT-X-CUE-OUT-CONT:ElapsedTime=2,Duration=30',
      '#EXT-X-CUE-IN',
      '#EXT-OATCLS-SCTE35:AAAA',
      '#EXT-X-DATERANGE:ID="a",START-DATE="2026-01-01T00:00:00Z",SCTE35-OUT=0x1',
      '#EXT-X-SCTE35:CUE="AAA"',
      '#EXT-X-DISCONTINUITY',
      '#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z',
      '# a comment',
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(cue, { maxLength: 3 }), { minLength: 1, maxLength: 12 }),
        fc.array(cue, { maxLength: 2 }),
        fc.integer({ min: 0, max: 12 }),
        (before, trailing, x) => {
          const segs = before.map((tags, i) => [...tags, '#EXTINF:1.0,', `s${i}.ts`]);
          const text = ['#EXTM3U', '#EXT-X-TARGETDURATION:1', '#EXT-X-MEDIA-SEQUENCE:0', ...segs.flat(), ...trailing].join('\n') + '\n';
          const r = holdMediaPlaylist(text, { hold: x });
          const out = lines(r.text);
          const origin = lines(text);
          if (r.appliedHold === 0) {
            expect(out).toEqual(origin);
            return;
          }
          expect(out.slice(lastUriLine(out) + 1).filter((l) => l.startsWith('#EXT'))).toEqual([]);
          // Up to the last visible URI the origin's lines, byte for byte; after it only comments.
          const lastVisible = origin.indexOf(`s${before.length - r.appliedHold - 1}.ts`);
          expect(out.slice(0, lastVisible + 1)).toEqual(origin.slice(0, lastVisible + 1));
          expect(out.slice(lastVisible + 1).every((l) => l.startsWith('# '))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

const LL = `#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0,CAN-SKIP-UNTIL=24.0,HOLD-BACK=12.0
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
#EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=270,LAST-PART=0
`;
const LL_TAG_RE =
  /CAN-BLOCK-RELOAD|CAN-SKIP-UNTIL|CAN-SKIP-DATERANGES|PART-HOLD-BACK|#EXT-X-PART|#EXT-X-PRELOAD-HINT|#EXT-X-RENDITION-REPORT|#EXT-X-SKIP/;

describe('LL-HLS through a holding edge (issue 15, item 8)', () => {
  it('holding strips what the edge cannot honour (blocking reload, delta updates, parts), keeps HOLD-BACK', () => {
    const r = holdMediaPlaylist(LL, { hold: 1 });
    expect(r.lowLatencyStripped).toBe(true);
    expect(r.text).toBe(`#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:HOLD-BACK=12.0
#EXT-X-MEDIA-SEQUENCE:266
#EXT-X-MAP:URI="init.mp4"
#EXTINF:4.0,
s266.mp4
#EXTINF:4.0,
s267.mp4
#EXTINF:4.0,
s268.mp4
`);
    // Declared: the held segment and the in-progress part the origin already lists.
    expect(r).toMatchObject({ appliedHold: 1, heldParts: 1, heldSeconds: 5 });
    expect(holdMediaPlaylist(LL.replace(',HOLD-BACK=12.0', ''), { hold: 1 }).text).not.toContain('EXT-X-SERVER-CONTROL');
  });

  it('hold 0 keeps LL-HLS unless asked; when asked, the hidden in-progress parts are declared', () => {
    expect(holdMediaPlaylist(LL, { hold: 0 })).toMatchObject({ text: LL, lowLatencyStripped: false, heldSeconds: 0 });
    const r = holdMediaPlaylist(LL, { hold: 0, lowLatency: 'strip' });
    expect(r.text).not.toMatch(LL_TAG_RE);
    expect(r).toMatchObject({ appliedHold: 0, heldParts: 1, heldSeconds: 1 });
    expect(parseMediaPlaylist(r.text).segments.map((s) => s.msn)).toEqual([266, 267, 268, 269]);
  });

  it('a delta update becomes a full playlist of what it lists: the first listed segment keeps its msn', () => {
    const delta = `#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24
#EXT-X-MEDIA-SEQUENCE:100
#EXT-X-SKIP:SKIPPED-SEGMENTS=6
${[106, 107, 108, 109].map((m) => `#EXTINF:4.0,\ns${m}.mp4`).join('\n')}
`;
    const r = holdMediaPlaylist(delta, { hold: 1 });
    expect(r.text).not.toMatch(LL_TAG_RE);
    const p = parseMediaPlaylist(r.text);
    expect(p.mediaSequence).toBe(106);
    expect(p.segments.map((s) => [s.msn, s.uri])).toEqual([
      [106, 's106.mp4'],
      [107, 's107.mp4'],
      [108, 's108.mp4'],
    ]);
    expect(r).toMatchObject({ appliedHold: 1, heldSeconds: 4, lastVisibleMsn: 108, playlistSeconds: 12 });
    // Without EXT-X-MEDIA-SEQUENCE the skipped count starts from 0.
    const bare = holdMediaPlaylist(delta.replace('#EXT-X-MEDIA-SEQUENCE:100\n', ''), { hold: 1 });
    expect(parseMediaPlaylist(bare.text).mediaSequence).toBe(6);
  });

  it("rejects a lowLatency that is neither 'strip' nor 'keep'", () => {
    expect(() => holdMediaPlaylist(LL, { hold: 1, lowLatency: 'drop' as 'strip' })).toThrow(/lowLatency/);
  });

  it('property: stripped = the LL-capable rewrite minus LL lines, same segments held; declared seconds = newest origin media − newest served', () => {
    fc.assert(
      fc.property(streamModel, fc.integer({ min: 0, max: 6 }), (m, x) => {
        const w = renderWindow(m, m.base, m.base + msnCount(m) - 1);
        const keep = holdMediaPlaylist(w.text, { hold: x, lowLatency: 'keep' });
        const strip = holdMediaPlaylist(w.text, { hold: x, lowLatency: 'strip' });
        expect(strip.text).not.toMatch(LL_TAG_RE);
        expect(strip.held).toEqual(keep.held);
        const ll = (l: string) => /^#EXT-X-(PART|PRELOAD-HINT|RENDITION-REPORT|SERVER-CONTROL)/.test(l);
        const split = (t: string) => t.split(/\r?\n/).filter((l) => l !== '');
        expect(split(strip.text).filter((l) => !ll(l))).toEqual(split(keep.text).filter((l) => !ll(l)));
        const origin = parseMediaPlaylist(w.text);
        const served = parseMediaPlaylist(strip.text);
        const sum = (xs: readonly { duration: number }[]) => xs.reduce((a, s) => a + s.duration, 0);
        const newest = sum(origin.segments) + (m.endList ? 0 : sum(origin.partialSegment?.parts ?? []));
        const visible = sum(served.segments.filter((s) => s.msn >= origin.mediaSequence));
        expect(strip.heldSeconds).toBeCloseTo(m.endList ? 0 : newest - visible, 6);
      }),
      { numRuns: 300 },
    );
  });
});
