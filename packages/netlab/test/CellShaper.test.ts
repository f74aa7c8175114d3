import { describe, expect, it } from 'vitest';
import { CellShaper, DirectionShaper, seededRandom, userOf, userSeed } from '@ethle/netlab';

/** A minimal IPv4 header with the given source and destination last octets (10.77.1.x). */
function ipv4(srcHost: number, dstHost: number, size = 40): Uint8Array {
  const b = new Uint8Array(size);
  b[0] = 0x45;
  b.set([10, 77, 1, srcHost], 12);
  b.set([10, 77, 1, dstHost], 16);
  return b;
}

const rnd = (seed: number | undefined) => (seed === undefined ? Math.random : seededRandom(seed));

describe('userOf: which cell user a datagram belongs to', () => {
  it('reads the source going up and the destination coming down', () => {
    expect(userOf(ipv4(5, 1), 'src', 2, 8)).toBe(3);
    expect(userOf(ipv4(1, 5), 'dst', 2, 8)).toBe(3);
    expect(userOf(ipv4(1, 5), 'src', 2, 8)).toBe(0); // 10.77.1.1 is the edge, not a user
  });

  it('anything it cannot place is user 0: outside the range, not IPv4, too short', () => {
    expect(userOf(ipv4(1, 10), 'dst', 2, 8)).toBe(0);
    const v6 = ipv4(1, 5);
    v6[0] = 0x60;
    expect(userOf(v6, 'dst', 2, 8)).toBe(0);
    expect(userOf(new Uint8Array(10), 'dst', 2, 8)).toBe(0);
  });
});

describe('CellShaper: one direction of a cell of users', () => {
  const spec = { delayMs: 10, rateMbps: 12 }; // 1500 B = 1 ms at 12 Mbit/s

  it('per-user: every user has the whole cap — two users’ bursts are serialised independently', () => {
    const c = new CellShaper(spec, { users: 2, mode: 'per-user' }, rnd);
    const a = [0, 0, 0].map(() => c.admit(0, 1500, 0));
    const b = [0, 0, 0].map(() => c.admit(1, 1500, 0));
    expect(a).toEqual([11, 12, 13]);
    expect(b).toEqual([11, 12, 13]);
  });

  it('shared: the users queue for one cap, so interleaved bursts take twice as long', () => {
    const c = new CellShaper(spec, { users: 2, mode: 'shared' }, rnd);
    const out = [0, 1, 0, 1].map((u) => c.admit(u, 1500, 0));
    expect(out).toEqual([11, 12, 13, 14]);
    // The cell's queue is the spec's: drops count once, in the shared queue.
    expect(c.stats.packets).toBe(4);
  });

  it('shared: each user keeps its own delay, and its own packets never reorder', () => {
    const c = new CellShaper(
      { delayMs: 25, rateMbps: 12, fluctuating: { minMs: 10, maxMs: 90 }, seed: 7 },
      { users: 2, mode: 'shared' },
      rnd,
    );
    const dep: number[][] = [[], []];
    for (let t = 0; t < 2000; t += 0.5) {
      const u = Math.floor(t) % 2;
      const at = c.admit(u, 750, t);
      if (at !== null) dep[u]!.push(at);
    }
    for (const d of dep) for (let i = 1; i < d.length; i++) expect(d[i]!).toBeGreaterThanOrEqual(d[i - 1]!);
    // Two walks from different seeds: the users' delays differ somewhere.
    expect(dep[0]!.slice(0, 500)).not.toEqual(dep[1]!.slice(0, 500));
  });

  it('user 0 of a per-user cell sees the same radio as the one-user link of the same seed', () => {
    const lte = { delayMs: 25, rateMbps: 112, fluctuating: { minMs: 10, maxMs: 90 }, seed: 42 };
    const one = new DirectionShaper(lte, seededRandom(42));
    const cell = new CellShaper(lte, { users: 4, mode: 'per-user' }, rnd);
    for (let t = 0; t < 500; t += 0.3) expect(cell.admit(0, 1500, t)).toBe(one.admit(1500, t));
    expect(userSeed(42, 0)).toBe(42);
    expect(new Set([0, 1, 2, 3].map((i) => userSeed(42, i))).size).toBe(4);
  });

  it('counts bytes per user', () => {
    const c = new CellShaper({ delayMs: 1 }, { users: 3, mode: 'per-user' }, rnd);
    c.admit(2, 100, 0);
    c.admit(2, 50, 0);
    c.admit(0, 10, 0);
    expect(c.userBytes()).toEqual([10, 0, 150]);
  });

  it('a shared cell of several users over the LTE-A cell model is refused with a clear error, not silently made per-user', async () => {
    const { lteA } = await import('@ethle/netlab');
    expect(() => new CellShaper(lteA({ seed: 1 }).down, { users: 2, mode: 'shared' }, () => () => 0.5)).toThrow(/per-user links only/);
    expect(new CellShaper(lteA({ seed: 1 }).down, { users: 2, mode: 'per-user' }, () => () => 0.5).userCount).toBe(2);
  });
});
