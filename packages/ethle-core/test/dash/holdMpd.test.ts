import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EthleError, availableSegments, createEdgeRouter, holdMpd, parseMpd } from '@ethle/core';

const AST = '2026-01-01T00:00:00Z';
const astMs = Date.parse(AST);

// DASH-IF IOP style live MPD: $Number$, separate video/audio adaptation sets, UTCTiming.
const NUMBER_MPD = `<?xml version="1.0" encoding="utf-8"?>
<!-- packaged by a test -->
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${AST}" publishTime="2026-01-01T00:10:00Z"
     minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT30S" suggestedPresentationDelay="PT6S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
  <ProgramInformation><Title>Live &amp; loud</Title></ProgramInformation>
  <Period id="p0" start="PT0S">
    <AdaptationSet contentType="video" mimeType="video/mp4" segmentAlignment="true">
      <SegmentTemplate timescale="90000" duration="180000" startNumber="10" initialization="$RepresentationID$/init.mp4" media="$RepresentationID$/$Number%05d$.m4s"/>
      <Representation id="v1" bandwidth="15000000" width="3840" height="2160"/>
      <Representation id="v2" bandwidth="5000000" width="1920" height="1080"/>
    </AdaptationSet>
    <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="en">
      <SegmentTemplate timescale="48000" duration="96000" startNumber="10" initialization="a/init.mp4" media="a/$Number$.m4s"/>
      <Representation id="a1" bandwidth="128000"><x-vendor:Extra xmlns:x-vendor="urn:x" k="v"/></Representation>
    </AdaptationSet>
  </Period>
  <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="https://time.example/iso"/>
</MPD>
`;

// SegmentTimeline with $Time$ and @r runs.
const TIMELINE_MPD = `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${AST}" minimumUpdatePeriod="PT2S">
  <Period id="1" start="PT0S">
    <AdaptationSet mimeType="video/mp4">
      <SegmentTemplate timescale="1000" media="v/$Time$.m4s" initialization="v/init.mp4">
        <SegmentTimeline>
          <S t="0" d="2000" r="3"/>
          <S d="1000"/>
          <S d="2000" r="1"/>
        </SegmentTimeline>
      </SegmentTemplate>
      <Representation id="v" bandwidth="1000000"/>
    </AdaptationSet>
  </Period>
</MPD>`;

const numbersOf = (text: string, nowMs: number, rep: string) =>
  availableSegments(parseMpd(text), nowMs)
    .filter((s) => s.representationId === rep)
    .map((s) => s.number);

describe('parseMpd / availableSegments', () => {
  it('$Number$: AST, period start, duration and time-shift depth give the live window', () => {
    const now = astMs + 101_000; // 50 whole 2 s segments complete, the 51st in progress
    const v1 = availableSegments(parseMpd(NUMBER_MPD), now).filter((s) => s.representationId === 'v1');
    expect(v1.at(-1)!.number).toBe(10 + 49);
    expect(v1.at(-1)!.url).toBe('v1/00059.m4s');
    expect(v1.at(-1)!.availableAtMs).toBe(astMs + 100_000);
    expect(v1.length).toBeGreaterThanOrEqual(15);
    expect(v1.length).toBeLessThanOrEqual(16);
  });

  it('timeline: S runs expand with implicit t, and only complete segments are available', () => {
    const all = availableSegments(parseMpd(TIMELINE_MPD), astMs + 1e9).map((s) => s.url);
    expect(all).toEqual(['v/0.m4s', 'v/2000.m4s', 'v/4000.m4s', 'v/6000.m4s', 'v/8000.m4s', 'v/9000.m4s', 'v/11000.m4s']);
    expect(availableSegments(parseMpd(TIMELINE_MPD), astMs + 9500).map((s) => s.time)).toEqual([0, 2000, 4000, 6000, 8000]);
  });

  it('typed errors for what is not a usable MPD', () => {
    const cases: [string, string][] = [
      ['hello', 'ERR_DASH_NOT_AN_MPD'],
      ['<html><MPD></MPD></html>', 'ERR_DASH_NOT_AN_MPD'],
      [NUMBER_MPD.slice(0, NUMBER_MPD.length / 2), 'ERR_DASH_MALFORMED'],
      [NUMBER_MPD.replace('duration="180000"', 'duration="-5"'), 'ERR_DASH_MALFORMED'],
      [NUMBER_MPD.replace('timeShiftBufferDepth="PT30S"', 'timeShiftBufferDepth="P1Y"'), 'ERR_DASH_MALFORMED'],
      [NUMBER_MPD.replace(`availabilityStartTime="${AST}"`, ''), 'ERR_DASH_MALFORMED'],
      [TIMELINE_MPD.replace('r="3"', 'r="99999999"'), 'ERR_DASH_MALFORMED'],
    ];
    for (const [text, code] of cases) {
      try {
        holdMpd(text, { hold: 1, nowMs: astMs + 1e6 });
        expect.unreachable(code);
      } catch (e) {
        expect(e, code).toBeInstanceOf(EthleError);
        expect((e as EthleError).code).toBe(code);
      }
    }
  });
});

describe('holdMpd', () => {
  it('$Number$: moves AST by x·l_seg, so exactly the newest x segments disappear, nothing else changes', () => {
    const now = astMs + 101_000;
    const r = holdMpd(NUMBER_MPD, { hold: 2 });
    expect(r).toMatchObject({ mode: 'ast-shift', appliedHold: 2, offsetSeconds: 4 });
    expect(r.text).toBe(NUMBER_MPD.replace(`availabilityStartTime="${AST}"`, 'availabilityStartTime="2026-01-01T00:00:04.000Z"'));
    for (const rep of ['v1', 'v2', 'a1']) {
      const before = numbersOf(NUMBER_MPD, now, rep);
      const after = numbersOf(r.text, now, rep);
      expect(after.at(-1)).toBe(before.at(-1)! - 2);
    }
  });

  it('timeline: drops the last x segments, splitting an @r run, and reports their duration', () => {
    const r = holdMpd(TIMELINE_MPD, { hold: 2, nowMs: astMs + 1e9 });
    expect(r).toMatchObject({ mode: 'timeline-trim', appliedHold: 2, offsetSeconds: 4 });
    expect(r.text).toBe(TIMELINE_MPD.replace('<S d="2000" r="1"/>', '').replace(AST, new Date(astMs + 4000).toISOString()));
    const r3 = holdMpd(TIMELINE_MPD, { hold: 4, nowMs: astMs + 1e9 });
    expect(r3.offsetSeconds).toBe(7);
    expect(r3.text).toContain('<S t="0" d="2000" r="2"/>');
    expect(availableSegments(parseMpd(r3.text), astMs + 1e9).map((s) => s.time)).toEqual([0, 2000, 4000]);
  });

  it('timeline: AST moves later by the declared seconds, so the clock puts the live edge where the trimmed timeline ends (item 9)', () => {
    // Players place the live edge at now − AST (dash.js does unless told to read the timeline):
    // at the origin it is 1 s past the listed end here. Held, it must be the same 1 s past the
    // trimmed end — with AST left alone it would be 1 + 4 s past, and the player's latency would
    // follow its own target delay instead of the hold.
    const now = astMs + 14_000; // the timeline ends at 13 s
    const edge = (text: string) =>
      (now - parseMpd(text).availabilityStartTimeMs) / 1000 -
      Math.max(...availableSegments(parseMpd(text), Number.POSITIVE_INFINITY).map((s) => s.endSeconds));
    const r = holdMpd(TIMELINE_MPD, { hold: 2, nowMs: now });
    expect(r.offsetSeconds).toBe(4);
    expect(edge(r.text)).toBeCloseTo(edge(TIMELINE_MPD), 9);
    expect(edge(TIMELINE_MPD)).toBeCloseTo(1, 9);
    // Holding nothing moves nothing.
    expect(holdMpd(TIMELINE_MPD, { hold: 0, nowMs: now }).text).toBe(TIMELINE_MPD);
  });

  it('timeline ending with r=-1 is counted against now', () => {
    const open = TIMELINE_MPD.replace('<S d="2000" r="1"/>', '<S d="2000" r="-1"/>');
    const now = astMs + 19_000; // segments at 9000..17000 (5) complete at 11000..19000
    const before = availableSegments(parseMpd(open), now);
    const r = holdMpd(open, { hold: 3, nowMs: now });
    const after = availableSegments(parseMpd(r.text), now);
    expect(after.map((s) => s.time)).toEqual(before.slice(0, -3).map((s) => s.time));
    expect(() => holdMpd(open, { hold: 1 })).toThrow(/nowMs/);
  });

  it('never holds the whole timeline', () => {
    const r = holdMpd(TIMELINE_MPD, { hold: 50, nowMs: astMs + 1e9 });
    expect(r).toMatchObject({ appliedHold: 6, reason: 'short-timeline' });
    expect(availableSegments(parseMpd(r.text), astMs + 1e9)).toHaveLength(1);
  });

  it('routes templates and BaseURLs back through the edge with a session token', () => {
    const withBase = NUMBER_MPD.replace(
      '<Period id="p0" start="PT0S">',
      '<BaseURL>https://origin.example/live/s1/</BaseURL>\n  <Period id="p0" start="PT0S">',
    );
    const route = createEdgeRouter({ manifestUrl: 'https://origin.example/live/s1/manifest.mpd', sessionToken: 'abc' });
    const r = holdMpd(withBase, { hold: 0, route });
    expect(r.text).toContain('<BaseURL>./</BaseURL>');
    expect(r.text).toContain('media="$RepresentationID$/$Number%05d$.m4s?ethle_session=abc"');
    const seg = availableSegments(parseMpd(r.text), astMs + 101_000).find((s) => s.representationId === 'a1')!;
    expect(seg.url).toMatch(/^a\/\d+\.m4s\?ethle_session=abc$/);
  });

  it('static MPDs pass through unchanged', () => {
    const s = NUMBER_MPD.replace('type="dynamic"', 'type="static"');
    expect(holdMpd(s, { hold: 3 })).toMatchObject({ text: s, appliedHold: 0, mode: 'static-passthrough' });
  });
});

describe('holdMpd properties', () => {
  const gen = fc.record({
    runs: fc.array(fc.record({ d: fc.integer({ min: 1, max: 5000 }), r: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 6 }),
    hold: fc.integer({ min: 0, max: 8 }),
    reps: fc.integer({ min: 1, max: 3 }),
  });
  const build = (runs: { d: number; r: number }[], reps: number) => {
    let t = 0;
    const s = runs.map(({ d, r }, i) => {
      const el = i === 0 ? `<S t="${t}" d="${d}" r="${r}"/>` : `<S d="${d}"${r ? ` r="${r}"` : ''}/>`;
      t += d * (r + 1);
      return el;
    });
    const sets = Array.from(
      { length: reps },
      (_, i) =>
        `<AdaptationSet id="${i}"><SegmentTemplate timescale="1000" media="s${i}/$Time$.m4s"><SegmentTimeline>${s.join('\n')}</SegmentTimeline></SegmentTemplate><Representation id="r${i}" bandwidth="1"/></AdaptationSet>`,
    );
    return `<MPD type="dynamic" availabilityStartTime="${AST}"><Period start="PT0S">${sets.join('')}</Period></MPD>`;
  };

  it('timeline: the result parses and lists exactly the same segments minus the newest x, in every representation', () => {
    fc.assert(
      fc.property(gen, ({ runs, hold, reps }) => {
        const text = build(runs, reps);
        const now = astMs + 1e10;
        const before = availableSegments(parseMpd(text), now);
        const r = holdMpd(text, { hold, nowMs: now });
        const after = availableSegments(parseMpd(r.text), now);
        const per = before.length / reps;
        expect(r.appliedHold).toBe(Math.min(hold, per - 1));
        for (let i = 0; i < reps; i++) {
          const b = before.filter((s) => s.representationId === `r${i}`);
          const a = after.filter((s) => s.representationId === `r${i}`);
          expect(a.map((s) => s.time)).toEqual(b.slice(0, b.length - r.appliedHold).map((s) => s.time));
        }
        // Only S elements and AST changed: the rest of the text is identical.
        const strip = (x: string) =>
          x.replace(/<SegmentTimeline>[\s\S]*?<\/SegmentTimeline>/g, '').replace(/availabilityStartTime="[^"]*"/, '');
        expect(strip(r.text)).toBe(strip(text));
        expect(parseMpd(r.text).availabilityStartTimeMs).toBeCloseTo(astMs + r.offsetSeconds * 1000, 6);
      }),
    );
  });

  it('$Number$: for any now and x, the window after holding is the window before minus the newest x', () => {
    fc.assert(
      fc.property(fc.integer({ min: 40_000, max: 10_000_000 }), fc.integer({ min: 0, max: 5 }), (dt, hold) => {
        const now = astMs + dt;
        const r = holdMpd(NUMBER_MPD, { hold });
        const b = numbersOf(NUMBER_MPD, now, 'v2');
        const a = numbersOf(r.text, now, 'v2');
        expect(a.at(-1)).toBe(b.at(-1)! - hold);
      }),
    );
  });

  it('garbage and mangled MPDs raise EthleError only', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.nat(NUMBER_MPD.length), fc.nat(NUMBER_MPD.length), (junk, a, b) => {
        for (const text of [junk, `<MPD${junk}`, NUMBER_MPD.slice(0, a) + junk + NUMBER_MPD.slice(b)]) {
          try {
            holdMpd(text, { hold: 1, nowMs: astMs + 1e6 });
          } catch (e) {
            expect(e).toBeInstanceOf(EthleError);
          }
        }
      }),
    );
  });
});
