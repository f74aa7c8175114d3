import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { availableSegments, holdMpd, parseMpd } from '@ethle/core';

// Issue 36: DASH timing as origins write it — any timescale, segment durations that are not whole
// milliseconds (90 kHz 360360 = 4.004 s; 30000/1001 fps frame counts), start numbers and timeline
// times far from zero — through holdMpd. The held MPD must still parse, and at any instant list
// exactly the origin's segments minus the newest x: never one early.

const durationGen = fc
  .oneof(
    fc.constant({ timescale: 90_000, ticks: 360_360 }),
    fc.integer({ min: 1, max: 600 }).map((frames) => ({ timescale: 30_000, ticks: frames * 1001 })),
    fc.integer({ min: 1, max: 900 }).map((frames) => ({ timescale: 48_000, ticks: frames * 1024 })),
    fc
      .tuple(fc.integer({ min: 1, max: 10_000_000 }), fc.double({ min: 0.2, max: 20, noNaN: true }))
      .map(([timescale, s]) => ({ timescale, ticks: Math.max(1, Math.round(s * timescale)) })),
  )
  .filter(({ timescale, ticks }) => ticks / timescale >= 0.1 && ticks / timescale <= 20);

function numberMpd(astIso: string, timescale: number, ticks: number, startNumber: number): string {
  return `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${astIso}" minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT60S">
  <Period id="p" start="PT0S">
    <AdaptationSet mimeType="video/mp4">
      <SegmentTemplate timescale="${timescale}" duration="${ticks}" startNumber="${startNumber}" media="v/$Number$.m4s" initialization="v/init.mp4"/>
      <Representation id="v" bandwidth="1000000"/>
    </AdaptationSet>
  </Period>
</MPD>`;
}

const numbers = (text: string, nowMs: number) => availableSegments(parseMpd(text), nowMs).map((s) => s.number);

describe('holdMpd with the timing origins write', () => {
  it('$Number$, any timescale and duration, any start number and AST: at any instant the held MPD lists the origin’s window minus exactly the newest x', () => {
    fc.assert(
      fc.property(
        durationGen,
        fc.nat(2 ** 31),
        fc.integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 8, max: 5000 }), // whole segments since AST
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), // where in a segment now falls
        fc.integer({ min: -2, max: 2 }), // ± ms around that instant
        ({ timescale, ticks }, startNumber, astMs, x, k, phase, nudge) => {
          const text = numberMpd(new Date(astMs).toISOString(), timescale, ticks, startNumber);
          const segMs = (ticks / timescale) * 1000;
          // Instants at and next to a segment boundary are where an AST rounded down shows one early.
          const now = Math.floor(astMs + (k + phase) * segMs) + (phase < 0.2 ? nudge : 0);
          const r = holdMpd(text, { hold: x });
          expect(r.appliedHold).toBe(x);
          expect(r.offsetSeconds).toBeGreaterThanOrEqual((x * ticks) / timescale - 1e-9);
          expect(r.offsetSeconds).toBeLessThan((x * ticks) / timescale + 0.001 + 1e-9);
          const before = numbers(text, now);
          const after = numbers(r.text, now);
          // The held MPD is the origin's delayed by exactly the declared shift (whole ms) …
          const shiftMs = Math.round(r.offsetSeconds * 1000);
          expect(Math.abs(r.offsetSeconds * 1000 - shiftMs)).toBeLessThan(1e-6);
          expect(after.at(-1)).toBe(numbers(text, now - shiftMs).at(-1));
          // … which is x segments, never less (a segment shown early), and under 1 ms more.
          expect(after.at(-1)).toBeLessThanOrEqual(before.at(-1)! - x);
          expect(after.at(-1)).toBeGreaterThanOrEqual(before.at(-1)! - x - 1);
          if (x === 0) expect(after).toEqual(before);
          // Everything but AST is the origin's text.
          expect(r.text.replace(/availabilityStartTime="[^"]*"/, '')).toBe(text.replace(/availabilityStartTime="[^"]*"/, ''));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('SegmentTimeline, any timescale, times far from zero, any runs: the held MPD parses and lists every representation minus the newest x', () => {
    const gen = fc.record({
      timescale: fc.integer({ min: 1, max: 10_000_000 }),
      t0: fc.nat(2 ** 50),
      runs: fc.array(fc.record({ d: fc.integer({ min: 1, max: 2 ** 30 }), r: fc.integer({ min: 0, max: 4 }) }), {
        minLength: 1,
        maxLength: 5,
      }),
      x: fc.integer({ min: 0, max: 6 }),
    });
    fc.assert(
      fc.property(gen, ({ timescale, t0, runs, x }) => {
        let t = t0;
        const s = runs.map(({ d, r }, i) => {
          const el = i === 0 ? `<S t="${t}" d="${d}"${r ? ` r="${r}"` : ''}/>` : `<S d="${d}"${r ? ` r="${r}"` : ''}/>`;
          t += d * (r + 1);
          return el;
        });
        if (!Number.isSafeInteger(t)) return;
        const text = `<MPD type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z"><Period start="PT0S"><AdaptationSet><SegmentTemplate timescale="${timescale}" presentationTimeOffset="${t0}" media="v/$Time$.m4s"><SegmentTimeline>${s.join('')}</SegmentTimeline></SegmentTemplate><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>`;
        const now = Date.parse('2026-01-01T00:00:00Z') + ((t - t0) / timescale) * 1000 + 1e9;
        const before = availableSegments(parseMpd(text), now, { maxPerRepresentation: 10_000 });
        const r = holdMpd(text, { hold: x, nowMs: now });
        expect(r.appliedHold).toBe(Math.min(x, before.length - 1));
        const after = availableSegments(parseMpd(r.text), now, { maxPerRepresentation: 10_000 });
        expect(after.map((a) => a.time)).toEqual(before.slice(0, before.length - r.appliedHold).map((b) => b.time));
      }),
      { numRuns: 300 },
    );
  });
});
