import { describe, expect, it } from 'vitest';
import { SegmentCache } from '../../src/cache/SegmentCache.js';
import { LiveStream } from '../../src/stream/LiveStream.js';
import type { ManifestPollerOptions } from '../../src/stream/ManifestPoller.js';
import { StreamPrefetcher, type StreamPrefetcherOptions } from '../../src/stream/StreamPrefetcher.js';
import { FakeClock, settle } from '../helpers/fakeClock.js';

const playlist = (first: number) =>
  `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:${first}\n${[0, 1, 2, 3].map((i) => `#EXTINF:2.0,\n${first + i}.m4s\n`).join('')}`;

/** A stream on a fake origin (its playlist starts at `first`) and a hand-driven clock; the prefetch fetches nothing. */
function stream(first: { n: number }, onVersion: () => void = () => undefined) {
  const clock = new FakeClock();
  const bugs: Error[] = [];
  const fetched: string[] = [];
  const origin = {
    name: 'o',
    url: 'http://origin.test',
    upstreamRttMs: undefined,
    absolute: (p: string) => `http://origin.test${p}`,
    fetchText: async (path: string) => ({ text: playlist(first.n), path, headers: {} }),
    fetchInto: (path: string) => void fetched.push(path),
  };
  const now = () => clock.nowMs;
  const noop = () => undefined;
  const prefetcher = new StreamPrefetcher({
    key: 'o/live/index.m3u8',
    origin: origin as unknown as StreamPrefetcherOptions['origin'],
    cache: new SegmentCache({ maxBytes: 1e9, maxAgeMs: 60_000, now }),
    now,
    timers: clock,
    maxParallel: 4,
    hold: () => 0,
    bitrateHint: () => undefined,
    flowMbps: () => undefined,
    rttMs: () => undefined,
    minFetchDeadlineMs: 1000,
    prefetchParts: 0,
    on: { lead: noop, window: noop, needsHold: noop, burst: noop, tolerated: noop, budgetFull: noop, planError: (e) => bugs.push(e) },
  });
  const s = new LiveStream({
    key: 'o/live/index.m3u8',
    path: '/live/index.m3u8',
    now,
    timers: clock,
    maxBlocked: 2,
    prefetcher,
    poll: {
      origin: origin as unknown as ManifestPollerOptions['origin'],
      edgePathPrefix: '',
      fetchDeadlineMs: 5_000,
      now,
      timers: clock,
      onError: noop,
      onWarning: noop,
    },
    onVersion,
    onBug: (e) => bugs.push(e),
  });
  return { s, clock, bugs, fetched };
}

describe('LiveStream', () => {
  it('keeps one held text per version × x, and a new version replaces them', async () => {
    const first = { n: 10 };
    const { s, clock } = stream(first);
    const v = await s.ready();
    const a = s.held(v, 1, undefined);
    const b = s.held(v, 1, undefined);
    expect([a.fresh, b.fresh]).toEqual([true, false]);
    expect(b.body).toBe(s.held(v, 1, undefined).body);
    // With a token (a multivariant playlist per receiver): never kept.
    expect(s.held(v, 1, 'tok').fresh).toBe(true);
    first.n = 11;
    await clock.next();
    const v2 = s.version!;
    expect(v2.n).toBe(2);
    expect(s.held(v2, 1, undefined).fresh).toBe(true);
    s.close();
  });

  it('a new version wakes the parked reloads it satisfies, even when a hook on it throws', async () => {
    const first = { n: 10 };
    const { s, clock, bugs } = stream(first, () => {
      throw new Error('registry bug');
    });
    await s.ready();
    const parked = s.waitFor((v) => v.view.firstId === 11, 10_000);
    expect(s.blockedCount).toBe(1);
    first.n = 11;
    await clock.next();
    expect((await parked)?.view.firstId).toBe(11);
    expect(s.blockedCount).toBe(0);
    expect(bugs.map((e) => e.message)).toEqual(['registry bug', 'registry bug']);
    s.close();
  });

  it('a parked reload ends at its deadline or when the stream closes; the bound is refused at once', async () => {
    const { s, clock } = stream({ n: 10 });
    await s.ready();
    const timedOut = s.waitFor(() => false, 6_000);
    const closed = s.waitFor(() => false, 60_000);
    expect(() => s.waitFor(() => false, 1_000)).toThrow(expect.objectContaining({ code: 'ERR_EDGE_BLOCKED_FULL' }));
    while (s.blockedCount === 2) await clock.next();
    expect(await timedOut).toBeUndefined();
    s.close();
    expect(await closed).toBeUndefined();
    expect(s.blockedCount).toBe(0);
    await settle();
  });
});
