import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdMediaPlaylist, parseMediaPlaylist } from '@ethle/core';

// Issue 36: the numbers origins write, as they write them — durations of 29.97/59.94 fps content
// (4.004, 8.008, 3.6036 …), five-decimal LL-HLS parts (1.00002), media sequence numbers near 2^53,
// byte ranges deep into large files, part counts — through the rewriting core. A held playlist must
// still be a valid playlist, and only the held entries may have gone: every other line, its
// numbers' text included, stays byte for byte.

const EPS = 1e-9;
const lines = (t: string) => t.split('\n').filter((l) => l !== '');

/** A duration's text as an encoder writes it. */
const durationText = fc
  .oneof(
    fc.integer({ min: 1, max: 600 }).map((f) => ((f * 1001) / 30_000).toFixed(3)), // 29.97 fps, ms precision (4.004)
    fc.integer({ min: 1, max: 1200 }).map((f) => String(Math.round(((f * 1001) / 60_000) * 1e5) / 1e5)), // 59.94 fps, up to 5 places
    fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 99_999 })).map(([s, f]) => `${s}.${String(f).padStart(5, '0')}`), // 4.00008
    fc.integer({ min: 1, max: 12 }).map(String),
  )
  .filter((t) => Number(t) > 0);

const mediaSequence = fc.oneof(
  fc.constant(0),
  fc.nat(1_000_000),
  fc.integer({ min: Number.MAX_SAFE_INTEGER - 1000, max: Number.MAX_SAFE_INTEGER - 100 }),
);

const playlistGen = fc.record({
  msn: mediaSequence,
  durations: fc.array(durationText, { minLength: 1, maxLength: 14 }),
  // A byte range per segment of one large file (offsets past 2^32), or none.
  byteRangeBase: fc.option(fc.integer({ min: 0, max: 2 ** 50 }), { nil: undefined }),
  discontinuityEvery: fc.constantFrom(0, 0, 3),
  x: fc.integer({ min: 0, max: 6 }),
});

function render(g: { msn: number; durations: string[]; byteRangeBase: number | undefined; discontinuityEvery: number }) {
  const td = Math.max(...g.durations.map((d) => Math.round(Number(d))), 1);
  const out = ['#EXTM3U', '#EXT-X-VERSION:7', `#EXT-X-TARGETDURATION:${td}`, `#EXT-X-MEDIA-SEQUENCE:${g.msn}`];
  const segLines: string[][] = [];
  let offset = g.byteRangeBase ?? 0;
  g.durations.forEach((d, i) => {
    const s: string[] = [];
    if (g.discontinuityEvery > 0 && i > 0 && i % g.discontinuityEvery === 0) s.push('#EXT-X-DISCONTINUITY');
    s.push(`#EXTINF:${d},`);
    if (g.byteRangeBase !== undefined) {
      const len = 1000 + i * 17;
      s.push(`#EXT-X-BYTERANGE:${len}@${offset}`);
      offset += len;
    }
    s.push(g.byteRangeBase !== undefined ? 'file.ts' : `s${g.msn + i}.ts`);
    segLines.push(s);
    out.push(...s);
  });
  return { text: `${out.join('\n')}\n`, td, head: out.slice(0, 4), segLines };
}

describe('holdMediaPlaylist with the numbers origins write', () => {
  it('any durations (29.97 fps, 5 decimals), any media sequence up to 2^53, byte ranges past 2^32: a valid playlist minus exactly the newest x', () => {
    fc.assert(
      fc.property(playlistGen, (g) => {
        const { text, td, head, segLines } = render(g);
        const origin = parseMediaPlaylist(text);
        const r = holdMediaPlaylist(text, { hold: g.x });

        // How many may go: x, or fewer so that ≥ 3 target durations (and one segment) stay — summed
        // in the order the rewriter sums them.
        const n = g.durations.length;
        let allowed = 0;
        for (let cand = Math.min(g.x, n - 1); cand >= 1; cand--) {
          let kept = 0;
          for (let i = 0; i < n - cand; i++) kept += origin.segments[i]!.duration;
          if (3 * td - kept <= EPS) {
            allowed = cand;
            break;
          }
        }
        expect(r.appliedHold).toBe(allowed);
        expect(r.reason).toBe(allowed < g.x ? 'short-window' : undefined);

        // Byte for byte: the head, then every segment's lines but the held ones'.
        expect(lines(r.text)).toEqual([...head, ...segLines.slice(0, n - allowed).flat()]);
        const held = parseMediaPlaylist(r.text);
        expect(held.mediaSequence).toBe(g.msn);
        expect(held.targetDuration).toBe(origin.targetDuration);
        expect(held.segments.map((s) => [s.msn, s.duration, s.byteRange])).toEqual(
          origin.segments.slice(0, n - allowed).map((s) => [s.msn, s.duration, s.byteRange]),
        );
        expect(r.lastVisibleMsn).toBe(g.msn + n - allowed - 1);
        let heldSeconds = 0;
        for (const s of origin.segments.slice(n - allowed)) heldSeconds += s.duration;
        expect(r.heldSeconds).toBeCloseTo(heldSeconds, 9);
      }),
    );
  });

  it('LL-HLS with any parts per segment (1–8) of any five-decimal length: valid LL-HLS without exactly the newest held parts; the hint names the first of them', () => {
    const gen = fc.record({
      msn: mediaSequence,
      k: fc.integer({ min: 1, max: 8 }),
      part: fc
        .tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 99_999 }))
        .map(([s, f]) => `${s}.${String(f).padStart(5, '0')}`)
        .filter((t) => Number(t) >= 0.1),
      segments: fc.integer({ min: 4, max: 10 }),
      partial: fc.nat(7),
      want: fc.integer({ min: 0, max: 20 }),
    });
    fc.assert(
      fc.property(gen, ({ msn, k, part, segments, partial, want }) => {
        const p = Number(part);
        const seg = (Math.round(k * p * 1e5) / 1e5).toString();
        const td = Math.max(1, Math.round(Number(seg)));
        const partialParts = partial % k;
        const out = [
          '#EXTM3U',
          '#EXT-X-VERSION:9',
          `#EXT-X-TARGETDURATION:${td}`,
          `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${(3 * p).toFixed(5)}`,
          `#EXT-X-PART-INF:PART-TARGET=${part}`,
          `#EXT-X-MEDIA-SEQUENCE:${msn}`,
        ];
        const listed: string[] = []; // part URIs in order
        for (let i = 0; i < segments; i++) {
          const m = msn + i;
          if (i >= segments - 2) {
            for (let j = 0; j < k; j++) {
              out.push(`#EXT-X-PART:DURATION=${part},URI="p${m}.${j}.mp4"`);
              listed.push(`p${m}.${j}.mp4`);
            }
          }
          out.push(`#EXTINF:${seg},`, `s${m}.mp4`);
        }
        for (let j = 0; j < partialParts; j++) {
          out.push(`#EXT-X-PART:DURATION=${part},URI="p${msn + segments}.${j}.mp4"`);
          listed.push(`p${msn + segments}.${j}.mp4`);
        }
        const next = `p${msn + segments}.${partialParts}.mp4`;
        out.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${next}"`);
        const text = `${out.join('\n')}\n`;

        const r = holdMediaPlaylist(text, { holdParts: want });
        expect(r.heldParts).toBeLessThanOrEqual(Math.min(want, listed.length));
        const held = parseMediaPlaylist(r.text);
        const served = [...held.segments.flatMap((s) => s.parts), ...(held.partialSegment?.parts ?? [])].map((q) => q.uri);
        // Exactly the newest heldParts parts went, the rest stay in order.
        expect(served).toEqual(listed.slice(0, listed.length - r.heldParts));
        expect(r.heldPartList?.map((h) => `p${h.msn}.${h.part}.mp4`) ?? []).toEqual(listed.slice(listed.length - r.heldParts));
        expect(held.preloadHints.map((h) => h.uri)).toEqual([r.heldParts > 0 ? listed[listed.length - r.heldParts]! : next]);
        expect(r.heldSeconds).toBeCloseTo(r.heldParts * p, 6);
        // Still valid LL-HLS: parts within PART-TARGET, a PART-HOLD-BACK of ≥ 2 part targets, ≥ 3
        // target durations of complete segments (the origin's window has ≥ 4).
        expect(held.mediaSequence).toBe(msn);
        for (const q of held.segments.flatMap((s) => s.parts)) expect(q.duration).toBeLessThanOrEqual(held.partTarget! + EPS);
        expect(held.serverControl!.partHoldBack!).toBeGreaterThanOrEqual(2 * held.partTarget! - EPS);
        expect(held.segments.reduce((s, x) => s + x.duration, 0)).toBeGreaterThanOrEqual(Math.min(3 * td, segments * Number(seg)) - 1e-6);
      }),
    );
  });
});
