import { describe, expect, it } from 'vitest';
import { FreezeSchedule, latenessInjectionProblem } from '../src/relay/FreezeSchedule.js';

/**
 * The extra lateness a datagram due at `t` gets: the sending thread runs again at thawAt(t). A
 * fresh schedule per pass, as its clock must not go back.
 */
function lateness(spec: ConstructorParameters<typeof FreezeSchedule>[0], times: number[]): number[] {
  const f = new FreezeSchedule(spec);
  return times.map((t) => f.thawAt(t) - t);
}

const quantile = (xs: number[], q: number) => Float64Array.from(xs).sort()[Math.ceil(q * xs.length) - 1]!;
const max = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), -Infinity);

describe('FreezeSchedule (lateness injected into a relay on purpose)', () => {
  // Datagrams every 0.73 ms for 10 minutes of relay time: independent of the freezes, as traffic is.
  const times = Array.from({ length: 820_000 }, (_, i) => i * 0.73);

  for (const p99Ms of [1, 2, 5]) {
    it(`a p99 target of ${p99Ms} ms gives that p99 of extra lateness (within 10 %), and ~98 % of datagrams none`, () => {
      const late = lateness({ p99Ms, stallsPerMinute: 0, seed: 7 }, times);
      expect(quantile(late, 0.99) / p99Ms).toBeGreaterThan(0.9);
      expect(quantile(late, 0.99) / p99Ms).toBeLessThan(1.1);
      const held = late.filter((x) => x > 0).length / late.length;
      expect(held).toBeGreaterThan(0.018);
      expect(held).toBeLessThan(0.022);
      expect(max(late)).toBeLessThanOrEqual(2.5 * p99Ms * 2); // at most two overlapping freezes here
    });
  }

  it('VM-like stalls: about the asked number per minute, each 5–10 ms', () => {
    const f = new FreezeSchedule({ p99Ms: 0, stallsPerMinute: 3, seed: 11 });
    const minutes = 200;
    let last = -1;
    const stalls: number[] = [];
    for (let t = 0; t < minutes * 60_000; t += 0.5) {
      const thaw = f.thawAt(t);
      if (thaw > t && thaw !== last) {
        stalls.push(thaw - t); // first moment inside a new stall: its (nearly) whole length
        last = thaw;
      }
    }
    expect(stalls.length / minutes).toBeGreaterThan(2.5);
    expect(stalls.length / minutes).toBeLessThan(3.5);
    expect(Math.min(...stalls)).toBeGreaterThan(4.4);
    expect(max(stalls)).toBeLessThanOrEqual(10);
    expect(f.statsAt(minutes * 60_000).freezes).toBe(stalls.length);
  });

  it('the same seed gives the same freezes; another seed other ones', () => {
    const ts = times.slice(0, 200_000);
    expect(lateness({ p99Ms: 2, stallsPerMinute: 3, seed: 5 }, ts)).toEqual(lateness({ p99Ms: 2, stallsPerMinute: 3, seed: 5 }, ts));
    expect(lateness({ p99Ms: 2, stallsPerMinute: 3, seed: 6 }, ts)).not.toEqual(lateness({ p99Ms: 2, stallsPerMinute: 3, seed: 5 }, ts));
  });

  it('nothing injected: never frozen', () => {
    expect(lateness({ p99Ms: 0, stallsPerMinute: 0, seed: 1 }, times.slice(0, 10_000)).every((x) => x === 0)).toBe(true);
  });

  it('a bad injection is refused with the field named', () => {
    expect(latenessInjectionProblem({ p99Ms: -1, stallsPerMinute: 0, seed: 1 })).toMatch(/p99Ms/);
    expect(latenessInjectionProblem({ p99Ms: 1, stallsPerMinute: Number.NaN, seed: 1 })).toMatch(/stallsPerMinute/);
    expect(latenessInjectionProblem({ p99Ms: 1, stallsPerMinute: 1, stallMs: [10, 5], seed: 1 })).toMatch(/stallMs/);
    expect(() => new FreezeSchedule({ p99Ms: 1000, stallsPerMinute: 0, seed: 1 })).toThrow(RangeError);
  });
});
