import { describe, expect, it } from 'vitest';
import { StreamProgress, type Rendition, type SegmentRef } from '@ethle/core';

// On a DASH ladder the edge prefetches, per adaptation set, what its receivers play (before any
// request: the Representation players start on), and the model's s_seg is the played
// Representation's, not the sum over the ladder.

const WITHIN = 30_000;
const L = 2;
const LADDER: Rendition[] = [
  { track: 'p/15M', set: 'v', bandwidthBps: 15e6, start: true },
  { track: 'p/50M', set: 'v', bandwidthBps: 50e6, start: false },
  { track: 'p/a', set: 'a', bandwidthBps: 32e3, start: true },
];
const bytes = (bps: number) => (bps * L) / 8;
const seg = (track: string, id: number): SegmentRef => ({ track, id, path: `/${track}/${id}.m4s`, durationSeconds: L });
const windowOf = (tracks: readonly string[], from: number, to: number) =>
  tracks.flatMap((t) => Array.from({ length: to - from + 1 }, (_, i) => seg(t, from + i)));

function ladder(list: readonly Rendition[] = LADDER) {
  const p = new StreamProgress({ playedWithinMs: WITHIN });
  p.setLadder(list);
  p.setWindow(windowOf(['p/15M', 'p/50M', 'p/a'], 10, 20));
  return p;
}

describe('StreamProgress on a DASH ladder: which Representations are planned', () => {
  it('before any request: per adaptation set only the start choice', () => {
    const p = ladder();
    expect(p.plannedTracks(0)).toEqual(['p/15M', 'p/a']);
  });

  it('a requested Representation is planned from then on, its set’s others are not', () => {
    const p = ladder();
    expect(p.noteRequest(seg('p/50M', 18), 1000)).toBe(true);
    expect(p.plannedTracks(1000)).toEqual(['p/50M', 'p/a']);
    // Receivers on both rungs: both planned from their heads.
    p.noteRequest(seg('p/15M', 17), 2000);
    expect(p.plannedTracks(2000)).toEqual(['p/15M', 'p/50M', 'p/a']);
  });

  it('a Representation nobody asked for within the window stops being planned; a set whose receivers all stopped, entirely', () => {
    const p = ladder();
    p.noteRequest(seg('p/15M', 15), 0);
    p.noteRequest(seg('p/50M', 16), 10_000);
    expect(p.plannedTracks(WITHIN)).toEqual(['p/15M', 'p/50M', 'p/a']);
    expect(p.plannedTracks(WITHIN + 1)).toEqual(['p/50M', 'p/a']);
    // Paused or gone: no start is planned again for a set receivers have played.
    expect(p.plannedTracks(10_000 + WITHIN + 1)).toEqual(['p/a']);
    // Asked again (an id behind its head): planned again, and the plan is told.
    expect(p.noteRequest(seg('p/15M', 14), 50_000)).toBe(true);
    expect(p.plannedTracks(50_000)).toEqual(['p/15M', 'p/a']);
  });

  it('any other manifest (no ladder) plans every track as listed', () => {
    const p = new StreamProgress({ playedWithinMs: WITHIN });
    p.setWindow(windowOf(['p/15M', 'p/50M', 'p/a'], 10, 20));
    expect(p.plannedTracks(0)).toEqual(['p/15M', 'p/50M', 'p/a']);
    p.noteRequest(seg('p/15M', 12), 0);
    expect(p.plannedTracks(10 * WITHIN)).toEqual(['p/15M', 'p/50M', 'p/a']);
  });

  it('what is kept of requests is bounded by the MPD: a Representation the MPD drops is forgotten, and so is everything when the stream closes', () => {
    const p = ladder();
    p.noteRequest(seg('p/50M', 18), 0);
    expect(p.plannedTracks(0)).toEqual(['p/50M', 'p/a']);
    // A version without the 50M rung, then with it again: its requests are not remembered.
    p.setLadder(LADDER.filter((r) => r.track !== 'p/50M'));
    p.setLadder(LADDER);
    expect(p.plannedTracks(0)).toEqual(['p/15M', 'p/a']);
    p.noteRequest(seg('p/50M', 19), 0);
    p.setLadder(undefined);
    p.setLadder(LADDER);
    expect(p.plannedTracks(0)).toEqual(['p/15M', 'p/a']);
  });
});

describe('StreamProgress on a DASH ladder: s_seg is the played Representation’s', () => {
  it('before any fetch: the start choices’ @bandwidth × l_seg, summed over the sets', () => {
    const p = ladder();
    expect(p.segmentBytesEstimate(undefined, L, 0)).toBe(bytes(15e6) + bytes(32e3));
  });

  it('follows the played Representation: its measured mean, else its @bandwidth; the largest of the set’s played ones', () => {
    const p = ladder();
    p.sizes.note('p/15M', 3.7e6);
    p.sizes.note('p/a', 8e3);
    expect(p.segmentBytesEstimate(undefined, L, 0)).toBe(3.7e6 + 8e3);
    p.noteRequest(seg('p/15M', 15), 0);
    p.noteRequest(seg('p/50M', 16), 4000);
    // 50M is played, not measured yet: its advertised size.
    expect(p.segmentBytesEstimate(undefined, L, 4000)).toBe(bytes(50e6) + 8e3);
    p.sizes.note('p/50M', 12.4e6);
    expect(p.segmentBytesEstimate(undefined, L, 4000)).toBe(12.4e6 + 8e3);
    // A switch down: 50M counts until it goes unrequested for the window, then the 15M's.
    p.noteRequest(seg('p/15M', 17), 6000);
    expect(p.segmentBytesEstimate(undefined, L, 4000 + WITHIN)).toBe(12.4e6 + 8e3);
    expect(p.segmentBytesEstimate(undefined, L, 4001 + WITHIN)).toBe(3.7e6 + 8e3);
    // Not the sum over the ladder (what every Representation measured adds up to).
    expect(p.sizes.total).toBe(3.7e6 + 12.4e6 + 8e3);
  });

  it('a segment of a Representation never fetched is expected at its own @bandwidth × its length (a switch up’s miss is split by it)', () => {
    const p = ladder();
    expect(p.expectedBytes(seg('p/50M', 20))).toBe(bytes(50e6));
    p.sizes.note('p/50M', 12.2e6);
    expect(p.expectedBytes(seg('p/50M', 20))).toBe(12.2e6);
    expect(new StreamProgress().expectedBytes(seg('p/50M', 20))).toBeUndefined();
  });

  it('without a ladder, or without a clock, the estimate is what it was: the measured means added up, else the hint', () => {
    const p = new StreamProgress();
    expect(p.segmentBytesEstimate(8e6, L, 0)).toBe(2e6);
    p.sizes.note('v', 5e5);
    p.sizes.note('a', 1e4);
    expect(p.segmentBytesEstimate(8e6, L, 0)).toBe(5.1e5);
    const q = ladder();
    q.sizes.note('p/15M', 3e6);
    q.sizes.note('p/50M', 12e6);
    expect(q.segmentBytesEstimate(undefined, L)).toBe(15e6);
  });
});
