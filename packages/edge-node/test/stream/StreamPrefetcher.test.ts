import { loadManifest } from '@ethle/core';
import { describe, expect, it } from 'vitest';
import { SegmentCache } from '../../src/cache/SegmentCache.js';
import { StreamPrefetcher, type PrefetchBudgetFull, type StreamPrefetcherOptions } from '../../src/stream/StreamPrefetcher.js';

// Issue 36's soak: the edge said "cache too small for what the planner wants" 1,941 times in 30
// minutes. One cause: a segment prefetch counted every pending prefetch of its stream — LL-HLS
// part fetches (a preload hint is pending until the origin produces it) included — at a whole
// segment's size, so 6 pending parts of a 12.5 MB segment stood for 75 MB.

const LL = `#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0
#EXT-X-PART-INF:PART-TARGET=1.0
#EXT-X-MEDIA-SEQUENCE:266
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
`;

const MB = 1_000_000;

/** A prefetcher on an origin whose fetches never answer (every entry stays pending), x = 1. */
function prefetcher(maxBytes: number) {
  const fetched: string[] = [];
  const full: PrefetchBudgetFull[] = [];
  const bugs: Error[] = [];
  const noop = () => undefined;
  const cache = new SegmentCache({ maxBytes, maxAgeMs: 60_000, now: () => 0 });
  const p = new StreamPrefetcher({
    key: 'o/live/a/ll/index.m3u8',
    origin: { name: 'o', fetchInto: (path: string) => void fetched.push(path) } as unknown as StreamPrefetcherOptions['origin'],
    cache,
    now: () => 0,
    maxParallel: 1,
    hold: () => 1,
    bitrateHint: () => undefined,
    flowMbps: () => undefined,
    rttMs: () => undefined,
    minFetchDeadlineMs: 1000,
    // The hinted part and the five listed before it.
    prefetchParts: 5,
    on: {
      lead: noop,
      window: noop,
      needsHold: noop,
      burst: noop,
      tolerated: noop,
      budgetFull: (d) => full.push(d),
      planError: (e) => bugs.push(e),
    },
  });
  return { p, fetched, full, bugs, cache };
}

describe('StreamPrefetcher: what a prefetch counts as already on its way', () => {
  it('pending part fetches count at a part’s share of a segment, not a whole segment each', () => {
    const view = loadManifest(LL, {
      manifestUrl: 'http://o.test/live/a/ll/index.m3u8',
      originBase: 'http://o.test',
      routing: 'edge',
      edgePathPrefix: '',
      nowMs: 0,
      previousCarry: undefined,
    });
    // 10 MB segments of 4 s: a 1 s part is 2.5 MB. Six parts pending take 15 MB; the first
    // segment fits a 30 MB budget beside them (25 MB), the second does not (35 MB).
    const { p, fetched, full, bugs } = prefetcher(30 * MB);
    p.noteSize(view.segments(0)[0]!.track, 10 * MB);
    p.onVersion(view, false);
    expect(fetched.filter((f) => /\/p\d+\.\d\.mp4$/.test(f))).toHaveLength(6);
    p.plan();
    expect(bugs).toEqual([]);
    // Before: 6 × 10 MB + 10 MB = 70 MB wanted of a 30 MB budget — no segment prefetched at all.
    expect(fetched.filter((f) => /\/s\d+\.mp4$/.test(f))).toEqual(['/live/a/ll/s266.mp4']);
    expect(full).toEqual([{ segmentBytes: 10 * MB, pendingBytes: 25 * MB, cacheBytes: 0, transitBytes: 0, maxBytes: 30 * MB }]);
  });

  it('before any segment request, only where a new player starts is wanted: the rest of the window is evictable for a prefetch', () => {
    // An LL-HLS stream's players fetch parts: no segment of it is ever asked for. Ten segments
    // listed, three old ones cached (30 MB of a 40 MB budget); x = 1, so a new player would start
    // at s106 and the plan fetches s106 and s107 (two slots).
    const text = `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:100\n${Array.from({ length: 10 }, (_, i) => `#EXTINF:2.0,\ns${100 + i}.mp4\n`).join('')}`;
    const view = loadManifest(text, {
      manifestUrl: 'http://o.test/live/a/index.m3u8',
      originBase: 'http://o.test',
      routing: 'edge',
      edgePathPrefix: '',
      nowMs: 0,
      previousCarry: undefined,
    });
    const { p, fetched, full, bugs, cache } = prefetcher(40 * MB);
    p.noteSize(view.segments(0)[0]!.track, 10 * MB);
    const old = [100, 101, 102].map((n) => {
      const e = cache.create(`o/live/a/s${n}.mp4`);
      e.setHeaders({}, 10 * MB);
      cache.admit(e, 10 * MB, true);
      e.end();
      return e;
    });
    p.onVersion(view, false);
    p.plan();
    expect(bugs).toEqual([]);
    // Before: every listed segment of a track nobody asked for was wanted, and never evicted for
    // a prefetch — only s106 fitted (10 MB free), s107 was skipped.
    expect(old.map((e) => e.wanted)).toEqual([false, false, false]);
    expect(fetched).toEqual(['/live/a/s106.mp4', '/live/a/s107.mp4']);
    expect(full).toEqual([]);
    expect(cache.peek('o/live/a/s106.mp4')?.wanted).toBe(true);
  });
});
