import { describe, expect, it } from 'vitest';
import { DirectionShaper, lteAWalk, parseMahimahiTrace, seededRandom, seedFrom } from '@ethle/netlab';
import { syntheticMahimahiTrace } from './fixtures/syntheticTrace.js';

describe('DirectionShaper (one direction of an emulated link)', () => {
  it('constant delay: every packet leaves exactly delay ms after it arrived', () => {
    const s = new DirectionShaper({ delayMs: 112 });
    expect(s.admit(1500, 1000)).toBe(1112);
    expect(s.admit(60, 1000.5)).toBe(1112.5);
  });

  it('rate cap: back-to-back packets are serialised at the rate', () => {
    const s = new DirectionShaper({ delayMs: 0, rateMbps: 12 }); // 1500 B = 1 ms at 12 Mbit/s
    const out = [0, 0, 0, 0].map(() => s.admit(1500, 0)!);
    expect(out).toEqual([1, 2, 3, 4]);
  });

  it('drop-tail: a burst beyond the queue limit is dropped, not delayed without bound', () => {
    const s = new DirectionShaper({ delayMs: 0, rateMbps: 12, queueBytes: 15_000 });
    const out = Array.from({ length: 20 }, () => s.admit(1500, 0));
    expect(out.filter((x) => x === null).length).toBe(10);
    expect(s.stats.drops).toBe(10);
    // The deepest the queue got: the nine packets ahead of the tenth, never past the limit.
    expect(s.stats.maxQueueBytes).toBe(13_500);
    s.admit(1500, 1000);
    expect(s.stats.queueBytes).toBe(0);
    expect(s.stats.maxQueueBytes).toBe(13_500);
  });

  it('loss drops the given fraction', () => {
    let seed = 1;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const s = new DirectionShaper({ delayMs: 10, loss: 0.1 }, rnd);
    for (let i = 0; i < 10_000; i++) s.admit(100, i);
    expect(s.stats.lossDrops / 10_000).toBeGreaterThan(0.08);
    expect(s.stats.lossDrops / 10_000).toBeLessThan(0.12);
  });

  it('fluctuating delay stays within bounds and never reorders packets', () => {
    const s = new DirectionShaper({ delayMs: 0, fluctuating: { minMs: 10, maxMs: 90 } });
    let last = -1;
    let lo = Infinity;
    let hi = -Infinity;
    for (let t = 0; t < 60_000; t += 0.7) {
      const d = s.admit(1500, t)!;
      expect(d).toBeGreaterThanOrEqual(last);
      last = d;
      lo = Math.min(lo, d - t);
      hi = Math.max(hi, d - t);
    }
    expect(lo).toBeGreaterThanOrEqual(10 - 1e-9);
    expect(hi).toBeLessThanOrEqual(90 + 5); // FIFO can add a little queueing behind a slower predecessor
    expect(hi - lo).toBeGreaterThan(40); // it really fluctuates
  });

  it('mahimahi trace: one 1500-byte packet per opportunity, the trace loops', () => {
    const s = new DirectionShaper({ delayMs: 0, traceMs: [1, 1, 5, 10] });
    expect([0, 0, 0, 0, 0].map(() => s.admit(1500, 0))).toEqual([1, 1, 5, 10, 11]);
    expect(() => parseMahimahiTrace('1\nx\n')).toThrow(/not a mahimahi/);
    expect(() => parseMahimahiTrace('\n')).toThrow(/empty/);
  });

  it("a trace file in mahimahi format (generated, ~24 Mbit/s): a backlog drains at the trace's rate", () => {
    const trace = parseMahimahiTrace(syntheticMahimahiTrace({ seconds: 2, mbps: 24, seed: 7 }));
    const period = trace.at(-1)!;
    const traceMbps = (trace.length * 1500 * 8) / (period * 1e3);
    expect(traceMbps).toBeGreaterThan(24 * 0.8);
    expect(traceMbps).toBeLessThan(24 * 1.2);
    // A backlog of one period's opportunities, all arriving at 0: the last leaves at the period's end.
    const s = new DirectionShaper({ delayMs: 0, traceMs: trace });
    const out = trace.map(() => s.admit(1500, 0)!);
    expect(out.at(-1)).toBe(period);
    for (let i = 1; i < out.length; i++) expect(out[i]!).toBeGreaterThanOrEqual(out[i - 1]!);
    // The trace loops: the next packet takes the first opportunity of the second period.
    expect(s.admit(1500, 0)).toBe(period + trace[0]!);
  });

  it('seeded: the same seed gives the same fluctuating delay over time, another seed another walk', () => {
    const delays = (seed: number) => {
      const sh = new DirectionShaper(lteAWalk({ seed }).down, seededRandom(seed));
      // One small packet every 50 ms for 10 s, spaced so FIFO order never binds: departure − arrival = delay.
      return Array.from({ length: 200 }, (_, i) => sh.admit(60, i * 50)! - i * 50);
    };
    const a = delays(seedFrom('15M-2s-224-r1'));
    expect(delays(seedFrom('15M-2s-224-r1'))).toEqual(a);
    const b = delays(seedFrom('15M-2s-224-r2'));
    expect(b).not.toEqual(a);
    // Still the earlier LTE-A walk: within 10–90 ms one way (+ serialisation of 60 B), and it does move.
    for (const d of [...a, ...b]) expect(d).toBeGreaterThanOrEqual(10);
    for (const d of [...a, ...b]) expect(d).toBeLessThan(91);
    expect(Math.max(...a) - Math.min(...a)).toBeGreaterThan(10);
  });
});
