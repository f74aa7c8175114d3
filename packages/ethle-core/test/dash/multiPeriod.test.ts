import { describe, expect, it } from 'vitest';
import { availableSegments, holdMpd, parseMpd } from '@ethle/core';

// DASH-IF style multi-period live MPD (an ad break as its own period), $Number$ templates.
const AST = '2026-01-01T00:00:00Z';
const astMs = Date.parse(AST);
const MPD = `<?xml version="1.0" encoding="UTF-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${AST}" minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT600S">
  <Period id="main-1" start="PT0S">
    <AdaptationSet mimeType="video/mp4"><SegmentTemplate timescale="1000" duration="2000" startNumber="1" media="m1/$Number$.m4s" initialization="m1/init.mp4"/>
      <Representation id="v" bandwidth="15000000"/></AdaptationSet>
  </Period>
  <Period id="ad" start="PT60S">
    <AdaptationSet mimeType="video/mp4"><SegmentTemplate timescale="1000" duration="2000" startNumber="1" media="ad/$Number$.m4s" initialization="ad/init.mp4"/>
      <Representation id="v" bandwidth="15000000"/></AdaptationSet>
  </Period>
  <Period id="main-2" start="PT80S">
    <AdaptationSet mimeType="video/mp4"><SegmentTemplate timescale="1000" duration="2000" startNumber="31" presentationTimeOffset="60000" media="m2/$Number$.m4s" initialization="m2/init.mp4"/>
      <Representation id="v" bandwidth="15000000"/></AdaptationSet>
  </Period>
</MPD>`;

describe('multi-period MPDs', () => {
  it('periods take their duration from the next start; segments stay inside their period', () => {
    const info = parseMpd(MPD);
    expect(info.periods.map((p) => [p.id, p.startSeconds, p.durationSeconds])).toEqual([
      ['main-1', 0, 60],
      ['ad', 60, 20],
      ['main-2', 80, undefined],
    ]);
    const segs = availableSegments(info, astMs + 101_000);
    expect(
      segs
        .filter((s) => s.periodId === 'main-1')
        .map((s) => s.number)
        .at(-1),
    ).toBe(30);
    expect(segs.filter((s) => s.periodId === 'ad')).toHaveLength(10);
    const m2 = segs.filter((s) => s.periodId === 'main-2');
    expect(m2.at(-1)).toMatchObject({ number: 40, url: 'm2/40.m4s', endSeconds: 100 });
  });

  it('holding shifts AST once for every period: the newest x segments go, across the period boundary', () => {
    const now = astMs + 83_000; // main-2 has produced one segment (80–82 s)
    const r = holdMpd(MPD, { hold: 2 });
    expect(r).toMatchObject({ mode: 'ast-shift', offsetSeconds: 4, appliedHold: 2 });
    const ids = (t: string) => availableSegments(parseMpd(t), now).map((s) => `${s.periodId}/${s.number}`);
    const before = ids(MPD);
    const after = ids(r.text);
    expect(before.slice(-2)).toEqual(['ad/10', 'main-2/31']);
    expect(after).toEqual(before.slice(0, -2));
  });
});
