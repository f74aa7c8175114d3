import { afterEach, describe, expect, it } from 'vitest';
import type { SegmentRef } from '@ethle/core';
import { EdgeEvents } from '../../src/events/EdgeEvents.js';
import type { OriginFetchReport } from '../../src/origin/OriginFetchReport.js';
import { SegmentTimeline, type EntryInfo } from '../../src/timeline/SegmentTimeline.js';

// The timeline as the edge drives it: real typed events, a hand-driven clock, a window of refs.
const STREAM = 'origin/live/a/index.m3u8';
let t = 1_000_000;
const window = new Map<string, SegmentRef>();
const entries = new Map<string, EntryInfo>();
let timeline: SegmentTimeline | undefined;

function make(maxSegments = 200, maxStreams = 4) {
  const events = new EdgeEvents();
  timeline = new SegmentTimeline({
    events,
    lookup: (_o, p) => (window.has(p) ? { stream: STREAM, seg: window.get(p)! } : undefined),
    entryOf: (o, p) => entries.get(`${o}${p}`),
    now: () => t,
    maxSegments,
    maxStreams,
  });
  return { events, timeline };
}
/** The origin lists segment `id` (2 s): the edge sees it at `t`. */
function list(events: EdgeEvents, id: number, stream = STREAM) {
  const path = `/live/a/seg${id}.ts`;
  window.set(path, { track: 'main', id, path, durationSeconds: 2 });
  events.emit('segment-listed', { stream, origin: 'origin', paths: [path], at: t });
}
function fetched(events: EdgeEvents, id: number, totalMs: number, kind: 'prefetch' | 'segment' = 'prefetch') {
  const path = `/live/a/seg${id}.ts`;
  entries.set(`origin${path}`, {
    createdAt: t - totalMs,
    state: 'complete',
    headers: {
      'x-ethle-production-start': new Date(id * 2000).toISOString(),
      'x-ethle-production-end': new Date(id * 2000 + 2000).toISOString(),
    },
  });
  const r: OriginFetchReport = { origin: 'origin', path, kind, outcome: 'ok', status: 200, bytes: 1000, ttfbMs: 1, totalMs, parts: 1 };
  events.emit('origin-fetch', r);
}

afterEach(() => {
  timeline?.close();
  window.clear();
  entries.clear();
});

describe('SegmentTimeline', () => {
  it('holds the newest x, makes a segment visible when the one x later is listed, and counts the lead', () => {
    const { events, timeline } = make();
    for (let id = 10; id < 16; id++) {
      list(events, id);
      t += 50;
      fetched(events, id, 40);
      t += 1950;
    }
    // A receiver asked for 12 (a hit): 13 is complete beyond it; 14 and 15 are held.
    events.emit('segment-request', { origin: 'origin', path: '/live/a/seg12.ts?CMCD=x', result: 'hit', bytesAtEdge: 1000 });
    const s = timeline.snapshot(STREAM, 2)!;
    expect(s.hold).toBe(2);
    expect(s.held).toEqual({ main: 2 });
    expect(s.segments.filter((g) => g.held).map((g) => g.id)).toEqual([14, 15]);
    const byId = new Map(s.segments.map((g) => [g.id, g]));
    // 11 became visible when 13 was listed (two segments, 4 s later).
    expect(byId.get(11)!.visibleAt! - byId.get(11)!.listedAt).toBe(4000);
    expect(byId.get(14)!.visibleAt).toBeUndefined();
    expect(byId.get(12)).toMatchObject({
      requests: 1,
      firstResult: 'hit',
      fetchKind: 'prefetch',
      fetchOutcome: 'ok',
      productionEnd: 26_000,
    });
    expect(byId.get(12)!.fetchEnd! - byId.get(12)!.fetchStart!).toBe(40);
    expect(s.lead).toEqual({ main: 3 });
    // x = 0: every listed segment is visible at once, none held.
    const zero = timeline.snapshot(STREAM, 0)!;
    expect(zero.held).toEqual({ main: 0 });
    expect(zero.segments.every((g) => g.visibleAt === g.listedAt)).toBe(true);
  });

  it('shows a fetch in flight from its cache entry', () => {
    const { events, timeline } = make();
    list(events, 1);
    entries.set('origin/live/a/seg1.ts', { createdAt: t + 5, state: 'streaming', headers: {} });
    const [seg] = timeline.snapshot(STREAM, 1)!.segments;
    expect(seg).toMatchObject({ fetchStart: t + 5 });
    expect(seg!.fetchEnd).toBeUndefined();
  });

  it('is bounded per stream and in streams, and forgets an idle stream', () => {
    const { events, timeline } = make(5, 2);
    for (let id = 0; id < 12; id++) list(events, id);
    const ids = timeline.snapshot(STREAM, 1)!.segments.map((g) => g.id);
    expect(ids).toEqual([7, 8, 9, 10, 11]);
    // The evicted paths are forgotten too: a late fetch report of one records nothing.
    fetched(events, 0, 10);
    expect(timeline.snapshot(STREAM, 1)!.segments.some((g) => g.id === 0)).toBe(false);
    list(events, 20, 'b');
    list(events, 21, 'c');
    expect(timeline.streams()).toEqual(['b', 'c']);
    events.emit('stream-idle', { stream: 'b' });
    expect(timeline.streams()).toEqual(['c']);
    expect(timeline.snapshot('b', 1)).toBeUndefined();
  });

  it('stops listening on close', () => {
    const { events, timeline } = make();
    timeline.close();
    list(events, 1);
    expect(timeline.streams()).toEqual([]);
  });
});
