import { describe, expect, it } from 'vitest';
import { backhaulSplit, metricSeries, objectClass } from '../bench/backhaulSplit.js';

// The soak's account of where origin bytes went (issue 36): the origin counts every whole-object
// request per path, the soak's own among them (its hash GETs, its size HEADs), which are not the
// edge's fetches.

describe('backhaulSplit', () => {
  it('names objects fetched more than once by class, without the soak’s own requests', () => {
    const sizes = new Map([
      ['/live/a/10.m4s', 1000],
      ['/live/a/ll/10.m4s', 1000],
      ['/live/a/ll/10.2.m4s', 250],
      ['/live/a/ll/10.3.m4s', 250],
    ]);
    const split = backhaulSplit(
      {
        // 10.m4s: the edge's fetch as 2 ranges, then again whole, plus the soak's hash GET.
        requests: {
          '/live/a/10.m4s': 4,
          '/live/a/ll/10.m4s': 1,
          '/live/a/ll/10.2.m4s': 2,
          '/live/a/ll/10.3.m4s': 1,
          '/live/a/ll/index.m3u8': 9,
        },
        fetches: {
          '/live/a/10.m4s': 3,
          '/live/a/ll/10.m4s': 1,
          '/live/a/ll/10.2.m4s': 2,
          '/live/a/ll/10.3.m4s': 1,
          '/live/a/ll/index.m3u8': 9,
        },
        // The soak's HEAD of 10.2 and hash GET of 10.m4s.
        own: new Map([
          ['/live/a/10.m4s', 1],
          ['/live/a/ll/10.2.m4s', 1],
        ]),
      },
      sizes,
      (p) => /\d\.m4s$/.test(p),
    );
    expect(split.byClass).toEqual({
      segment: { objects: 1, bytes: 1000, refetched: 1, extraFetches: 1, extraBytesAtMost: 1000, rangeRequests: 1 },
      'll-segment': { objects: 1, bytes: 1000, refetched: 0, extraFetches: 0, extraBytesAtMost: 0, rangeRequests: 0 },
      part: { objects: 2, bytes: 500, refetched: 0, extraFetches: 0, extraBytesAtMost: 0, rangeRequests: 0 },
    });
    expect(split.worst).toEqual([{ path: '/live/a/10.m4s', fetches: 2, bytes: 1000 }]);
  });

  it('reads a box’s series with their labels', () => {
    const text = [
      '# HELP ethle_origin_bytes_total bytes',
      'ethle_origin_bytes_total{origin="origin",kind="prefetch",outcome="ok",tier="parent"} 1200',
      'ethle_origin_bytes_total{origin="origin",kind="segment",outcome="timeout",tier="edge"} 3e+2',
      'ethle_origin_bytes_totalx 5',
    ].join('\n');
    expect(metricSeries(text, 'ethle_origin_bytes_total')).toEqual([
      { labels: { origin: 'origin', kind: 'prefetch', outcome: 'ok', tier: 'parent' }, value: 1200 },
      { labels: { origin: 'origin', kind: 'segment', outcome: 'timeout', tier: 'edge' }, value: 300 },
    ]);
    expect(['/live/a/7.m4s', '/live/a/ll/7.m4s', '/live/a/ll/7.1.m4s', '/live/a/ll/init.mp4', '/live/a/ts/7.ts'].map(objectClass)).toEqual([
      'segment',
      'll-segment',
      'part',
      'init',
      'segment',
    ]);
  });
});
