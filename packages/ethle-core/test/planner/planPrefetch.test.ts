import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EthleError, planPrefetch, rangesByNeed, type PrefetchInput } from '@ethle/core';

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/** A tiny edge: fetches complete when `complete` is called; the planner decides what starts. */
class EdgeSim {
  cached = new Set<number>();
  inFlight = new Set<number>();
  started: number[][] = [];
  constructor(
    private hold: number,
    private maxParallel = 8,
  ) {}
  plan(produced: number[], mostAdvanced: number | undefined, waiting: number[] = []) {
    const p = planPrefetch({
      produced,
      mostAdvanced,
      waiting,
      cached: this.cached,
      inFlight: this.inFlight,
      inFlightCount: this.inFlight.size,
      hold: this.hold,
      maxParallel: this.maxParallel,
    } satisfies PrefetchInput);
    for (const id of p.fetch) this.inFlight.add(id);
    this.started.push(p.fetch);
    return p;
  }
  complete(...ids: number[]) {
    for (const id of ids) {
      this.inFlight.delete(id);
      this.cached.add(id);
    }
  }
}

describe('planPrefetch replays the paper', () => {
  it('Fig. 3: one receiver, hold 2 — request 14 starts 14, 15, 16 in parallel, then one at a time', () => {
    const edge = new EdgeSim(2);
    // The origin has produced up to 16; the receiver sees up to 14 and requests 14.
    const p = edge.plan(range(5, 16), 14, [14]);
    expect(p.fetch).toEqual([14, 15, 16]);
    expect(p.reason).toBe('catch-up');
    edge.complete(14, 15, 16);
    // 17 is produced; the receiver moves on to 15 (local): only 17 is fetched, on one connection.
    const q = edge.plan(range(5, 17), 15);
    expect(q.fetch).toEqual([17]);
    expect(q.reason).toBe('keep-lead');
    edge.complete(17);
    for (let n = 18; n < 30; n++) {
      const r = edge.plan(range(n - 10, n), n - 2);
      expect(r.fetch).toEqual([n]);
      expect(r.lead).toBe(1); // n−1 is local; n is the one just started (in flight next call)
      edge.complete(n);
    }
  });

  it('Fig. 4: receiver 2 joins ahead — 16 and 17 start at once while 15 is in flight', () => {
    const edge = new EdgeSim(2);
    expect(edge.plan(range(1, 14), 12, [12]).fetch).toEqual([12, 13, 14]);
    edge.complete(12, 13, 14);
    // Receiver 1 requests 13 (local); 15 produced → the edge fetches 15 to stay 2 ahead.
    expect(edge.plan(range(1, 15), 13).fetch).toEqual([15]);
    // 16 and 17 produced; receiver 2 joins (it sees up to 15) and requests 15, still in flight.
    const p = edge.plan(range(1, 17), 15, [15]);
    expect(p.fetch).toEqual([16, 17]);
    edge.complete(15, 16, 17);
    expect(edge.plan(range(1, 17), 15).fetch).toEqual([]);
  });

  it('before any segment request it anticipates the player start and the held segments', () => {
    const p = planPrefetch({
      produced: range(1, 20),
      mostAdvanced: undefined,
      cached: new Set(),
      inFlight: new Set(),
      inFlightCount: 0,
      hold: 2,
      maxParallel: 8,
    });
    // Visible newest is 18; hls.js starts at the third from the end: 16. Want 16..20.
    expect(p.fetch).toEqual([16, 17, 18, 19, 20]);
    expect(p.reason).toBe('anticipate-start');
  });

  it('every segment a new player is shown from its start on is marked visible (taken as ranges); held ones are not', () => {
    const base = {
      produced: range(1, 20),
      cached: new Set<number>(),
      inFlight: new Set<number>(),
      inFlightCount: 0,
      hold: 2,
      maxParallel: 8,
    };
    // Shown up to 18, the player starts at 16 and asks for 17 and 18 as soon as it has the one
    // before; 19 and 20 become visible a segment length apart.
    const start = planPrefetch({ ...base, mostAdvanced: undefined });
    expect(start.fetch).toEqual([16, 17, 18, 19, 20]);
    expect(start.visible).toEqual([16, 17, 18]);
    // Under x + 1 = 3 the start segments take the slots, each as one fetch: not only the first is marked.
    expect(planPrefetch({ ...base, mostAdvanced: undefined, maxParallel: 3 })).toMatchObject({
      fetch: [16, 17, 18],
      visible: [16, 17, 18],
    });
    // The player has asked for 16 (here); the edge is not x ahead yet: 17 and 18 are still wanted at once.
    const asked = planPrefetch({ ...base, mostAdvanced: 16, cached: new Set([16]) });
    expect(asked).toMatchObject({ fetch: [17, 18], visible: [17, 18] });
    // x ahead: the one new segment is held, on one connection.
    const steady = planPrefetch({ ...base, produced: range(1, 21), mostAdvanced: 18, cached: new Set([18, 19]) });
    expect(steady.fetch).toEqual([20]);
    expect(steady.visible).toBeUndefined();
    // hold 0: everything produced is shown.
    expect(planPrefetch({ ...base, hold: 0, mostAdvanced: undefined, maxParallel: 2 })).toMatchObject({
      fetch: [18, 19],
      visible: [18, 19],
    });
  });

  it('waited-for segments go before bulk prefetch under the parallel cap', () => {
    const p = planPrefetch({
      produced: range(1, 20),
      mostAdvanced: 15,
      waiting: [15],
      cached: new Set(),
      inFlight: new Set([17]),
      inFlightCount: 1,
      hold: 4,
      maxParallel: 3,
    });
    expect(p.fetch).toEqual([15, 16]);
    expect(p.reason).toBe('parallel-cap');
  });
});

describe("planPrefetch: a start's visible segments take ranges in need order (issue 38)", () => {
  // 50M-2s behind a CUBIC origin at 224 ms (run r1 of the CUBIC matrix): the origin lists up to 74;
  // a player shown x = 2 sees up to 72 and hls.js starts at the third from its end, 70, then asks
  // for 71 and 72 as soon as it has the one before. The edge's maxHold is 4 (ranges per fetch).
  const cold = (hold: number, over: Partial<PrefetchInput> = {}) =>
    planPrefetch({
      produced: range(40, 72 + hold),
      mostAdvanced: undefined,
      cached: new Set<number>(),
      inFlight: new Set<number>(),
      inFlightCount: 0,
      hold,
      maxParallel: hold + 1,
      maxSplit: 4,
      ...over,
    });

  it('x = 2: all three start now, the first needed as twice the ranges, later ones fewer', () => {
    // Before: 70, 71 and 72 as 4 ranges each, so 70 shared the backhaul equally with segments
    // needed seconds later (asked with 1.4 of 12.2 MB at the edge while 71 and 72 were whole).
    const p = cold(2);
    expect(p.fetch).toEqual([70, 71, 72]);
    expect(p.visible).toEqual([70, 71, 72]);
    expect(p.visibleRanges).toEqual([
      { id: 70, ranges: 8 },
      { id: 71, ranges: 4 },
      { id: 72, ranges: 2 },
    ]);
    // 14 connections: at most one segment's worth (4) more than three visible fetches took before.
    expect(p.visibleRanges!.reduce((a, v) => a + v.ranges, 0)).toBeLessThanOrEqual((3 + 1) * 4);
  });

  it('x = 3: the same three visible ones ranked, the held 73 on one connection as before', () => {
    const p = cold(3);
    expect(p.fetch).toEqual([70, 71, 72, 73]);
    expect(p.visibleRanges).toEqual([
      { id: 70, ranges: 8 },
      { id: 71, ranges: 4 },
      { id: 72, ranges: 2 },
    ]);
    expect(p.visible).not.toContain(73);
  });

  it('x = 1 for hold-x but new players shown 0 (auto, eq. 1 holds for the default radio): the start is theirs', () => {
    // 15M-4s at 224 ms on CUBIC: the origin lists up to 73 (produced 40..73), hold-x's x = 1, but a
    // new player is put in hold-0 and shown up to 73: hls.js starts at 71. Anticipated from x = 1,
    // the 8 ranges went to 70, which nobody asked for first (3 of 3 runs), and 71 came as 4.
    const asHoldX = cold(1);
    expect(asHoldX.visibleRanges?.[0]).toEqual({ id: 70, ranges: 8 });
    const p = cold(1, { startHold: 0 });
    // x + 1 = 2 fetches: the two a new player asks for first.
    expect(p.fetch).toEqual([71, 72]);
    expect(p.visible).toEqual([71, 72]);
    expect(p.visibleRanges).toEqual([
      { id: 71, ranges: 8 },
      { id: 72, ranges: 4 },
    ]);
    expect(p.want).toEqual({ from: 71, to: 73 });
    // Without it (or equal to x), as before.
    expect(cold(1, { startHold: 1 })).toEqual(asHoldX);
  });

  it('a segment that becomes visible below ones in flight (x rose after they started) ranks first', () => {
    // The first round ran at x = 1: 71 and 72 started. At x = 2 the player starts at 70.
    const first = cold(1, { produced: range(40, 74) });
    expect(first.visibleRanges).toEqual([
      { id: 71, ranges: 8 },
      { id: 72, ranges: 4 },
    ]);
    const p = cold(2, { inFlight: new Set([71, 72]), inFlightCount: 2 });
    expect(p.fetch).toEqual([70]);
    expect(p.visibleRanges).toEqual([{ id: 70, ranges: 8 }]);
  });

  it('once the player has its first segment, the next one needed ranks first', () => {
    // 70 asked and whole, 71 in flight (ranked before): 72 is second in need order.
    const p = cold(2, { mostAdvanced: 70, cached: new Set([70]), inFlight: new Set([71]), inFlightCount: 1 });
    expect(p.fetch).toEqual([72]);
    expect(p.visibleRanges).toEqual([{ id: 72, ranges: 4 }]);
  });

  it('a warm steady state is unchanged: the new segment is held, on one connection', () => {
    const p = cold(2, { produced: range(40, 75), mostAdvanced: 73, cached: new Set([70, 71, 72, 73, 74]) });
    expect(p.fetch).toEqual([75]);
    expect(p.visible).toBeUndefined();
    expect(p.visibleRanges).toBeUndefined();
    // Without maxSplit the plan is as before: visible, no ranges.
    const plain = cold(2, { maxSplit: undefined });
    expect(plain.visible).toEqual([70, 71, 72]);
    expect(plain.visibleRanges).toBeUndefined();
  });

  it('rangesByNeed: 2m first, halving, within [2, m] after; no split below maxSplit 2', () => {
    expect([0, 1, 2, 3, 4].map((r) => rangesByNeed(r, 4))).toEqual([8, 4, 2, 2, 2]);
    expect([0, 1, 2, 3].map((r) => rangesByNeed(r, 8))).toEqual([16, 8, 4, 2]);
    expect([0, 1, 2].map((r) => rangesByNeed(r, 2))).toEqual([4, 2, 2]);
    expect([0, 1, 99].map((r) => rangesByNeed(r, 1))).toEqual([1, 1, 1]);
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.integer({ min: 1, max: 40 }), (m, n) => {
        const all = range(0, n - 1).map((r) => rangesByNeed(r, m));
        // Never more than one segment's worth of ranges above n plain splits.
        expect(all.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual((n + 1) * m);
        for (const [r, k] of all.entries()) {
          expect(k).toBeLessThanOrEqual(r === 0 ? 2 * m : m);
          expect(k).toBeGreaterThanOrEqual(2);
          if (r > 0) expect(k).toBeLessThanOrEqual(all[r - 1]!);
        }
      }),
    );
  });
});

describe('planPrefetch invariants', () => {
  const scenario = fc.record({
    oldest: fc.integer({ min: 0, max: 1000 }),
    len: fc.integer({ min: 1, max: 30 }),
    hold: fc.integer({ min: 0, max: 6 }),
    maxParallel: fc.integer({ min: 1, max: 8 }),
    advance: fc.option(fc.integer({ min: -5, max: 35 }), { nil: undefined }),
    cachedMask: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
    inFlightMask: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
  });

  it('never fetches local, unproduced or duplicate ids, never exceeds the cap', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const produced = range(s.oldest, s.oldest + s.len - 1);
        const cached = new Set(produced.filter((_, i) => s.cachedMask[i]));
        const inFlight = new Set(produced.filter((id, i) => s.inFlightMask[i] && !cached.has(id)).slice(0, s.maxParallel));
        const input: PrefetchInput = {
          produced,
          mostAdvanced: s.advance === undefined ? undefined : s.oldest + s.advance,
          cached,
          inFlight,
          inFlightCount: inFlight.size,
          hold: s.hold,
          maxParallel: s.maxParallel,
        };
        const p = planPrefetch(input);
        expect(new Set(p.fetch).size).toBe(p.fetch.length);
        expect(inFlight.size + p.fetch.length).toBeLessThanOrEqual(Math.max(s.maxParallel, inFlight.size));
        // visible: exactly the fetches of segments the hold-x group's playlist lists.
        const shown = produced[produced.length - 1]! - s.hold;
        expect(p.visible ?? []).toEqual(p.fetch.filter((id) => id <= shown));
        // With maxSplit, each visible fetch has its ranges: at most one ranked first.
        const ranked = planPrefetch({ ...input, maxSplit: 4 });
        expect(ranked.fetch).toEqual(p.fetch);
        expect((ranked.visibleRanges ?? []).map((v) => v.id)).toEqual(p.visible ?? []);
        expect((ranked.visibleRanges ?? []).filter((v) => v.ranges > 4).length).toBeLessThanOrEqual(1);
        for (const id of p.fetch) {
          expect(cached.has(id) || inFlight.has(id)).toBe(false);
          expect(id).toBeGreaterThanOrEqual(produced[0]!);
          expect(id).toBeLessThanOrEqual(produced[produced.length - 1]!);
        }
      }),
    );
  });

  it('the lead reaches x when the origin is far enough ahead and fetches complete', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }), (hold, maxParallel) => {
        const edge = new EdgeSim(hold, maxParallel);
        const produced = range(1, 50);
        let p = edge.plan(produced, 30, [30]);
        for (let i = 0; i < 10 && p.fetch.length > 0; i++) {
          edge.complete(...edge.inFlight);
          p = edge.plan(produced, 30);
        }
        expect(p.lead).toBe(hold);
        expect(p.reason).toBe('lead-reached');
      }),
    );
  });

  it('rejects inconsistent input with ERR_PLANNER_INVALID_INPUT', () => {
    const base = {
      produced: [1, 2, 3],
      mostAdvanced: 2,
      cached: new Set<number>(),
      inFlight: new Set<number>(),
      inFlightCount: 0,
      hold: 2,
      maxParallel: 3,
    };
    for (const bad of [
      { hold: -1 },
      { hold: 1.5 },
      { maxParallel: 0 },
      { inFlightCount: -2 },
      { mostAdvanced: Number.NaN },
      { produced: [5, 1] },
      { maxSplit: 0 },
      { maxSplit: 2.5 },
    ]) {
      expect(() => planPrefetch({ ...base, ...bad })).toThrow(EthleError);
    }
  });
});

describe('planPrefetch with policy groups and gaps', () => {
  const none = () => new Set<number>();

  it('keeps x ahead of a trailing hold-x group as well as of the hold-0 head', () => {
    // hold-0 receivers are at 40 (the live edge), the hold-x group trails at 30; x = 2.
    const cached = new Set(range(30, 40).filter((id) => id !== 31 && id !== 32));
    const p = planPrefetch({
      produced: range(20, 40),
      mostAdvanced: undefined,
      groupHeads: [40, 30],
      cached,
      inFlight: none(),
      inFlightCount: 0,
      hold: 2,
      maxParallel: 8,
    });
    expect(p.fetch).toEqual([31, 32]);
    expect(p.want).toEqual({ from: 40, to: 40 });
    // Only the overall most advanced head: the trailing group's next segments would be missed.
    const q = planPrefetch({
      produced: range(20, 40),
      mostAdvanced: 40,
      cached,
      inFlight: none(),
      inFlightCount: 0,
      hold: 2,
      maxParallel: 8,
    });
    expect(q.fetch).toEqual([]);
  });

  it('an undefined group head is ignored; all undefined means no request yet', () => {
    const base = { produced: range(1, 20), cached: none(), inFlight: none(), inFlightCount: 0, hold: 2, maxParallel: 8 };
    expect(planPrefetch({ ...base, mostAdvanced: undefined, groupHeads: [undefined, 15] }).fetch).toEqual([15, 16, 17]);
    expect(planPrefetch({ ...base, mostAdvanced: undefined, groupHeads: [undefined, undefined] }).reason).toBe('anticipate-start');
  });

  it('never fetches an id missing from a produced list with gaps', () => {
    const p = planPrefetch({
      produced: [10, 11, 13, 14],
      mostAdvanced: 11,
      cached: none(),
      inFlight: none(),
      inFlightCount: 0,
      hold: 3,
      maxParallel: 8,
    });
    expect(p.fetch).toEqual([11, 13, 14]);
  });

  it('property: with group heads, fetches are produced, not local, unique and within the cap; each head gets its lead', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 8 }),
        (hold, heads, maxParallel) => {
          const produced = range(5, 50);
          const cached = new Set<number>();
          const inFlight = new Set<number>();
          // Run the planner to a fixed point, completing fetches in between.
          let p = planPrefetch({
            produced,
            mostAdvanced: undefined,
            groupHeads: heads,
            cached,
            inFlight,
            inFlightCount: 0,
            hold,
            maxParallel,
          });
          for (let i = 0; i < 40 && p.fetch.length > 0; i++) {
            expect(new Set(p.fetch).size).toBe(p.fetch.length);
            expect(p.fetch.length).toBeLessThanOrEqual(maxParallel);
            for (const id of p.fetch) {
              expect(cached.has(id)).toBe(false);
              expect(produced.includes(id)).toBe(true);
              cached.add(id);
            }
            p = planPrefetch({
              produced,
              mostAdvanced: undefined,
              groupHeads: heads,
              cached,
              inFlight,
              inFlightCount: 0,
              hold,
              maxParallel,
            });
          }
          for (const h of heads) {
            if (h === undefined) continue;
            for (let id = h; id <= h + hold; id++) if (produced.includes(id)) expect(cached.has(id), `head ${h} id ${id}`).toBe(true);
          }
        },
      ),
    );
  });
});
