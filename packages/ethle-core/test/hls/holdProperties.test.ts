import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHlsHistory, holdMediaPlaylist, parseMediaPlaylist, recordHlsHistory, type HlsMediaPlaylist } from '@ethle/core';
import {
  dsnOf,
  durOf,
  keyOf,
  mapOf,
  msnCount,
  PARTS_PER_SEGMENT,
  rangeOf,
  renderWindow,
  SEGMENTS_WITH_PARTS,
  streamModel,
  uriOf,
  type StreamModel,
} from './playlistModel.js';

const EPS = 1e-6;
const splitLines = (t: string) => {
  const ls = t.split(/\r?\n/);
  if (ls[ls.length - 1] === '') ls.pop();
  return ls;
};

/** The x the RFC floor allows without history: the largest x ≤ requested that leaves ≥ 1 segment and ≥ 3 × td. */
function allowedHold(m: StreamModel, first: number, last: number, requested: number): number {
  for (let x = Math.min(requested, last - first); x >= 1; x--) {
    let s = 0;
    for (let k = first; k <= last - x; k++) s += durOf(m, k);
    if (s >= 3 * m.td - EPS) return x;
  }
  return 0;
}

/** Checks what every served playlist must satisfy, whatever the window: it parses and describes the stream truthfully. */
function checkAgainstModel(m: StreamModel, p: HlsMediaPlaylist, route: (u: string) => string): void {
  p.segments.forEach((s, i) => {
    expect(s.msn).toBe(p.mediaSequence + i);
    expect(s.uri).toBe(route(uriOf(m, s.msn)));
    expect(s.duration).toBeCloseTo(durOf(m, s.msn), 6);
    expect(s.discontinuitySequence).toBe(dsnOf(m, s.msn));
    if (m.fmp4) expect(p.lines[s.mapLine!]).toBe(`#EXT-X-MAP:URI="${route(mapOf(m, s.msn))}"`);
    else expect(s.mapLine).toBeUndefined();
    if (m.keyEvery > 0) expect(s.keyLines.map((k) => p.lines[k])).toEqual([`#EXT-X-KEY:METHOD=AES-128,URI="${route(keyOf(m, s.msn))}"`]);
    else expect(s.keyLines).toEqual([]);
    if (m.byteRanges) expect(s.byteRange).toEqual(rangeOf(s.msn));
  });
}

describe('holdMediaPlaylist properties (generated playlists)', () => {
  it('holds exactly the newest x segments (or fewer only to keep 3 × target duration) and keeps every other line in order', () => {
    fc.assert(
      fc.property(streamModel, fc.integer({ min: 0, max: 8 }), (m, x) => {
        const first = m.base;
        const last = m.base + msnCount(m) - 1;
        const w = renderWindow(m, first, last);
        // 'keep': these properties check rendition reports and parts as an LL-HLS-capable server would serve them.
        const r = holdMediaPlaylist(w.text, { hold: x, lowLatency: 'keep' });
        if (m.endList) {
          expect(r.text).toBe(w.text);
          expect(r.appliedHold).toBe(0);
          return;
        }
        const a = allowedHold(m, first, last, x);
        expect(r.appliedHold).toBe(a);
        expect(r.reason).toBe(a < x ? 'short-window' : undefined);
        expect(r.held.map((h) => h.msn)).toEqual(Array.from({ length: a }, (_, i) => last - a + 1 + i));
        const lastVisible = last - a;
        expect(r.lastVisibleMsn).toBe(lastVisible);

        // Expected text, from the line owners alone.
        const want: string[] = [];
        w.lines.forEach((line, i) => {
          const o = w.owners[i];
          if (typeof o === 'number' && o > lastVisible) return;
          if (o === 'partial' && a > 0) return;
          if (o === 'report' && a > 0) {
            const oldLast = m.partialParts > 0 ? last + 1 : last;
            const lastMsn = Number(/LAST-MSN=(\d+)/.exec(line)![1]) - (oldLast - lastVisible);
            const visibleHasParts = m.ll && lastVisible > last - SEGMENTS_WITH_PARTS;
            const base = line.replace(/LAST-MSN=\d+(,LAST-PART=\d+)?/, `LAST-MSN=${lastMsn}`);
            want.push(m.ll && visibleHasParts ? `${base},LAST-PART=${PARTS_PER_SEGMENT - 1}` : base);
            return;
          }
          want.push(line);
        });
        expect(splitLines(r.text)).toEqual(want);
        expect(r.text.includes('\r\n')).toBe(m.crlf);

        const p = parseMediaPlaylist(r.text);
        expect(p.mediaSequence).toBe(first);
        expect(p.segments.map((s) => s.msn)).toEqual(Array.from({ length: lastVisible - first + 1 }, (_, i) => first + i));
        checkAgainstModel(m, p, (u) => u);
        if (a > 0) expect(p.partialSegment).toBeUndefined();
        if (a > 0) expect(r.playlistSeconds).toBeGreaterThanOrEqual(3 * m.td - EPS);
      }),
      { numRuns: 300 },
    );
  });

  it('with history: holds x and keeps ≥ 3 × target duration by listing older segments again, with consistent sequence numbers', () => {
    fc.assert(
      fc.property(
        streamModel.filter((m) => !m.endList && msnCount(m) >= 2),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        (m, windowSize, historyDepth, x, routed) => {
          const last = m.base + msnCount(m) - 1;
          const first = Math.max(m.base, last - windowSize + 1);
          let history = createHlsHistory({ maxSegments: 64 });
          for (let j = historyDepth; j >= 1; j--) {
            const l = last - j;
            if (l < m.base) continue;
            history = recordHlsHistory(history, parseMediaPlaylist(renderWindow(m, Math.max(m.base, l - windowSize + 1), l).text));
          }
          const w = renderWindow(m, first, last);
          history = recordHlsHistory(history, parseMediaPlaylist(w.text));
          const known = history.segments.length === 0 ? first : Math.min(first, history.segments[0]!.msn);
          const route = routed ? (u: string) => `E/${u}` : (u: string) => u;
          const r = holdMediaPlaylist(w.text, { hold: x, history, lowLatency: 'keep', ...(routed ? { route } : {}) });

          // Expected: the largest x' ≤ x with a visible segment and ≥ 3 td using segments from `known` on.
          let want = 0;
          let wantExt = 0;
          for (let c = Math.min(x, last - first); c >= 1; c--) {
            let s = 0;
            for (let k = first; k <= last - c; k++) s += durOf(m, k);
            let ext = 0;
            while (s < 3 * m.td - EPS && first - ext - 1 >= known) {
              ext++;
              s += durOf(m, first - ext);
            }
            if (s >= 3 * m.td - EPS) {
              want = c;
              wantExt = ext;
              break;
            }
          }
          expect(r.appliedHold).toBe(want);
          expect(r.extendedFromHistory).toBe(wantExt);
          const p = parseMediaPlaylist(r.text);
          expect(p.mediaSequence).toBe(first - wantExt);
          expect(p.segments[p.segments.length - 1]?.msn).toBe(last - want);
          checkAgainstModel(m, p, route);
          if (want > 0) {
            const total = p.segments.reduce((s, g) => s + g.duration, 0);
            expect(total).toBeGreaterThanOrEqual(3 * m.td - EPS);
          }
          // Every origin line that is not held (or a sequence header) is still there, in order.
          const out = splitLines(r.text);
          let j = 0;
          w.lines.forEach((line, i) => {
            const o = w.owners[i];
            if ((typeof o === 'number' && o > last - want) || (o === 'partial' && want > 0) || o === 'report') return;
            if (o === 'mediaSequence' || o === 'discontinuitySequence') return;
            const expected = (typeof o === 'number' || o === 'partial') && routed ? routeLine(line) : line;
            while (j < out.length && out[j] !== expected) j++;
            expect(j, `line ${i} "${expected}" kept in order`).toBeLessThan(out.length);
            j++;
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** The line as the test router ('E/' prefix) leaves it. */
function routeLine(line: string): string {
  if (!line.startsWith('#')) return `E/${line}`;
  return line.replace(/URI="([^"]+)"/, 'URI="E/$1"');
}
