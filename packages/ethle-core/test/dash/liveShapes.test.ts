import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { availableSegments, createEdgeRouter, holdMpd, parseMpd, resolveUrl, type DashSegment } from '@ethle/core';

// Live MPD shapes other packagers produce (issue 15): Location and absolute BaseURLs, multi-period
// SegmentTimeline, S@r=-1, SegmentList/SegmentBase.
const AST = '2026-01-01T00:00:00Z';
const astMs = Date.parse(AST);
const ORIGIN_MPD = 'http://origin.example/live/s1/manifest.mpd';
const EDGE_MPD = 'http://edge.local:8080/live/s1/manifest.mpd';

/** Where a player that fetched `mpdUrl` fetches each segment: the BaseURL chain resolved over the MPD URL. */
function segmentUrls(text: string, mpdUrl: string, nowMs: number): string[] {
  const info = parseMpd(text);
  const bases = new Map(info.periods.flatMap((p) => p.representations.map((r) => [`${p.id}/${r.id}`, r.baseUrls] as const)));
  return availableSegments(info, nowMs).map((s) => {
    let base = mpdUrl;
    for (const b of bases.get(`${s.periodId}/${s.representationId}`)!) base = resolveUrl(b, base);
    return resolveUrl(s.url, base);
  });
}

const live = (periods: string, head = '') =>
  `<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${AST}" minimumUpdatePeriod="PT2S">${head}${periods}</MPD>`;
const numberSet = (id: string, media = '$RepresentationID$/$Number$.m4s') =>
  `<AdaptationSet mimeType="video/mp4"><SegmentTemplate timescale="1000" duration="2000" startNumber="1" media="${media}" initialization="$RepresentationID$/init.mp4"/><Representation id="${id}" bandwidth="1000"/></AdaptationSet>`;
const timelineSet = (id: string, s: string, timescale = 1000) =>
  `<AdaptationSet mimeType="video/mp4"><SegmentTemplate timescale="${timescale}" media="${id}/$Time$.m4s"><SegmentTimeline>${s}</SegmentTimeline></SegmentTemplate><Representation id="${id}" bandwidth="1000"/></AdaptationSet>`;

describe('Location and absolute BaseURLs (issue 15, item 2)', () => {
  const MPD = live(
    `<BaseURL>http://origin.example/live/s1/</BaseURL>
  <Period id="a" start="PT0S"><BaseURL>http://ORIGIN.example:80/live/s1/a/</BaseURL>${numberSet('v')}</Period>
  <Period id="b" start="PT20S"><BaseURL>http://origin.example/other/b/</BaseURL>${numberSet('v')}</Period>
  <Period id="c" start="PT40S"><BaseURL>sub/</BaseURL><AdaptationSet mimeType="video/mp4"><BaseURL>https://cdn.example/c/</BaseURL><SegmentTemplate timescale="1000" duration="2000" media="$Number$.m4s"/><Representation id="v" bandwidth="1"><BaseURL>deeper/</BaseURL></Representation></AdaptationSet></Period>`,
    '<Location>http://origin.example/live/s1/manifest.mpd?v=1&amp;w=2</Location>',
  );
  const route = createEdgeRouter({ manifestUrl: ORIGIN_MPD, sessionToken: 'abc' });
  const held = holdMpd(MPD, { hold: 0, route }).text;

  it('Location points back at the edge, with the session token; XML entities are decoded once and encoded once', () => {
    // Entities decoded before routing and encoded once after.
    expect(held).toContain('<Location>manifest.mpd?v=1&amp;w=2&amp;ethle_session=abc</Location>');
    const withQuery = live(
      `<BaseURL>http://origin.example/live/s1/?a=1&amp;b=2</BaseURL><Period id="p" start="PT0S">${numberSet('v')}</Period>`,
    );
    expect(parseMpd(withQuery).periods[0]!.representations[0]!.baseUrls).toEqual(['http://origin.example/live/s1/?a=1&b=2']);
  });

  it('absolute BaseURLs on the origin host (any spelling) become relative, nested ones relative to the BaseURL above', () => {
    expect(held).toContain('<BaseURL>./</BaseURL>');
    expect(held).toContain('<BaseURL>a/</BaseURL>');
    expect(held).toContain('<BaseURL>../../other/b/</BaseURL>');
    // Another host stays absolute, and what is relative beneath it stays as written.
    expect(held).toContain('<BaseURL>https://cdn.example/c/</BaseURL>');
    expect(held).toContain('<BaseURL>deeper/</BaseURL>');
  });

  it('every origin-host segment resolves, from the edge MPD URL, to the same path on the edge', () => {
    const now = astMs + 59_000;
    const before = segmentUrls(MPD, ORIGIN_MPD, now);
    const after = segmentUrls(held, EDGE_MPD, now);
    expect(after).toHaveLength(before.length);
    before.forEach((b, i) => {
      const a = after[i]!.replace(/[?&]ethle_session=abc/, '');
      if (b.startsWith('https://cdn.example/')) expect(a).toBe(b);
      else expect(a).toBe(b.replace(/^http:\/\/origin\.example(:80)?/i, 'http://edge.local:8080'));
    });
    expect(after.filter((u) => u.startsWith('http://edge.local:8080/other/b/v/'))).not.toHaveLength(0);
  });

  it('property: any chain of BaseURLs on the origin host keeps every segment path, now on the edge', () => {
    const piece = fc.constantFrom(
      'http://origin.example/live/',
      'http://ORIGIN.EXAMPLE:80/x/',
      '/abs/',
      'rel/',
      '../up/',
      './',
      'https://cdn.example/k/',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 0, maxLength: 4 }), (chain) => {
        const [mpdB, periodB, setB, repB] = chain;
        const b = (u: string | undefined) => (u === undefined ? '' : `<BaseURL>${u}</BaseURL>`);
        const text = live(
          `${b(mpdB)}<Period id="p" start="PT0S">${b(periodB)}<AdaptationSet mimeType="video/mp4">${b(setB)}<SegmentTemplate timescale="1000" duration="2000" media="s/$Number$.m4s"/><Representation id="v" bandwidth="1">${b(repB)}</Representation></AdaptationSet></Period>`,
        );
        const out = holdMpd(text, { hold: 0, route: createEdgeRouter({ manifestUrl: ORIGIN_MPD }), manifestUrl: ORIGIN_MPD }).text;
        const before = segmentUrls(text, ORIGIN_MPD, astMs + 9000);
        const after = segmentUrls(out, EDGE_MPD, astMs + 9000);
        // An absolute origin URL beneath a BaseURL on another host cannot be written relative to
        // the edge (the core does not know the edge's own URL): it stays, and the player goes there.
        const cdn = chain.indexOf('https://cdn.example/k/');
        const stranded = cdn >= 0 && chain.slice(cdn + 1).some((u) => u.startsWith('http://'));
        before.forEach((u, i) => {
          const stays = stranded || u.startsWith('https://cdn.example/');
          expect(after[i]).toBe(stays ? u : u.replace(/^http:\/\/origin\.example(:80)?/i, 'http://edge.local:8080'));
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('multi-period SegmentTimeline (items 3 and 10)', () => {
  // p1 ended at 60 s (30 segments); p2 is live with 3 segments so far.
  const MPD = live(
    `<Period id="p1" start="PT0S">${timelineSet('v', '<S t="0" d="2000" r="29"/>')}</Period>
  <Period id="p2" start="PT60S">${timelineSet('v', '<S t="0" d="2000" r="2"/>')}</Period>`,
  );
  const now = astMs + 1e9;
  const of = (text: string, period: string) => availableSegments(parseMpd(text), now).filter((s) => s.periodId === period);

  it('holds the newest x of the live period only; the ended period is untouched', () => {
    const r = holdMpd(MPD, { hold: 2, nowMs: now });
    expect(r).toMatchObject({ appliedHold: 2, offsetSeconds: 4, mode: 'timeline-trim' });
    expect(r.text).toContain('<S t="0" d="2000" r="29"/>');
    // The same segments; each available `offsetSeconds` later (AST moved with the trim, item 9).
    expect(of(r.text, 'p1')).toEqual(of(MPD, 'p1').map((s) => ({ ...s, availableAtMs: s.availableAtMs + 4000 })));
    expect(of(r.text, 'p2').map((s) => s.time)).toEqual([0]);
  });

  it('a live period of no more than x segments goes whole and the period before gives the rest: x and the AST shift stay constant across a boundary', () => {
    // An origin running x segments late would not have started p2 yet. Trimming p2 alone (one
    // segment always stays) would hold less — and move AST less — for its first x segments.
    const r = holdMpd(MPD, { hold: 6, nowMs: now });
    expect(r).toMatchObject({ appliedHold: 6, offsetSeconds: 12 });
    expect(r.reason).toBeUndefined();
    expect(r.text).not.toContain('id="p2"');
    expect(of(r.text, 'p1').map((s) => s.time)).toEqual(
      of(MPD, 'p1')
        .slice(0, -3)
        .map((s) => s.time),
    );
    const one = live(
      `<Period id="p1" start="PT0S">${timelineSet('v', '<S t="0" d="2000" r="29"/>')}</Period><Period id="p2" start="PT60S">${timelineSet('v', '<S t="0" d="2000"/>')}</Period>`,
    );
    for (const hold of [1, 2, 3]) {
      const h = holdMpd(one, { hold, nowMs: now });
      expect(h).toMatchObject({ appliedHold: hold, offsetSeconds: 2 * hold });
      expect(parseMpd(h.text).availabilityStartTimeMs).toBe(astMs + 2000 * hold);
      expect(h.text).not.toContain('id="p2"');
    }
    // A first period is never removed: one segment always stays.
    const single = live(`<Period id="p1" start="PT0S">${timelineSet('v', '<S t="0" d="2000" r="2"/>')}</Period>`);
    expect(holdMpd(single, { hold: 6, nowMs: now })).toMatchObject({ appliedHold: 2, offsetSeconds: 4, reason: 'short-timeline' });
  });

  it('audio and video timelines lose the same count; the declared seconds are how much earlier the listed media ends', () => {
    const av = live(
      `<Period id="p" start="PT0S">${timelineSet('v', '<S t="0" d="2000" r="9"/>')}${timelineSet('a', '<S t="0" d="95232" r="9"/>', 48000)}</Period>`,
    );
    const r = holdMpd(av, { hold: 3, nowMs: now });
    const end = (text: string) =>
      Math.min(
        ...['v', 'a'].map(
          (id) =>
            availableSegments(parseMpd(text), now)
              .filter((s) => s.representationId === id)
              .at(-1)!.endSeconds,
        ),
      );
    expect(r.appliedHold).toBe(3);
    expect(r.offsetSeconds).toBeCloseTo(end(av) - end(r.text), 9);
  });

  it('a period announced ahead of its start is not the live one: the period playing now is held', () => {
    const ahead = live(
      `<Period id="p1" start="PT0S">${timelineSet('v', '<S t="0" d="2000" r="9"/>')}</Period>
  <Period id="p2" start="PT20S">${timelineSet('v', '<S t="0" d="2000" r="4"/>')}</Period>
  <Period id="p3" start="PT30S">${timelineSet('v', '<S t="0" d="2000" r="2"/>')}</Period>`,
    );
    const at = astMs + 29_000; // p2 playing; p3 announced
    const r = holdMpd(ahead, { hold: 2, nowMs: at });
    expect(r).toMatchObject({ appliedHold: 2, offsetSeconds: 4 });
    expect(r.text).toContain('<Period id="p2" start="PT20S">' + timelineSet('v', '<S t="0" d="2000" r="2"/>'));
    expect(r.text).toContain('<Period id="p3" start="PT30S">' + timelineSet('v', '<S t="0" d="2000" r="2"/>'));
    expect(r.text).toContain(timelineSet('v', '<S t="0" d="2000" r="9"/>'));
  });

  const genPeriods = fc.array(
    fc.array(fc.record({ d: fc.integer({ min: 500, max: 4000 }), r: fc.integer({ min: 0, max: 4 }) }), { minLength: 1, maxLength: 4 }),
    { minLength: 1, maxLength: 4 },
  );
  const buildPeriods = (periods: { d: number; r: number }[][]) => {
    let start = 0;
    return live(
      periods
        .map((runs, i) => {
          const s = runs.map(({ d, r }, k) => `<S${k === 0 ? ' t="0"' : ''} d="${d}" r="${r}"/>`).join('');
          const el = `<Period id="p${i}" start="PT${start / 1000}S">${timelineSet('v', s)}${timelineSet('a', s)}</Period>`;
          start += runs.reduce((a, { d, r }) => a + d * (r + 1), 0);
          return el;
        })
        .join('\n'),
    );
  };

  it('property: the held MPD lists every segment but the newest min(x, all − 1) across periods, each available offsetSeconds later; the periods before the live one stay byte for byte', () => {
    fc.assert(
      fc.property(genPeriods, fc.integer({ min: 0, max: 8 }), (periods, hold) => {
        const text = buildPeriods(periods);
        const r = holdMpd(text, { hold, nowMs: now });
        const periodText = (t: string) => t.match(/<Period[\s\S]*?<\/Period>/g)!;
        const kept = periodText(r.text);
        expect(kept.slice(0, -1)).toEqual(periodText(text).slice(0, kept.length - 1));
        const v = (t: string) => availableSegments(parseMpd(t), now).filter((s) => s.representationId === 'v');
        const before = v(text);
        const after = v(r.text);
        expect(r.appliedHold).toBe(Math.min(hold, before.length - 1));
        const later = (xs: DashSegment[]) => xs.map((s) => ({ ...s, availableAtMs: s.availableAtMs + r.offsetSeconds * 1000 }));
        expect(after).toEqual(later(before.slice(0, before.length - r.appliedHold)));
        expect(r.offsetSeconds).toBeCloseTo(before.at(-1)!.endSeconds - after.at(-1)!.endSeconds, 9);
      }),
      { numRuns: 300 },
    );
  });
});

describe('S@r="-1" (item 4)', () => {
  // p1 ended at 60 s; its r=-1 runs to the period end, not to now. p2's r=-1 runs to now.
  const MPD = live(
    `<Period id="p1" start="PT0S">${timelineSet('v', '<S t="0" d="2000" r="-1"/>')}</Period>
  <Period id="p2" start="PT60S">${timelineSet('v', '<S t="0" d="2000" r="-1"/>')}</Period>`,
  );

  it('in an ended period r=-1 stops at the period end (a last partial segment counts, as players count it)', () => {
    const now = astMs + 100_000;
    expect(availableSegments(parseMpd(MPD), now).filter((s) => s.periodId === 'p1')).toHaveLength(30);
    const odd = MPD.replace('start="PT60S"', 'start="PT61S"');
    const p1 = availableSegments(parseMpd(odd), now).filter((s) => s.periodId === 'p1');
    expect(p1).toHaveLength(31);
    const r = holdMpd(odd, { hold: 2, nowMs: now });
    expect(r.text).toContain('<Period id="p1" start="PT0S">' + timelineSet('v', '<S t="0" d="2000" r="-1"/>'));
  });

  it('the held text depends on now: the same origin text held later lists the grown run; validUntilMs says when', () => {
    const t1 = astMs + 71_000; // p2 has 5 complete segments (60–70 s)
    const r1 = holdMpd(MPD, { hold: 2, nowMs: t1 });
    expect(r1).toMatchObject({ appliedHold: 2, offsetSeconds: 4 });
    expect(r1.text).toContain('<S t="0" d="2000" r="2"/>');
    expect(r1.validUntilMs).toBe(astMs + 72_000); // the 6th segment of p2 completes
    expect(holdMpd(MPD, { hold: 2, nowMs: r1.validUntilMs! - 1 }).text).toBe(r1.text);
    const r2 = holdMpd(MPD, { hold: 2, nowMs: r1.validUntilMs! });
    expect(r2.text).toContain('<S t="0" d="2000" r="3"/>');
    expect(r2.validUntilMs).toBe(astMs + 74_000);
    // A text that does not depend on now says so by leaving it out.
    expect(holdMpd(MPD, { hold: 0, nowMs: t1 }).validUntilMs).toBeUndefined();
    expect(holdMpd(MPD.replaceAll('r="-1"', 'r="4"'), { hold: 2, nowMs: t1 }).validUntilMs).toBeUndefined();
  });
});

describe('SegmentList / SegmentBase in a live MPD (item 5)', () => {
  const LIST = live(
    `<Period id="p" start="PT0S"><AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="1"><SegmentList timescale="1000" duration="2000">
      <Initialization sourceURL="http://origin.example/live/s1/v/init.mp4"/>
      <SegmentURL media="http://origin.example/live/s1/v/1.m4s"/><SegmentURL media="v/2.m4s"/>
    </SegmentList></Representation></AdaptationSet></Period>`,
  );
  const BASE = live(
    `<Period id="p" start="PT0S"><AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="1"><BaseURL>http://origin.example/live/s1/v.mp4</BaseURL><SegmentBase indexRange="800-1200"><Initialization range="0-799"/></SegmentBase></Representation></AdaptationSet></Period>`,
  );
  const route = createEdgeRouter({ manifestUrl: ORIGIN_MPD, sessionToken: 't' });

  it('pass through unheld, declared 0 with the reason, and routed back to the edge', () => {
    const l = holdMpd(LIST, { hold: 2, route, nowMs: astMs + 1e6 });
    expect(l).toMatchObject({ mode: 'unheld-passthrough', appliedHold: 0, offsetSeconds: 0, reason: 'segment-list' });
    expect(l.text).toContain('<Initialization sourceURL="v/init.mp4?ethle_session=t"/>');
    expect(l.text).toContain('<SegmentURL media="v/1.m4s?ethle_session=t"/><SegmentURL media="v/2.m4s?ethle_session=t"/>');
    const b = holdMpd(BASE, { hold: 2, route, nowMs: astMs + 1e6 });
    expect(b).toMatchObject({ mode: 'unheld-passthrough', appliedHold: 0, offsetSeconds: 0, reason: 'segment-base' });
    expect(b.text).toContain('<BaseURL>v.mp4</BaseURL>');
    expect(parseMpd(LIST).periods[0]!.representations[0]).toMatchObject({ addressing: 'list', template: undefined });
    expect(availableSegments(parseMpd(BASE), astMs + 1e6)).toEqual([]);
  });

  it('an MPD mixing SegmentTimeline and @duration templates passes through unheld too', () => {
    const mixed = live(`<Period id="p" start="PT0S">${numberSet('v')}${timelineSet('a', '<S t="0" d="2000" r="3"/>')}</Period>`);
    expect(holdMpd(mixed, { hold: 1, nowMs: astMs + 1e6 })).toMatchObject({
      text: mixed,
      appliedHold: 0,
      offsetSeconds: 0,
      reason: 'mixed-addressing',
    });
  });
});

describe('declared seconds equal the applied hold, $Number$ (item 10)', () => {
  it('property: the held MPD at now + offsetSeconds lists exactly what the origin MPD listed at now', () => {
    const MPD = live(`<Period id="a" start="PT0S">${numberSet('v')}</Period><Period id="b" start="PT30S">${numberSet('v')}</Period>`);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 120_000 }), fc.integer({ min: 0, max: 6 }), (dt, hold) => {
        const r = holdMpd(MPD, { hold });
        expect(r.appliedHold).toBe(hold);
        const ids = (text: string, t: number) => availableSegments(parseMpd(text), t).map((s) => `${s.periodId}/${s.number}`);
        expect(ids(r.text, astMs + dt + r.offsetSeconds * 1000)).toEqual(ids(MPD, astMs + dt));
      }),
    );
  });
});
