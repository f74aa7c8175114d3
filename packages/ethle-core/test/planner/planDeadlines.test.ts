import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EthleError, planDeadlines, planPrefetch, segmentDeadlineMs, type PrefetchDeadlines, type PrefetchInput } from '@ethle/core';

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

// 15M-2s over the 224 ms backhaul, x = 2: 3.7 MB (29.6 Mbit) segments, one every 2 s. Segment n is
// produced at n·2000 ms, so with x = 2 it becomes visible at (n + 2)·2000 ms.
const L = 2;
const X = 2;
const producedAt = (id: number) => id * L * 1000;
const deadlines = (nowMs: number, flowMbps: number, extra: Partial<PrefetchDeadlines> = {}): PrefetchDeadlines => ({
  nowMs,
  flowBps: flowMbps * 1e6,
  segmentBytes: () => 3.7e6,
  deadlineMs: (id) => segmentDeadlineMs(producedAt(id), X, L),
  firstByteMs: 224,
  ...extra,
});
const keepLead = (d: PrefetchDeadlines, extra: Partial<PrefetchInput> = {}) =>
  // The receiver is at 3, segments 4 and 5 are local; 5 was just produced (now = 10 s).
  planPrefetch({
    produced: range(0, 5),
    mostAdvanced: 3,
    cached: new Set([3, 4]),
    inFlight: new Set(),
    inFlightCount: 0,
    hold: X,
    maxParallel: 8,
    deadlines: d,
    ...extra,
  });

describe('segmentDeadlineMs', () => {
  it('is production + x·l_seg', () => {
    expect(segmentDeadlineMs(10_000, 2, 2)).toBe(14_000);
    expect(segmentDeadlineMs(10_000, 0, 2)).toBe(10_000);
    expect(() => segmentDeadlineMs(0, -1, 2)).toThrow(EthleError);
  });
});

describe('planPrefetch with deadlines', () => {
  it('one flow meets the deadline: 12 Mbit/s takes 2.47 s of the 3.78 s left — no split, no larger x', () => {
    const p = keepLead(deadlines(10_000, 12));
    expect(p.fetch).toEqual([5]);
    expect(p.split).toEqual([]);
    expect(p.late).toEqual([]);
    expect(p.needsHold).toBeUndefined();
  });

  it('a fetch that one flow cannot finish in time is split into the fewest ranges that do', () => {
    // 6 Mbit/s: 4.93 s on one flow > 3.78 s; two ranges: 2.47 s, done at 12.69 s < 14 s.
    const p = keepLead(deadlines(10_000, 6));
    expect(p.split).toMatchObject([{ id: 5, ranges: 2, deadlineMs: 14_000 }]);
    expect(p.split![0]!.projectedMs).toBeCloseTo(10_000 + 224 + 2466.7, 0);
    expect(p.needsHold).toBeUndefined();
    // 2 Mbit/s: 14.8 s on one flow, ⌈14.8 / 3.776⌉ = 4 ranges: 3.7 s, done at 13.92 s.
    expect(keepLead(deadlines(10_000, 2)).split).toMatchObject([{ id: 5, ranges: 4 }]);
  });

  it('beyond the most ranges allowed, the plan asks for x + 1', () => {
    // 1.5 Mbit/s: 19.7 s on one flow needs 6 ranges; 4 allowed give 4.93 s, done at 15.16 s > 14 s.
    const p = keepLead(deadlines(10_000, 1.5));
    expect(p.split).toMatchObject([{ id: 5, ranges: 4 }]);
    expect(p.late).toMatchObject([{ id: 5, deadlineMs: 14_000, inFlight: false }]);
    expect(p.late![0]!.projectedMs).toBeCloseTo(15_157, 0);
    expect(p.needsHold).toBe(3);
    // With 8 ranges allowed it fits again (2.47 s): no larger x.
    expect(keepLead(deadlines(10_000, 1.5, { maxSplit: 8 }))).toMatchObject({ split: [{ id: 5, ranges: 6 }], late: [] });
  });

  it('a miss within the tolerance stays in late, marked tolerated, and does not ask for x + 1; beyond it, it does', () => {
    // As above: projected at 15.16 s against 14 s, 1.16 s late.
    const within = keepLead(deadlines(10_000, 1.5, { toleranceMs: 1200 }));
    expect(within.late).toMatchObject([{ id: 5, tolerated: true }]);
    expect(within.needsHold).toBeUndefined();
    const beyond = keepLead(deadlines(10_000, 1.5, { toleranceMs: 1100 }));
    expect(beyond.late).toMatchObject([{ id: 5 }]);
    expect(beyond.late![0]!.tolerated).toBeUndefined();
    expect(beyond.needsHold).toBe(3);
    // A backlog (produced 3 s before it is wanted) is not marked: the tolerance does not spare it, its late start does.
    const backlog = keepLead(deadlines(10_000, 1.5, { toleranceMs: 1200, producedAtMs: (id) => producedAt(id) - 3000 }));
    expect(backlog.late).toMatchObject([{ id: 5, backlog: true }]);
    expect(backlog.late![0]!.tolerated).toBeUndefined();
    // A fetch started at 4's production (8 s) that has 0.1 MB after 2 s of an expected 0.72 s (60
    // Mbit/s) is projected at its own rate, a minute away: a hanging origin still raises x.
    const hung = deadlines(10_000, 60, {
      toleranceMs: 1000,
      receivedBytes: (id) => (id === 4 ? 0.1e6 : undefined),
      fetchElapsedMs: (id) => (id === 4 ? 2000 : undefined),
    });
    const h = planPrefetch({
      produced: range(0, 5),
      mostAdvanced: 3,
      cached: new Set([3, 5]),
      inFlight: new Set([4]),
      inFlightCount: 1,
      hold: X,
      maxParallel: 8,
      deadlines: hung,
    });
    expect(h.late).toMatchObject([{ id: 4, inFlight: true }]);
    expect(h.late![0]!.projectedMs - h.late![0]!.deadlineMs).toBeGreaterThan(30_000);
    expect(h.late![0]!.tolerated).toBeUndefined();
    expect(h.needsHold).toBe(3);
  });

  it('splits only use the parallel budget left after every wanted segment has its fetch', () => {
    // Receiver at 3, nothing local, 3 fetches allowed: 3, 4, 5 take all three; no range to spare.
    const tight = planPrefetch({
      produced: range(0, 5),
      mostAdvanced: 3,
      cached: new Set(),
      inFlight: new Set(),
      inFlightCount: 0,
      hold: X,
      maxParallel: 3,
      deadlines: deadlines(10_000, 2),
    });
    expect(tight.fetch).toEqual([3, 4, 5]);
    expect(tight.split).toEqual([]);
    // 3's deadline (10 s) has passed, 4's (12 s) is 1.78 s away on a 14.8 s fetch: both late.
    expect(tight.late!.map((l) => l.id)).toEqual([3, 4, 5]);
    expect(tight.needsHold).toBe(3);
    // Five allowed: two spare connections go to the earliest deadline first.
    const roomy = planPrefetch({
      produced: range(0, 5),
      mostAdvanced: 3,
      cached: new Set(),
      inFlight: new Set(),
      inFlightCount: 0,
      hold: X,
      maxParallel: 5,
      deadlines: deadlines(10_000, 2),
    });
    expect(roomy.split).toMatchObject([{ id: 3, ranges: 3 }]);
  });

  it('an in-flight fetch projected past its deadline asks for x + 1', () => {
    // 4 produced at 8 s, visible at 12 s; 1 MB of 3.7 MB in at 10 s, 6 Mbit/s: 3.6 s more → 13.6 s.
    const d = deadlines(10_000, 6, { receivedBytes: (id) => (id === 4 ? 1e6 : undefined) });
    const p = planPrefetch({
      produced: range(0, 5),
      mostAdvanced: 3,
      cached: new Set([3, 5]),
      inFlight: new Set([4]),
      inFlightCount: 1,
      hold: X,
      maxParallel: 8,
      deadlines: d,
    });
    expect(p.fetch).toEqual([]);
    expect(p.late).toMatchObject([{ id: 4, inFlight: true, deadlineMs: 12_000 }]);
    expect(p.late![0]!.projectedMs).toBeCloseTo(13_600, 0);
    expect(p.needsHold).toBe(3);
    // With 2.5 MB in, 1.6 s more: done at 11.6 s, in time.
    const q = planPrefetch({
      produced: range(0, 5),
      mostAdvanced: 3,
      cached: new Set([3, 5]),
      inFlight: new Set([4]),
      inFlightCount: 1,
      hold: X,
      maxParallel: 8,
      deadlines: { ...d, receivedBytes: () => 2.5e6 },
    });
    expect(q).toMatchObject({ late: [], split: [] });
    expect(q.needsHold).toBeUndefined();
  });

  it('an in-flight fetch slower than the measured flow rate is projected at its own rate', () => {
    // 4 started at 8 s (first byte 224 ms later); at 10 s it has 1 MB: 1 MB in 1.776 s of body is
    // 4.5 Mbit/s, so 2.7 MB more take 4.8 s → 14.8 s, past 12 s — though the measured 60 Mbit/s
    // flow rate of earlier fetches would project 10.36 s.
    const own = deadlines(10_000, 60, {
      receivedBytes: (id) => (id === 4 ? 1e6 : undefined),
      fetchElapsedMs: (id) => (id === 4 ? 2000 : undefined),
    });
    const p = planPrefetch({
      produced: range(0, 5),
      mostAdvanced: 3,
      cached: new Set([3, 5]),
      inFlight: new Set([4]),
      inFlightCount: 1,
      hold: X,
      maxParallel: 8,
      deadlines: own,
    });
    expect(p.late).toMatchObject([{ id: 4, inFlight: true, deadlineMs: 12_000 }]);
    expect(p.late![0]!.projectedMs).toBeCloseTo(10_000 + 2.7e6 / (1e6 / 1776), -1);
    expect(p.needsHold).toBe(3);
    // Too little to tell (nothing in yet, or under 100 ms of body): the flow rate stands.
    for (const early of [
      { receivedBytes: () => 0, fetchElapsedMs: () => 2000 },
      { receivedBytes: () => 1e5, fetchElapsedMs: () => 300 },
    ]) {
      const q = planPrefetch({
        produced: range(0, 5),
        mostAdvanced: 3,
        cached: new Set([3, 5]),
        inFlight: new Set([4]),
        inFlightCount: 1,
        hold: X,
        maxParallel: 8,
        deadlines: deadlines(10_000, 60, early),
      });
      expect(q.late).toEqual([]);
    }
    // In slow start, not slow: 15M-4s (7.5 MB, 4 s segments) at 224 ms, measured 80 Mbit/s, so
    // the whole segment is expected in 0.97 s; 0.8 s in, a fresh flow has 155 kB (2 Mbit/s so far).
    // Its own rate would project 28 s; before twice the expected time the flow rate stands.
    const ss = (elapsedMs: number, got: number) =>
      planPrefetch({
        produced: range(0, 5),
        mostAdvanced: 3,
        cached: new Set([3, 5]),
        inFlight: new Set([4]),
        inFlightCount: 1,
        hold: X,
        maxParallel: 8,
        deadlines: { ...deadlines(10_000, 80, { receivedBytes: () => got, fetchElapsedMs: () => elapsedMs }), segmentBytes: () => 7.5e6 },
      });
    expect(ss(800, 155e3).late).toEqual([]);
    // Still at 155 kB 2.5 s in (past twice 0.97 s): slow, projected at its own rate, late.
    expect(ss(2500, 155e3).late).toMatchObject([{ id: 4, inFlight: true }]);
    // Faster than the flow rate: the flow rate (the lower) still decides.
    const fast = planPrefetch({
      produced: range(0, 5),
      mostAdvanced: 3,
      cached: new Set([3, 5]),
      inFlight: new Set([4]),
      inFlightCount: 1,
      hold: X,
      maxParallel: 8,
      deadlines: deadlines(10_000, 6, { receivedBytes: () => 1e6, fetchElapsedMs: () => 400 }),
    });
    expect(fast.late![0]!.projectedMs).toBeCloseTo(13_600, 0);
  });

  it("a slow fetch's recent rate, when better than its average, decides: a flow ramping up is not late", () => {
    // A 7.2 MB segment at 224 ms, measured 81 Mbit/s (0.93 s expected); 4 is due at 12 s. At 10 s
    // its fetch has run 3 s, past twice that, and has 4 MB: 11.5 Mbit/s on average, so the 3.2 MB
    // left project to 12.22 s, late. Over its latest window it ran at 40 Mbit/s (the ramp out of
    // slow start): 3.2 MB take 0.64 s → 10.64 s, in time.
    const at = (got: number, recentMbps: number | undefined) =>
      planPrefetch({
        produced: range(0, 5),
        mostAdvanced: 3,
        cached: new Set([3, 5]),
        inFlight: new Set([4]),
        inFlightCount: 1,
        hold: X,
        maxParallel: 8,
        deadlines: {
          ...deadlines(10_000, 81, {
            receivedBytes: () => got,
            fetchElapsedMs: () => 3000,
            ...(recentMbps === undefined ? {} : { recentBps: () => recentMbps * 1e6 }),
          }),
          segmentBytes: () => 7.2e6,
        },
      });
    expect(at(4e6, undefined).late).toMatchObject([{ id: 4, inFlight: true, receivedBytes: 4e6 }]);
    expect(at(4e6, undefined).late![0]!.projectedBps).toBeCloseTo((4e6 * 8) / 2.776, -3);
    expect(at(4e6, 40).late).toEqual([]);
    // A recent rate below the average (a fetch that is stalling now) does not make it look worse
    // than its average, nor does one above the measured flow rate make it look better than that.
    expect(at(4e6, 1).late![0]!.projectedBps).toBeCloseTo((4e6 * 8) / 2.776, -3);
    expect(at(1e5, 500).late).toEqual([]);
    expect(() => at(4e6, Number.NaN)).toThrow(EthleError);
  });

  it('earliest deadline first under the parallel cap, after the segments receivers wait for', () => {
    // Two groups' deadlines out of id order: 17 is due first, 18 has none.
    const due: Record<number, number> = { 15: 5000, 16: 6000, 17: 1000 };
    const d: PrefetchDeadlines = { nowMs: 0, flowBps: 1e9, segmentBytes: () => 1e6, deadlineMs: (id) => due[id] };
    const base = {
      produced: range(10, 20),
      mostAdvanced: 15,
      cached: new Set<number>(),
      inFlight: new Set<number>(),
      inFlightCount: 0,
      hold: 3,
      maxParallel: 2,
    };
    expect(planPrefetch({ ...base, deadlines: d }).fetch).toEqual([17, 15]);
    expect(planPrefetch(base).fetch).toEqual([15, 16]);
    expect(planPrefetch({ ...base, deadlines: d, waiting: [16] }).fetch).toEqual([16, 17]);
  });

  describe('a miss only for starting late (producedAtMs): a backlog, not a reason for a larger x', () => {
    it('a new fetch: late for a segment just produced asks for x + 1; late for one produced 3 s ago does not', () => {
      // 1.5 Mbit/s: 5 was produced at 10 s and even 4 ranges end at 15.16 s, past 14 s: x is too small.
      const fresh = keepLead(deadlines(10_000, 1.5, { producedAtMs: producedAt }));
      expect(fresh.late).toMatchObject([{ id: 5, inFlight: false }]);
      expect(fresh.late![0]!.backlog).toBeUndefined();
      expect(fresh.needsHold).toBe(3);
      // 6 Mbit/s at 13 s: 4 ranges end at 14.46 s, late — but from 10 s they would have ended at 11.46 s.
      const late = keepLead(deadlines(13_000, 6, { producedAtMs: producedAt }));
      expect(late.late).toMatchObject([{ id: 5, backlog: true }]);
      expect(late.needsHold).toBeUndefined();
      // Without production times every miss raises, as before.
      expect(keepLead(deadlines(13_000, 6)).needsHold).toBe(3);
    });

    it('an in-flight fetch: slow from its start asks for x + 1; at the flow rate but started late does not', () => {
      // 4 produced and started at 8 s; 1 MB in at 10 s is 4.5 Mbit/s: from 8 s it ends at 14.8 s, past 12 s.
      const slow = deadlines(10_000, 60, {
        receivedBytes: (id) => (id === 4 ? 1e6 : undefined),
        fetchElapsedMs: (id) => (id === 4 ? 2000 : undefined),
        producedAtMs: producedAt,
      });
      const p = planPrefetch({
        produced: range(0, 5),
        mostAdvanced: 3,
        cached: new Set([3, 5]),
        inFlight: new Set([4]),
        inFlightCount: 1,
        hold: X,
        maxParallel: 8,
        deadlines: slow,
      });
      expect(p.late).toMatchObject([{ id: 4, inFlight: true }]);
      expect(p.late![0]!.backlog).toBeUndefined();
      expect(p.needsHold).toBe(3);
      // Produced at 6 s, due at 12 s, started 0.3 s ago at 11.5 s: at 60 Mbit/s it ends at 12.28 s —
      // late, though from 6 s it would have ended at 6.72 s.
      const d: PrefetchDeadlines = {
        nowMs: 11_800,
        flowBps: 60e6,
        segmentBytes: () => 3.7e6,
        deadlineMs: () => 12_000,
        firstByteMs: 224,
        receivedBytes: () => 0.1e6,
        fetchElapsedMs: () => 300,
        producedAtMs: () => 6000,
      };
      const o = planDeadlines(d, [], [4], 0, 2);
      expect(o.late).toMatchObject([{ id: 4, inFlight: true, backlog: true }]);
      expect(o.needsHold).toBeUndefined();
      expect(() => planDeadlines({ ...d, producedAtMs: () => Number.NaN }, [], [4], 0, 2)).toThrow(EthleError);
      // The same fetch started at 6 s and has received nothing since (an origin that hangs): it
      // started in time, so its lateness is the backhaul's, and x must grow.
      const hung = planDeadlines({ ...d, receivedBytes: () => 0, fetchElapsedMs: () => 5800 }, [], [4], 0, 2);
      expect(hung.late).toMatchObject([{ id: 4, inFlight: true }]);
      expect(hung.late[0]!.backlog).toBeUndefined();
      expect(hung.needsHold).toBe(3);
      // Without its start time an in-flight miss counts, as before.
      expect(planDeadlines({ ...d, fetchElapsedMs: undefined }, [], [4], 0, 2).needsHold).toBe(3);
    });
  });

  describe('a segment queued for want of a parallel slot', () => {
    // 50M-2s at 224 ms, x = 2, 40 Mbit/s per flow: a 12.5 MB segment takes 0.224 + 2.5 s. At 20 s
    // the receiver is at 8 (local), 9 is in flight, and two fetches outside the window (6 and 7,
    // for a receiver behind) fill the x + 1 = 3 slots; 10 was just produced, due at 24 s.
    const d50 = (got9: number): PrefetchDeadlines => ({
      ...deadlines(20_000, 40, { receivedBytes: (id) => (id === 9 ? got9 : undefined) }),
      segmentBytes: () => 12.5e6,
    });
    const queuedAt = (got9: number, burstParallel?: number) =>
      planPrefetch({
        produced: range(0, 10),
        mostAdvanced: 8,
        cached: new Set([8]),
        inFlight: new Set([6, 7, 9]),
        inFlightCount: 3,
        hold: X,
        maxParallel: 3,
        deadlines: d50(got9),
        ...(burstParallel === undefined ? {} : { burstParallel }),
      });

    it('waits for the slot it will get in time', () => {
      // 9 has 10 MB: done at 20.5 s; 10 then starts and is whole at 23.22 s, before 24 s.
      const p = queuedAt(10e6, 5);
      expect(p.fetch).toEqual([]);
      expect(p.late).toEqual([]);
      expect(p.burst).toBeUndefined();
      expect(p.needsHold).toBeUndefined();
    });

    it('is late, and x must grow, when the slot it waits for frees too late', () => {
      // 9 has 5 MB: done at 21.5 s, so 10 would be whole at 24.22 s, past 24 s — known now, 4 s
      // before its deadline, not when the slot frees with 2.5 s left.
      const p = queuedAt(5e6);
      expect(p.fetch).toEqual([]);
      expect(p.late).toMatchObject([{ id: 10, inFlight: false, queued: true, deadlineMs: 24_000 }]);
      expect(p.late![0]!.projectedMs).toBeCloseTo(21_500 + 224 + 2500, 0);
      expect(p.needsHold).toBe(3);
    });

    it('starts now beyond the parallel budget when a burst slot is allowed: no larger x', () => {
      const p = queuedAt(5e6, 5);
      expect(p.fetch).toEqual([10]);
      expect(p.burst).toEqual([10]);
      expect(p.late).toEqual([]);
      expect(p.needsHold).toBeUndefined();
      // No burst slot left (5 in flight of 5): late, as without one.
      const full = planPrefetch({
        produced: range(0, 10),
        mostAdvanced: 8,
        cached: new Set([8]),
        inFlight: new Set([4, 5, 6, 7, 9]),
        inFlightCount: 5,
        hold: X,
        maxParallel: 3,
        burstParallel: 5,
        deadlines: d50(5e6),
      });
      expect(full.fetch).toEqual([]);
      expect(full.late).toMatchObject([{ id: 10, queued: true }]);
    });

    it('the k-th queued segment waits for the k-th slot to free; bursts go to the earliest deadlines', () => {
      // Three slots end at 1, 2 and 6 s; 1 MB segments take 0.1 s at 80 Mbit/s; queued 20, 21, 22.
      const d: PrefetchDeadlines = {
        nowMs: 0,
        flowBps: 80e6,
        segmentBytes: () => 1e6,
        deadlineMs: (id) => ({ 1: 1000, 2: 2000, 3: 6000, 20: 1500, 21: 2500, 22: 3000 })[id],
      };
      const got = { 1: 0.9e6, 2: 0.8e6, 3: 0.4e6 } as Record<number, number>;
      const slow: PrefetchDeadlines = { ...d, receivedBytes: (id) => got[id], fetchElapsedMs: () => 10_000 };
      // In flight for 10 s: projected at their own rates (0.09, 0.08, 0.04 MB/s): done at 1.1, 2.5, 15 s.
      const o = planDeadlines(slow, [], [1, 2, 3], 0, 2, { ids: [20, 21, 22], burst: 1 });
      // 20 starts at 1.1 s, whole at 1.2 s: waits. 21 gets the second slot (2.5 s): late, so it takes
      // the one burst slot. 22 then gets the second slot too: 2.6 s, in time.
      expect(o.burst).toEqual([21]);
      expect(o.late.map((l) => l.id)).toEqual([1, 2, 3]);
      const none = planDeadlines(slow, [], [1, 2, 3], 0, 2, { ids: [20, 21, 22], burst: 0 });
      expect(none.burst).toEqual([]);
      expect(none.late.filter((l) => l.queued).map((l) => l.id)).toEqual([21, 22]);
      expect(() => planDeadlines(d, [], [], 0, 2, { ids: [20], burst: -1 })).toThrow(EthleError);
    });
  });

  it('property: with deadlines in id order that never bind, the plan is the default one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 8 }),
        fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
        fc.array(fc.boolean(), { minLength: 41, maxLength: 41 }),
        (hold, maxParallel, head, cachedMask) => {
          const input: PrefetchInput = {
            produced: range(0, 40),
            mostAdvanced: head,
            cached: new Set(range(0, 40).filter((i) => cachedMask[i])),
            inFlight: new Set(),
            inFlightCount: 0,
            hold,
            maxParallel,
          };
          const plain = planPrefetch(input);
          const timed = planPrefetch({
            ...input,
            deadlines: {
              nowMs: 0,
              flowBps: 1e12,
              segmentBytes: () => 1e6,
              deadlineMs: (id) => segmentDeadlineMs(id * 2000, hold, 2) + 10_000,
            },
          });
          expect(timed).toMatchObject(plain);
          expect(timed.split).toEqual([]);
          expect(timed.needsHold).toBeUndefined();
        },
      ),
    );
  });

  it('property: a split never exceeds maxSplit nor the spare budget, and a plan without late fetches meets every deadline', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 100, noNaN: true }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 4 }),
        (mbps, maxSplit, maxParallel, hold) => {
          const d = { ...deadlines(10_000, mbps), maxSplit, deadlineMs: (id: number) => segmentDeadlineMs(producedAt(id), hold, L) };
          const p = planPrefetch({
            produced: range(0, 5),
            mostAdvanced: 5 - hold,
            cached: new Set(),
            inFlight: new Set(),
            inFlightCount: 0,
            hold,
            maxParallel,
            deadlines: d,
          });
          const extra = p.split!.reduce((n, s) => n + s.ranges - 1, 0);
          expect(p.fetch.length + extra).toBeLessThanOrEqual(maxParallel);
          for (const s of p.split!) {
            expect(s.ranges).toBeGreaterThanOrEqual(2);
            expect(s.ranges).toBeLessThanOrEqual(maxSplit);
          }
          if (p.late!.length === 0) {
            for (const id of p.fetch) {
              const ranges = p.split!.find((s) => s.id === id)?.ranges ?? 1;
              expect(10_000 + 224 + (3.7e6 * 8 * 1000) / (mbps * 1e6 * ranges)).toBeLessThanOrEqual(d.deadlineMs(id) + 1e-6);
            }
            expect(p.needsHold).toBeUndefined();
          } else {
            expect(p.needsHold).toBe(hold + 1);
          }
        },
      ),
    );
  });

  it('property: a plan never has more fetches in flight than burstParallel, nor bursts without it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 200, noNaN: true }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        (mbps, maxParallel, extra, stale, hold) => {
          const inFlight = new Set(range(0, stale - 1));
          const input: PrefetchInput = {
            produced: range(0, 12),
            mostAdvanced: 10 - hold,
            cached: new Set(),
            inFlight,
            inFlightCount: inFlight.size,
            hold,
            maxParallel,
            deadlines: { ...deadlines(10_000, mbps), segmentBytes: () => 3.7e6 },
          };
          const plain = planPrefetch(input);
          expect(plain.burst).toBeUndefined();
          const burstParallel = maxParallel + extra;
          const p = planPrefetch({ ...input, burstParallel });
          const ranges = p.split!.reduce((n, s) => n + s.ranges - 1, 0);
          expect(inFlight.size + p.fetch.length + ranges).toBeLessThanOrEqual(
            Math.max(burstParallel, inFlight.size + plain.fetch.length + ranges),
          );
          for (const id of p.burst ?? []) expect(plain.fetch).not.toContain(id);
        },
      ),
    );
  });

  it('bad deadline options are a coded error', () => {
    const base = {
      produced: range(0, 5),
      mostAdvanced: 3,
      cached: new Set<number>(),
      inFlight: new Set<number>(),
      inFlightCount: 0,
      hold: 2,
      maxParallel: 4,
    };
    for (const bad of [
      { flowBps: 0 },
      { nowMs: Number.NaN },
      { maxSplit: 0 },
      { firstByteMs: -1 },
      { toleranceMs: -1 },
      { toleranceMs: Number.POSITIVE_INFINITY },
    ]) {
      try {
        planPrefetch({ ...base, deadlines: { ...deadlines(0, 10), ...bad } });
        expect.unreachable();
      } catch (e) {
        expect((e as EthleError).code).toBe('ERR_PLANNER_INVALID_INPUT');
      }
    }
    expect(() => planPrefetch({ ...base, deadlines: { ...deadlines(0, 10), segmentBytes: () => -1 } })).toThrow(/segmentBytes/);
  });
});
