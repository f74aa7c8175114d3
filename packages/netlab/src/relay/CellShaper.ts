import type { CellSpec } from './CellSpec.js';
import { userSeed } from './CellSpec.js';
import { DirectionShaper, type ShaperStats } from './DirectionShaper.js';
import type { DirectionSpec } from './LinkSpec.js';

/** Offsets of the IPv4 source and destination addresses in a raw IP datagram (TUN, no packet info). */
const IPV4_SRC = 12;
const IPV4_DST = 16;

/**
 * The user a datagram belongs to, from the last octet of its client-side IPv4 address (source
 * going up, destination coming down): `firstHost` is user 0's. Anything else — IPv6, a short
 * datagram, an address outside the users' range — counts as user 0, as with one client.
 */
export function userOf(buf: Uint8Array, clientSide: 'src' | 'dst', firstHost: number, users: number): number {
  if (buf.length < 20 || buf[0]! >> 4 !== 4) return 0;
  const i = buf[(clientSide === 'src' ? IPV4_SRC : IPV4_DST) + 3]! - firstHost;
  return i >= 0 && i < users ? i : 0;
}

/**
 * One direction of a cell's radio: which user a datagram is for, and when it leaves. In `per-user`
 * mode each user is a DirectionShaper of the spec (own cap, own walk); in `shared` mode the cap is
 * one shaper all users queue in, after which each user's own delay applies (a FIFO per user, so
 * a user's packets never reorder). Pure but for the injected random sources; time in ms.
 */
export class CellShaper {
  private readonly users: DirectionShaper[];
  private readonly cell: DirectionShaper | undefined;

  constructor(spec: DirectionSpec, cell: CellSpec, random: (seed: number | undefined) => () => number) {
    if (cell.mode === 'shared' && cell.users > 1 && spec.cell !== undefined) {
      // The LTE-A cell model schedules one user against simulated others; several of our users in
      // one such cell would need its scheduler to share TTIs among them too, which it does not yet.
      // Saying so beats silently giving each user a cell of its own.
      throw new RangeError(
        'a shared cell of several users needs a rate-capped radio (e.g. lteAWalk(), --ran lte-a-walk); the LTE-A cell model (lteA()) supports per-user links only',
      );
    }
    const shared = cell.mode === 'shared' && cell.users > 1 && spec.rateMbps !== undefined;
    // Shared: the cap and queue once for the cell, with no delay of its own; each user's shaper
    // keeps only the delay (its walk seeded per user).
    this.cell = shared
      ? new DirectionShaper({ delayMs: 0, rateMbps: spec.rateMbps, ...(spec.queueBytes ? { queueBytes: spec.queueBytes } : {}) }, () => 1)
      : undefined;
    const { rateMbps: _rate, queueBytes: _queue, ...delayOnly } = spec;
    this.users = Array.from({ length: cell.users }, (_, i) => {
      const seed = userSeed(spec.seed, i);
      const own: DirectionSpec = { ...(shared ? delayOnly : spec), ...(seed === undefined ? {} : { seed }) };
      return new DirectionShaper(own, random(seed));
    });
  }

  get userCount(): number {
    return this.users.length;
  }

  /** Departure time of a packet of `size` bytes for `user` arriving at `now`, or null if dropped. */
  admit(user: number, size: number, now: number): number | null {
    const u = this.users[user] ?? this.users[0]!;
    if (!this.cell) return u.admit(size, now);
    const served = this.cell.admit(size, now);
    // The user's delay walk steps on the packet's arrival time, as with one user; its delay starts
    // when the cell has served the packet.
    return served === null ? null : u.admit(size, now, served);
  }

  /** Counters over all users (drops include the shared queue's). */
  get stats(): ShaperStats {
    const c = this.cell?.stats;
    const sum: ShaperStats = {
      packets: 0,
      bytes: 0,
      drops: c?.drops ?? 0,
      lossDrops: 0,
      queueBytes: c?.queueBytes ?? 0,
      maxQueueBytes: c?.maxQueueBytes ?? 0,
    };
    for (const u of this.users) {
      sum.packets += u.stats.packets;
      sum.bytes += u.stats.bytes;
      sum.drops += u.stats.drops;
      sum.lossDrops += u.stats.lossDrops;
      // Per-user cells (the LTE-A model per user): their PDCP discards are modelled drops of their own.
      if (u.stats.discardDrops !== undefined) sum.discardDrops = (sum.discardDrops ?? 0) + u.stats.discardDrops;
      if (!this.cell) {
        sum.queueBytes = Math.max(sum.queueBytes, u.stats.queueBytes);
        sum.maxQueueBytes = Math.max(sum.maxQueueBytes, u.stats.maxQueueBytes);
      }
    }
    return sum;
  }

  /** Bytes each user was sent (for per-user checks). */
  userBytes(): number[] {
    return this.users.map((u) => u.stats.bytes);
  }
}
