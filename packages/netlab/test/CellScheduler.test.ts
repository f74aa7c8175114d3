import { describe, expect, it } from 'vitest';
import { CellLoad, CellScheduler, DirectionShaper, LTE_A_CELL, lteA, seededRandom, type RadioCellSpec } from '@ethle/netlab';

// A cell of 12 Mbit/s: 1500 bytes per 1 ms TTI when we have it alone.
const small = (o: Partial<RadioCellSpec> = {}): RadioCellSpec => ({
  capacityMbps: 12,
  others: { users: 0, meanOnMs: 1, meanOffMs: 1 },
  bufferBytes: 1e9,
  ...o,
});

describe('CellScheduler (one user of a shared LTE cell)', () => {
  it('alone in the cell: one TTI per 1500 bytes, starting at the next TTI boundary', () => {
    const c = new CellScheduler(small(), 1);
    // First packet at t = 0.3 (the clock starts there): TTI 1 runs 1–2 ms after it.
    expect([0, 0, 0].map(() => c.serve(1500, 0.3))).toEqual([2.3, 3.3, 4.3]);
    // Two 750-byte packets share one TTI.
    expect([c.serve(750, 0.3), c.serve(750, 0.3)]).toEqual([5.3, 5.3]);
  });

  it('a backlog drains at exactly the share process: capacity / (1 + other users ON), TTI by TTI', () => {
    const cell: RadioCellSpec = { capacityMbps: 112, others: { users: 3, meanOnMs: 50, meanOffMs: 100 }, bufferBytes: 1e9 };
    const c = new CellScheduler(cell, 42);
    const out = Array.from({ length: 60_000 }, () => c.serve(1500, 0) as number);
    // The same seed's load process, queried independently, predicts each TTI's bytes.
    const load = new CellLoad(cell.others, seededRandom(42));
    const perTti = new Map<number, number>();
    for (const d of out) perTti.set(d, (perTti.get(d) ?? 0) + 1500);
    const ttis = [...perTti.keys()].sort((x, y) => x - y);
    const sawShares = new Set<number>();
    for (const end of ttis.slice(0, -1)) {
      const n = end - 1; // TTI n ends at n + 1
      const share = Math.floor(14_000 / (1 + load.activeAt(n)));
      sawShares.add(share);
      // Whole packets only: a TTI carries its share give or take one packet crossing its boundary.
      expect(perTti.get(end)!).toBeLessThanOrEqual(share + 1500);
      expect(perTti.get(end)!).toBeGreaterThanOrEqual(share - 1500);
    }
    expect(sawShares.size).toBeGreaterThanOrEqual(3); // the share really varies
    // Over the whole backlog, bytes = the shares of every TTI but the last (nothing lost, nothing
    // invented), plus what fits in the last one.
    const load2 = new CellLoad(cell.others, seededRandom(42));
    const last = ttis.at(-1)! - 1;
    let full = 0;
    for (let n = 1; n < last; n++) full += Math.floor(14_000 / (1 + load2.activeAt(n)));
    const lastShare = Math.floor(14_000 / (1 + load2.activeAt(last)));
    expect(60_000 * 1500 - full).toBeGreaterThan(0);
    expect(60_000 * 1500 - full).toBeLessThanOrEqual(lastShare + 1500);
  });

  it('never exceeds the cell: bytes delivered in any TTI ≤ capacity, whatever the arrivals', () => {
    const c = new CellScheduler({ ...small({ capacityMbps: 112 }), others: { users: 2, meanOnMs: 20, meanOffMs: 20 } }, 7);
    const rnd = seededRandom(3);
    const perTti = new Map<number, number>();
    let t = 0;
    for (let i = 0; i < 50_000; i++) {
      t += rnd() * 0.2;
      const size = 40 + Math.floor(rnd() * 1460);
      const d = c.serve(size, t) as number;
      perTti.set(d, (perTti.get(d) ?? 0) + size);
    }
    // A packet may finish in a TTI after starting in the previous: allow one packet over.
    for (const bytes of perTti.values()) expect(bytes).toBeLessThanOrEqual(14_000 + 1500);
  });

  it('FIFO: departures never go backwards, HARQ delays included', () => {
    const s = new DirectionShaper(lteA({ seed: 9 }).down);
    const rnd = seededRandom(5);
    let last = -Infinity;
    let t = 0;
    for (let i = 0; i < 40_000; i++) {
      t += rnd() * 0.15;
      const d = s.admit(1500, t);
      if (d === null) continue;
      expect(d).toBeGreaterThanOrEqual(last);
      expect(d).toBeGreaterThanOrEqual(t + LTE_A_CELL.baseDelayMs + 1); // base delay + at least one TTI
      last = d;
    }
    expect(s.stats.harqRetransmissions).toBeGreaterThan(0);
  });

  it('buffer bound: a burst beyond the per-user buffer is dropped, and the queue frees as TTIs pass', () => {
    const c = new CellScheduler(small({ bufferBytes: 15_000 }), 1);
    const out = Array.from({ length: 20 }, () => c.serve(1500, 0));
    expect(out.filter((x) => x === 'buffer').length).toBe(10);
    expect(c.stats.bufferDrops).toBe(10);
    expect(c.queuedBytes(0)).toBe(15_000);
    expect(c.queuedBytes(6)).toBe(15_000 - 5 * 1500); // TTIs 1–5 have sent five packets by t = 6
    expect(typeof c.serve(1500, 6)).toBe('number');
  });

  it('PDCP discard: a packet that would wait longer than the timer is dropped, so queueing delay is bounded', () => {
    const c = new CellScheduler(small({ discardMs: 20 }), 1);
    const out = Array.from({ length: 40 }, () => c.serve(1500, 0));
    const kept = out.filter((x): x is number => typeof x === 'number');
    expect(kept.length).toBe(20); // TTIs 1..20 start within 20 ms of t = 0
    expect(Math.max(...kept)).toBe(21);
    expect(c.stats.discardDrops).toBe(20);
  });

  it('seeded: the same seed gives the same load process and delays, whatever else the traffic did', () => {
    const probe = (seed: number, cross: boolean) => {
      const s = new DirectionShaper(lteA({ seed }).down);
      const out: number[] = [];
      s.admit(60, 0); // the cell's clock starts at the link's first packet
      for (let t = 0.5; t < 20_000; t += 0.5) {
        // Optional cross traffic in the first 5 s; the probes after 10 s see the same cell either way.
        if (cross && t < 5000) s.admit(1500, t);
        if (t % 50 === 0 && t >= 10_000) out.push(s.admit(60, t)! - t);
      }
      return out;
    };
    const a = probe(16, false);
    expect(probe(16, true)).toEqual(a);
    expect(probe(17, false)).not.toEqual(a);
  });

  it('a cell is the rate and the variation of its direction: combining it with another is refused', () => {
    expect(() => new DirectionShaper({ delayMs: 9, rateMbps: 112, cell: small() })).toThrow(/takes no rateMbps/);
  });

  it('the LTE-A load: other users keep the cell busy about half of the time, our share averages ~73 %', () => {
    expect(CellLoad.busyFraction(LTE_A_CELL.others)).toBeCloseTo(0.5, 2);
    const load = new CellLoad(LTE_A_CELL.others, seededRandom(1));
    let busy = 0;
    let share = 0;
    const n = 2_000_000; // 2000 s of 1 ms TTIs
    for (let t = 0; t < n; t++) {
      const k = load.activeAt(t);
      if (k > 0) busy += 1;
      share += 1 / (1 + k);
    }
    expect(busy / n).toBeGreaterThan(0.45);
    expect(busy / n).toBeLessThan(0.55);
    expect(share / n).toBeGreaterThan(0.69);
    expect(share / n).toBeLessThan(0.77);
    expect(() => load.activeAt(0)).toThrow(/back in time/);
  });
});
