import { loadManifest } from '@ethle/core';
import { describe, expect, it } from 'vitest';
import type { CacheEntry } from '../../src/cache/CacheEntry.js';
import { SegmentCache } from '../../src/cache/SegmentCache.js';
import { StreamPrefetcher, type PrefetchBudgetFull, type StreamPrefetcherOptions } from '../../src/stream/StreamPrefetcher.js';

// What the planner counts against the cache budget, and when it fetches a segment again.

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

/** The manifest at `path` on origin o.test, as the edge loads it. */
const viewOf = (text: string, path: string) =>
  loadManifest(text, {
    manifestUrl: `http://o.test${path}`,
    originBase: 'http://o.test',
    routing: 'edge',
    edgePathPrefix: '',
    nowMs: 0,
    previousCarry: undefined,
  });

/** Ten 2 s segments, s100 to s109. */
const TEN = `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:100\n${Array.from({ length: 10 }, (_, i) => `#EXTINF:2.0,\ns${100 + i}.mp4\n`).join('')}`;

/**
 * A prefetcher at x = 1 on an origin whose fetches never answer (every entry stays pending)
 * unless `fetchInto` says otherwise; by default the LL stream's, prefetching the hinted part and
 * the five listed before it.
 */
function prefetcher(
  maxBytes: number,
  o: {
    key?: string;
    now?: () => number;
    maxParallel?: number;
    prefetchParts?: number;
    maxAgeMs?: number;
    fetchInto?: (path: string, entry: CacheEntry) => void;
  } = {},
) {
  const fetched: string[] = [];
  const full: PrefetchBudgetFull[] = [];
  const bugs: Error[] = [];
  const noop = () => undefined;
  const now = o.now ?? (() => 0);
  const cache = new SegmentCache({ maxBytes, maxAgeMs: o.maxAgeMs ?? 60_000, now });
  const fetchInto = (path: string, entry: CacheEntry) => {
    fetched.push(path);
    o.fetchInto?.(path, entry);
  };
  const p = new StreamPrefetcher({
    key: o.key ?? 'o/live/a/ll/index.m3u8',
    origin: { name: 'o', fetchInto } as unknown as StreamPrefetcherOptions['origin'],
    cache,
    now,
    maxParallel: o.maxParallel ?? 1,
    hold: () => 1,
    bitrateHint: () => undefined,
    flowMbps: () => undefined,
    rttMs: () => undefined,
    minFetchDeadlineMs: 1000,
    prefetchParts: o.prefetchParts ?? 5,
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
    const view = viewOf(LL, '/live/a/ll/index.m3u8');
    // 10 MB segments of 4 s: a 1 s part is 2.5 MB. Six parts pending take 15 MB; the first
    // segment fits a 30 MB budget beside them (25 MB), the second does not (35 MB).
    const { p, fetched, full, bugs } = prefetcher(30 * MB);
    p.noteSize(view.segments(0)[0]!.track, 10 * MB);
    p.onVersion(view, false);
    expect(fetched.filter((f) => /\/p\d+\.\d\.mp4$/.test(f))).toHaveLength(6);
    p.plan();
    expect(bugs).toEqual([]);
    // Counted at a whole segment each, the six parts would stand for 60 MB and nothing would fit.
    expect(fetched.filter((f) => /\/s\d+\.mp4$/.test(f))).toEqual(['/live/a/ll/s266.mp4']);
    expect(full).toEqual([{ segmentBytes: 10 * MB, pendingBytes: 25 * MB, cacheBytes: 0, transitBytes: 0, maxBytes: 30 * MB }]);
  });

  it('before any segment request, only where a new player starts is wanted: the rest of the window is evictable for a prefetch', () => {
    // An LL-HLS stream's players fetch parts: no segment of it is ever asked for. Ten segments
    // listed, three old ones cached (30 MB of a 40 MB budget); x = 1, so a new player would start
    // at s106 and the plan fetches s106 and s107 (two slots).
    const view = viewOf(TEN, '/live/a/index.m3u8');
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
    // The old segments give way: were they wanted, only s106 would fit (10 MB free).
    expect(old.map((e) => e.wanted)).toEqual([false, false, false]);
    expect(fetched).toEqual(['/live/a/s106.mp4', '/live/a/s107.mp4']);
    expect(full).toEqual([]);
    expect(cache.peek('o/live/a/s106.mp4')?.wanted).toBe(true);
  });
});

describe('StreamPrefetcher: each segment crosses the backhaul once for the plan', () => {
  // The plan keeps [most, most + x] local: the most advanced receiver's segment must stay wanted,
  // and an object the cache evicted whole is not prefetched again (a receiver's request may
  // still fetch it), or a stalled head is fetched once per segment period.
  it('keeps the head segment wanted, and never prefetches a segment again once it was evicted whole', () => {
    const view = viewOf(TEN, '/live/a/index.m3u8');
    const clock = { ms: 0 };
    const pending: { path: string; entry: CacheEntry }[] = [];
    // Room for two 10 MB segments and a half.
    const { p, fetched, bugs, cache } = prefetcher(25 * MB, {
      key: 'o/live/a/index.m3u8',
      now: () => clock.ms,
      maxParallel: 2,
      prefetchParts: 0,
      maxAgeMs: 600_000,
      fetchInto: (path, entry) => void pending.push({ path, entry }),
    });
    // The origin answers every fetch started so far: 10 MB each, kept.
    const answer = () => {
      for (const { entry } of pending.splice(0)) {
        entry.setHeaders({}, 10 * MB);
        cache.admit(entry, 10 * MB, false);
        entry.end();
      }
    };
    p.noteSize(view.segments(0)[0]!.track, 10 * MB);
    p.onVersion(view, false);
    p.plan(); // where a new player would start
    answer();
    // A receiver plays s108: the plan wants s108 and s109 (x = 1) and fetches both.
    p.noteRequest(p.segmentFor('/live/a/s108.mp4')!);
    answer();
    p.plan();
    expect(bugs).toEqual([]);
    expect(fetched.filter((f) => f === '/live/a/s108.mp4')).toHaveLength(1);
    expect(cache.peek('o/live/a/s108.mp4')?.wanted).toBe(true);

    // Another stream's receiver needs the room: the cache evicts s108 (the oldest it may take).
    const other = cache.create('o/live/b/x.mp4');
    other.setHeaders({}, 10 * MB);
    expect(cache.admit(other, 10 * MB, true)).toBe(true);
    other.end();
    expect(cache.has('o/live/a/s108.mp4')).toBe(false);

    // The receivers have stopped: the head stays s108 while the plan runs on.
    for (let i = 0; i < 5; i++) {
      clock.ms += 3000;
      p.plan();
      answer();
    }
    expect(bugs).toEqual([]);
    expect(fetched.filter((f) => f === '/live/a/s108.mp4')).toHaveLength(1);
  });
});

describe('StreamPrefetcher on a DASH ladder: what its receivers play', () => {
  // The origin's `15M+50M-2s` ladder (packages/live-origin dashMpd): one video set with a 15 and a
  // 50 Mbit/s Representation, one audio set; 2 s segments numbered from the epoch.
  const LADDER_MPD = `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="dynamic"
  availabilityStartTime="1970-01-01T00:00:00Z" minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT120S" maxSegmentDuration="PT2S">
  <Period id="0" start="PT0S">
    <AdaptationSet id="0" contentType="video" mimeType="video/mp4">
      <SegmentTemplate timescale="1000" duration="2000" startNumber="0" initialization="$RepresentationID$/dash/v/init.mp4" media="$RepresentationID$/dash/v/$Number$.m4s"/>
      <Representation id="15M-2s" bandwidth="15000000"/>
      <Representation id="50M-2s" bandwidth="50000000"/>
    </AdaptationSet>
    <AdaptationSet id="1" contentType="audio" mimeType="audio/mp4">
      <SegmentTemplate timescale="1000" duration="2000" startNumber="0" initialization="15M-2s/dash/a/init.mp4" media="15M-2s/dash/a/$Number$.m4s"/>
      <Representation id="a32k" bandwidth="32000"/>
    </AdaptationSet>
  </Period>
</MPD>`;
  const IDLE = 30_000;
  /** Segment n is available at (n + 1) × 2 s: at T the newest is 499. */
  const T = 1_000_000;
  const rung = (paths: readonly string[], name: string) => paths.filter((f) => f.startsWith(`/live/${name}/dash/v/`));

  /** The prefetcher at x = 1 after the first MPD request; `answer` completes every fetch started so far (1 MB each). */
  function ladder() {
    const clock = { ms: T };
    const pending: CacheEntry[] = [];
    const h = prefetcher(1000 * MB, {
      key: 'o/live/master.mpd',
      now: () => clock.ms,
      maxParallel: 4,
      prefetchParts: 0,
      maxAgeMs: 600_000,
      fetchInto: (_path, entry) => void pending.push(entry),
    });
    const answer = () => {
      for (const entry of pending.splice(0)) {
        entry.setHeaders({}, MB);
        h.cache.admit(entry, MB, false);
        entry.end();
      }
    };
    const view = viewOf(LADDER_MPD, '/live/master.mpd');
    h.p.onVersion(view, false);
    h.p.plan();
    const request = (name: string, n: number) => h.p.noteRequest(h.p.segmentFor(`/live/${name}/dash/v/${n}.m4s`)!);
    const wanted = (name: string, n: number) => h.cache.peek(`o/live/${name}/dash/v/${n}.m4s`)?.wanted;
    return { ...h, clock, view, request, wanted, answer };
  }

  it('before any segment request only the Representation players start on is prefetched (and audio)', () => {
    const { fetched, bugs } = ladder();
    expect(bugs).toEqual([]);
    // x = 1: a player would start at 496 (newest − x − 2); the plan fetches from there, x + 1 at once.
    expect(rung(fetched, '15M-2s')).toEqual(['/live/15M-2s/dash/v/496.m4s', '/live/15M-2s/dash/v/497.m4s']);
    expect(fetched.filter((f) => f.includes('/dash/a/'))).toHaveLength(2);
    expect(rung(fetched, '50M-2s')).toEqual([]);
  });

  it('a requested Representation is prefetched from its head; the one left stays wanted for the idle window, then is not', () => {
    const { p, fetched, bugs, clock, request, wanted, answer } = ladder();
    answer();
    // dash.js starts on 15M: the plan keeps [head, head + x] of it.
    request('15M-2s', 497);
    answer();
    expect(rung(fetched, '15M-2s')).toEqual([496, 497, 498].map((n) => `/live/15M-2s/dash/v/${n}.m4s`));
    // It switches up: nothing of the 50M rung was fetched for it. Its first 50M request is a miss
    // (the edge's segment handler fetches it; this harness has none, so the plan does) and the
    // plan fetches the x after it.
    clock.ms += 2000;
    p.plan();
    answer();
    expect(rung(fetched, '50M-2s')).toEqual([]);
    request('50M-2s', 499);
    answer();
    expect(rung(fetched, '50M-2s')).toEqual(['/live/50M-2s/dash/v/499.m4s', '/live/50M-2s/dash/v/500.m4s']);
    // The player goes on at 50M; the 15M rung's head stays wanted while it may switch back.
    let n = 500;
    for (; clock.ms - T <= IDLE + 2000; n++) {
      clock.ms += 2000;
      p.plan();
      answer();
      request('50M-2s', n);
      answer();
      const played = clock.ms - T <= IDLE;
      expect(wanted('15M-2s', 497)).toBe(played);
      expect(wanted('15M-2s', 498)).toBe(played);
      expect(wanted('50M-2s', n)).toBe(true);
      expect(wanted('50M-2s', n + 1)).toBe(true);
    }
    // Each 50M segment from the head to the last head + x was fetched once, in order; no 15M one
    // after the player left it.
    expect(rung(fetched, '50M-2s')).toEqual(Array.from({ length: n - 499 + 1 }, (_, i) => `/live/50M-2s/dash/v/${499 + i}.m4s`));
    expect(rung(fetched, '15M-2s')).toHaveLength(3);
    expect(bugs).toEqual([]);
  });

  it('s_seg follows the played Representation, not the sum over the ladder', () => {
    const { p, view, clock, request } = ladder();
    const sSeg = () => p.progress.segmentBytesEstimate(view.bitrateHintBps, view.segmentSeconds, clock.ms);
    // Before any fetch: 15 Mbit/s + 32 kbit/s for 2 s.
    expect(sSeg()).toBe(3_758_000);
    p.noteSize('0/15M-2s', 3.7 * MB);
    p.noteSize('0/a32k', 8000);
    p.noteSize('0/50M-2s', 12.5 * MB);
    expect(sSeg()).toBe(3.7 * MB + 8000);
    request('50M-2s', 499);
    expect(sSeg()).toBe(12.5 * MB + 8000);
  });
});
