import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdMediaPlaylist, parseMediaPlaylist } from '@ethle/core';
import { msnCount, PARTS_PER_SEGMENT, renderWindow, SEGMENTS_WITH_PARTS, streamModel } from './playlistModel.js';

const splitLines = (t: string) => {
  const ls = t.split(/\r?\n/);
  if (ls[ls.length - 1] === '') ls.pop();
  return ls;
};
const PART_RE = /^#EXT-X-PART:.*URI="p(\d+)\.(\d+)\.mp4"/;
const EPS = 1e-9;

describe('holdMediaPlaylist holdParts properties (generated LL-HLS playlists)', () => {
  it('serves a valid LL-HLS playlist without exactly the newest N parts; every other line stays in order; the hint names the first held part', () => {
    fc.assert(
      fc.property(
        streamModel.filter((m) => m.ll && !m.endList),
        fc.integer({ min: 0, max: 14 }),
        (m, want) => {
          const first = m.base;
          const last = m.base + msnCount(m) - 1;
          const w = renderWindow(m, first, last);
          const r = holdMediaPlaylist(w.text, { holdParts: want });

          // What the model says may go: the listed parts, newest first, but never so many that fewer
          // than 3 target durations of complete segments (each exactly td here) or none would be left.
          const listed: [number, number][] = [];
          for (let j = m.partialParts - 1; j >= 0; j--) listed.push([last + 1, j]);
          for (let msn = last; msn > Math.max(first - 1, last - SEGMENTS_WITH_PARTS); msn--)
            for (let j = PARTS_PER_SEGMENT - 1; j >= 0; j--) listed.push([msn, j]);
          const touched = (n: number) =>
            new Set(
              listed
                .slice(0, n)
                .map(([msn]) => msn)
                .filter((msn) => msn <= last),
            ).size;
          let n = Math.min(want, listed.length);
          const count = last - first + 1;
          while (n > 0 && touched(n) > 0 && (count - touched(n) < 3 || count - touched(n) < 1)) n--;
          expect(r.heldParts).toBe(n);
          expect(r.reason).toBe(n === want ? undefined : n === Math.min(want, listed.length) ? 'parts-not-listed' : 'short-window');
          const heldKeys = new Set(listed.slice(0, n).map(([a, b]) => `${a}.${b}`));
          expect(r.heldPartList!.map((h) => `${h.msn}.${h.part}`)).toEqual(
            listed
              .slice(0, n)
              .reverse()
              .map(([a, b]) => `${a}.${b}`),
          );
          expect(r.heldSeconds).toBeCloseTo(n * (m.td / PARTS_PER_SEGMENT), 6);

          // Expected lines from the owners alone.
          const x = touched(n);
          const firstHeld = n > 0 ? (listed[n - 1] as [number, number]) : undefined;
          const partlyHeld = firstHeld !== undefined && firstHeld[1] > 0 ? firstHeld[0] : undefined;
          const wantLines: string[] = [];
          let pastFirstHeldPart = false;
          w.lines.forEach((line, i) => {
            const o = w.owners[i];
            const pm = PART_RE.exec(line);
            if (pm !== null && heldKeys.has(`${pm[1]}.${pm[2]}`)) {
              pastFirstHeldPart = true;
              return;
            }
            if (line.startsWith('#EXT-X-PRELOAD-HINT')) {
              wantLines.push(n > 0 ? `#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p${firstHeld![0]}.${firstHeld![1]}.mp4"` : line);
              return;
            }
            if (typeof o === 'number' && o > last - x) {
              // A touched segment: fully held ones go whole; a partly held one keeps what precedes its first held part, minus EXTINF.
              if (o !== partlyHeld || pastFirstHeldPart || line.startsWith('#EXTINF')) return;
            }
            if (o === 'report' && n > 0) {
              const mm = /LAST-MSN=(\d+),LAST-PART=(\d+)/.exec(line)!;
              const pos = Number(mm[1]) * PARTS_PER_SEGMENT + Number(mm[2]) - n;
              wantLines.push(line.replace(mm[0], `LAST-MSN=${Math.floor(pos / PARTS_PER_SEGMENT)},LAST-PART=${pos % PARTS_PER_SEGMENT}`));
              return;
            }
            wantLines.push(line);
          });
          expect(splitLines(r.text)).toEqual(wantLines);

          // Valid LL-HLS, by the core's own parser.
          const p = parseMediaPlaylist(r.text);
          expect(p.serverControl?.canBlockReload).toBe(true);
          expect(p.serverControl!.partHoldBack!).toBeGreaterThanOrEqual(2 * p.partTarget! - EPS);
          const parts = [...p.segments.flatMap((s) => s.parts), ...(p.partialSegment?.parts ?? [])];
          for (const part of parts) expect(part.duration).toBeLessThanOrEqual(p.partTarget! + EPS);
          expect(p.preloadHints).toHaveLength(1);
          expect(p.preloadHints[0]!.type).toBe('PART');
          const lastContent = Math.max(...p.segments.map((s) => s.uriLine), ...parts.map((q) => q.line));
          expect(p.preloadHints[0]!.line).toBeGreaterThan(lastContent);
          expect(p.segments.at(-1)!.msn).toBe(last - x);
          if (p.partialSegment !== undefined) expect(p.partialSegment.msn).toBe(last - x + 1);
          expect(p.segments.reduce((s, g) => s + g.duration, 0)).toBeGreaterThanOrEqual(Math.min(3, count) * m.td - EPS);
          // The hint names the next part a receiver can ask for: right after the newest visible one.
          if (n > 0 && r.lastVisiblePart !== undefined) {
            const next =
              r.lastVisiblePart.part + 1 < PARTS_PER_SEGMENT
                ? [r.lastVisiblePart.msn, r.lastVisiblePart.part + 1]
                : [r.lastVisiblePart.msn + 1, 0];
            expect(p.preloadHints[0]!.uri).toBe(`p${next[0]}.${next[1]}.mp4`);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
