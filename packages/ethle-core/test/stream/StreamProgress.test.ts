import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planPrefetch, prefetchRetryMs, SIZE_SAMPLES, StreamProgress, type SegmentRef } from '@ethle/core';

const seg = (id: number, track = 'v', extra: Partial<SegmentRef> = {}): SegmentRef => ({
  track,
  id,
  path: `/${track}/${id}.m4s`,
  durationSeconds: 2,
  ...extra,
});
const window = (from: number, to: number, track = 'v') => Array.from({ length: to - from + 1 }, (_, i) => seg(from + i, track));

describe('StreamProgress: the window', () => {
  it('says which paths (without query) appeared and which left between versions', () => {
    const p = new StreamProgress();
    expect(p.setWindow(window(1, 3))).toEqual({ added: ['/v/1.m4s', '/v/2.m4s', '/v/3.m4s'], removed: [] });
    expect(p.setWindow([...window(2, 4), { ...seg(5), path: '/v/5.m4s?token=a' }])).toEqual({
      added: ['/v/4.m4s', '/v/5.m4s'],
      removed: ['/v/1.m4s'],
    });
    expect(p.segmentFor('/v/5.m4s')?.id).toBe(5);
    expect(p.segmentFor('/v/1.m4s')).toBeUndefined();
    expect(p.setWindow([])).toEqual({ added: [], removed: ['/v/2.m4s', '/v/3.m4s', '/v/4.m4s', '/v/5.m4s'] });
  });

  it('applying the diffs in order always gives the current window (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 12 }), { maxLength: 8 }), (versions) => {
        const p = new StreamProgress();
        const index = new Set<string>();
        for (const ids of versions) {
          const d = p.setWindow(ids.sort((a, b) => a - b).map((id) => seg(id)));
          for (const r of d.removed) index.delete(r);
          for (const a of d.added) index.add(a);
          expect([...index].sort()).toEqual([...p.paths()].sort());
        }
      }),
    );
  });

  it('keeps tracks apart: ids are per track', () => {
    const p = new StreamProgress();
    p.setWindow([...window(1, 3, 'v'), ...window(1, 3, 'a')]);
    expect([...p.tracks()]).toEqual(['v', 'a']);
    expect(p.noteRequest(seg(2, 'v'))).toBe(true);
    expect(p.noteRequest(seg(1, 'v'))).toBe(false);
    expect(p.noteRequest(seg(1, 'a'))).toBe(true);
    expect(p.mostAdvanced('v')).toBe(2);
    expect(p.mostAdvanced('a')).toBe(1);
  });
});

describe('StreamProgress: sizes', () => {
  it('s_seg is the per-track means added up (video + audio in one segment period)', () => {
    const p = new StreamProgress();
    expect(p.sizes.total).toBeUndefined();
    p.sizes.note('v', 1000);
    p.sizes.note('v', 3000);
    p.sizes.note('a', 100);
    expect(p.sizes.track('v')).toBe(2000);
    expect(p.sizes.total).toBe(2100);
  });

  it('a constant size gives a constant mean however many arrive; only the recent ones count', () => {
    const p = new StreamProgress();
    for (let i = 0; i < 50; i++) p.sizes.note('v', 777);
    expect(p.sizes.track('v')).toBe(777);
    for (let i = 0; i < SIZE_SAMPLES; i++) p.sizes.note('v', 100);
    expect(p.sizes.track('v')).toBe(100);
  });

  it('the estimate is the measured mean once there is one, else the advertised bitrate × l_seg', () => {
    const p = new StreamProgress();
    expect(p.segmentBytesEstimate(undefined, 2)).toBeUndefined();
    expect(p.segmentBytesEstimate(8e6, 2)).toBe(2e6);
    expect(p.segmentBytesEstimate(8e6, 0)).toBeUndefined();
    expect(p.expectedBytes(seg(1), 8e6)).toBe(2e6);
    p.sizes.note('v', 5e5);
    expect(p.segmentBytesEstimate(8e6, 2)).toBe(5e5);
    expect(p.expectedBytes(seg(1), 8e6)).toBe(5e5);
    expect(p.expectedBytes(seg(1, 'a'))).toBeUndefined();
  });
});

describe('StreamProgress: the planner input and the lead', () => {
  it('feeds planPrefetch: x ahead of the most advanced request, x + 1 parallel within the cap', () => {
    const p = new StreamProgress();
    p.setWindow(window(10, 20));
    p.noteRequest(seg(14));
    const local = new Map<number, 'complete' | 'pending'>([
      [15, 'complete'],
      [16, 'pending'],
    ]);
    const input = p.plannerInput('v', (s) => local.get(s.id), { hold: 3, maxHold: 4 });
    expect(input).toMatchObject({
      produced: window(10, 20).map((s) => s.id),
      mostAdvanced: 14,
      inFlightCount: 1,
      hold: 3,
      maxParallel: 4,
      burstParallel: 5,
      // Ranges per visible fetch: the plan ranks them in need order (rangesByNeed).
      maxSplit: 4,
    });
    expect(planPrefetch(input).fetch).toEqual([14, 17]);
    expect(p.trackLead('v', input.cached)).toBe(1);
    // The cap bounds the parallel fetches whatever x is.
    expect(p.plannerInput('v', () => undefined, { hold: 9, maxHold: 2 }).maxParallel).toBe(3);
    expect(p.plannerInput('v', () => undefined, { hold: 0, maxHold: 2 }).maxParallel).toBe(2);
  });

  it('has no lead before any request', () => {
    const p = new StreamProgress();
    p.setWindow(window(1, 5));
    expect(p.trackLead('v', new Set([1, 2, 3]))).toBeUndefined();
  });

  it('deadlines: production + x segment lengths, the newest segment sets the tolerance, undefined without a size or x', () => {
    const p = new StreamProgress();
    p.setWindow([seg(1, 'v', { availableAtMs: 10_000 }), seg(2, 'v', { availableAtMs: 12_000, durationSeconds: 4 })]);
    const inputs = {
      nowMs: 12_500,
      flowBps: 8e6,
      maxSplit: 4,
      fetches: { receivedBytes: (s: SegmentRef) => s.id * 100, fetchElapsedMs: () => 50, recentBps: () => undefined },
    };
    expect(p.deadlines('v', 2, inputs)).toBeUndefined();
    p.sizes.note('v', 1e6);
    expect(p.deadlines('v', 0, inputs)).toBeUndefined();
    const d = p.deadlines('v', 2, inputs)!;
    expect(d.deadlineMs(1)).toBe(14_000);
    expect(d.deadlineMs(2)).toBe(20_000);
    expect(d.deadlineMs(3)).toBeUndefined();
    expect(d.segmentBytes(2)).toBe(1e6);
    expect(d.receivedBytes!(2)).toBe(200);
    expect(d.receivedBytes!(9)).toBeUndefined();
    expect(d.toleranceMs).toBe(2000);
    expect(d.firstByteMs).toBeUndefined();
  });

  it('a segment that left the store is not prefetched again within its own length (at least 1 s)', () => {
    expect(prefetchRetryMs(seg(1, 'v', { durationSeconds: 4 }))).toBe(4000);
    expect(prefetchRetryMs(seg(1, 'v', { durationSeconds: 0.2 }))).toBe(1000);
  });
});
