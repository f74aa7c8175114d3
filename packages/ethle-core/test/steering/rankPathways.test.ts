import { describe, expect, it } from 'vitest';
import { nextPathwayHealth, rankPathways, type PathwayObservation } from '../../src/index.js';

const obs = (id: string, load: number, ready = true): PathwayObservation => ({ id, load, ready });

describe('rankPathways', () => {
  it('orders ready pathways by load on a first round, not-ready last', () => {
    expect(rankPathways({ pathways: [obs('a', 0.5), obs('b', 0.1), obs('c', 0, false)], previous: [], hysteresis: 0.1 })).toEqual(['b', 'a', 'c']);
  });

  it('keeps the previous order while loads differ by no more than the hysteresis', () => {
    let order = ['a', 'b'];
    // Loads that cross back and forth by 0.05: no swap at hysteresis 0.1.
    for (const [la, lb] of [[0.30, 0.25], [0.25, 0.30], [0.32, 0.27]] as const) {
      order = rankPathways({ pathways: [obs('a', la), obs('b', lb)], previous: order, hysteresis: 0.1 });
      expect(order).toEqual(['a', 'b']);
    }
    // A clear difference moves the lighter one ahead, and it stays ahead when they converge.
    order = rankPathways({ pathways: [obs('a', 0.6), obs('b', 0.3)], previous: order, hysteresis: 0.1 });
    expect(order).toEqual(['b', 'a']);
    order = rankPathways({ pathways: [obs('a', 0.35), obs('b', 0.4)], previous: order, hysteresis: 0.1 });
    expect(order).toEqual(['b', 'a']);
  });

  it('a pathway that is not ready drops behind every ready one whatever its load', () => {
    expect(rankPathways({ pathways: [obs('a', 0, false), obs('b', 0.9)], previous: ['a', 'b'], hysteresis: 0.1 })).toEqual(['b', 'a']);
  });

  it('is a permutation of its input (no pathway lost or doubled) for any loads', () => {
    for (let seed = 1; seed < 200; seed++) {
      const ps = ['a', 'b', 'c', 'd'].map((id, i) => obs(id, ((seed * (i + 3) * 7919) % 100) / 100, (seed + i) % 5 !== 0));
      const order = rankPathways({ pathways: ps, previous: ['d', 'c', 'b', 'a'], hysteresis: 0.2 });
      expect([...order].sort()).toEqual(['a', 'b', 'c', 'd']);
      // Every ready pathway precedes every unready one.
      const firstUnready = order.findIndex((id) => !ps.find((p) => p.id === id)!.ready);
      if (firstUnready >= 0) expect(order.slice(firstUnready).every((id) => !ps.find((p) => p.id === id)!.ready)).toBe(true);
    }
  });
});

describe('nextPathwayHealth', () => {
  it('drops out on one failed probe and comes back after riseAfter successes', () => {
    let h = { ready: true, okStreak: 2 };
    h = nextPathwayHealth(h, false, 2);
    expect(h.ready).toBe(false);
    h = nextPathwayHealth(h, true, 2);
    expect(h.ready).toBe(false);
    h = nextPathwayHealth(h, true, 2);
    expect(h.ready).toBe(true);
    expect(nextPathwayHealth(h, true, 2)).toEqual({ ready: true, okStreak: 2 });
  });
});
