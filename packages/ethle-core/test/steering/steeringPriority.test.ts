import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { steeringPriority, type PathwayObservation } from '../../src/index.js';

const obs = (id: string, load: number, ready = true): PathwayObservation => ({ id, load, ready });
const base = { hysteresis: 0.1, minDifference: 0.002, u: 0 };

describe('steeringPriority', () => {
  it('a new player: least loaded first, ties by id, unready last; nothing sticks from an earlier round', () => {
    expect(steeringPriority({ ...base, pathways: [obs('a', 0.5), obs('b', 0.1), obs('c', 0, false)], current: null })).toEqual([
      'b',
      'a',
      'c',
    ]);
    // Equal loads: by id (the first order an edge that was late to its first probe got does not stick).
    expect(steeringPriority({ ...base, pathways: [obs('b', 0), obs('a', 0)], current: null })).toEqual(['a', 'b']);
    // None ready: every edge, by id.
    expect(steeringPriority({ ...base, pathways: [obs('b', 0, false), obs('a', 0, false)], current: 'b' })).toEqual(['a', 'b']);
  });

  it('a player stays on its edge within the hysteresis (relative) or the minimum difference', () => {
    // 100 vs 95 connections of 16,384: 5 % apart, within 10 % — stays.
    expect(steeringPriority({ ...base, pathways: [obs('a', 100 / 16384), obs('b', 95 / 16384)], current: 'a' })).toEqual(['a', 'b']);
    // 3 vs 1 connections of 16,384: relatively far apart, but under the 0.002 floor — stays.
    expect(steeringPriority({ ...base, pathways: [obs('a', 3 / 16384), obs('b', 1 / 16384)], current: 'a' })).toEqual(['a', 'b']);
    // 200 vs 100 of 16,384 (before: the absolute 0.1 wanted 1,640 more): u below half the excess share moves it.
    const loaded = [obs('a', 200 / 16384), obs('b', 100 / 16384)];
    expect(steeringPriority({ ...base, pathways: loaded, current: 'a', u: 0.24 })).toEqual(['b', 'a']);
    expect(steeringPriority({ ...base, pathways: loaded, current: 'a', u: 0.26 })).toEqual(['a', 'b']);
    // On the least loaded edge, or on an unready one: the load order.
    expect(steeringPriority({ ...base, pathways: loaded, current: 'b', u: 0.9 })).toEqual(['b', 'a']);
    expect(steeringPriority({ ...base, pathways: [obs('a', 0, false), obs('b', 0.5)], current: 'a', u: 0.9 })).toEqual(['b', 'a']);
  });

  it('property: a permutation, ready before unready; the player’s edge first or the least loaded first', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd'), load: fc.double({ min: 0, max: 2, noNaN: true }), ready: fc.boolean() }),
          { selector: (p) => p.id, minLength: 1 },
        ),
        fc.option(fc.constantFrom('a', 'b', 'c', 'd', 'x')),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (ps, current, u) => {
          const order = steeringPriority({ ...base, pathways: ps, current, u });
          expect([...order].sort()).toEqual(ps.map((p) => p.id).sort());
          const ready = ps.filter((p) => p.ready);
          const firstUnready = order.findIndex((id) => !ps.find((p) => p.id === id)!.ready);
          if (firstUnready >= 0 && ready.length > 0)
            expect(order.slice(firstUnready).every((id) => !ps.find((p) => p.id === id)!.ready)).toBe(true);
          if (ready.length > 0) {
            const least = Math.min(...ready.map((p) => p.load));
            const first = ps.find((p) => p.id === order[0])!;
            expect(first.id === current || first.load === least).toBe(true);
          }
        },
      ),
    );
  });

  it('players on a loaded edge move in shares that level two edges, not all at once', () => {
    // 1,000 players on a (0.3) and none on b (0.1): about (0.3 − 0.1) / 0.6 = 1/3 of them move.
    let moved = 0;
    for (let i = 0; i < 1000; i++)
      if (steeringPriority({ ...base, pathways: [obs('a', 0.3), obs('b', 0.1)], current: 'a', u: (i + 0.5) / 1000 })[0] === 'b') moved += 1;
    expect(moved).toBe(333);
  });
});
