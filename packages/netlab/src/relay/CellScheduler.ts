import { CellLoad } from './CellLoad.js';
import type { RadioCellSpec } from './LinkSpec.js';
import { hashUnit, seededRandom } from './seededRandom.js';

/** Why the cell refused a packet. */
export type CellDrop = 'buffer' | 'discard';

/**
 * One user's downlink (or uplink) through a shared cell, TTI by TTI: the user's FIFO buffer at
 * the eNodeB is served in each TTI with the user's share of the cell, capacity / (1 + other users
 * ON) — the share process comes from the seeded CellLoad, so the same seed gives the same shares
 * over time. Because the share process does not depend on our traffic, a packet's radio delivery
 * time is known when it arrives: it is served after everything queued ahead of it. Times are ms;
 * the process's clock starts at the first packet. Pure given the seed.
 */
export class CellScheduler {
  /**
   * Counters since the start: drops by cause, HARQ retransmissions, and the TTIs we had data in
   * with the bytes the cell offered us in them — what a flow could have had, to compare with
   * what it sent.
   */
  readonly stats = { bufferDrops: 0, discardDrops: 0, harqRetransmissions: 0, servedTtis: 0, offeredBytes: 0 };
  private readonly load: CellLoad;
  private readonly tti: number;
  private readonly bytesPerTti: number;
  private readonly harqSeed: number;
  private t0: number | undefined;
  /** Index of the TTI the queue's tail is served in (−1: none yet), and our bytes left in it. */
  private tailTti = -1;
  private left = 0;
  /** Queued packets: when each one's last byte is sent (ms since t0) and its size; FIFO with a head index. */
  private ends: number[] = [];
  private sizes: number[] = [];
  private head = 0;
  private backlog = 0;
  private lastHarqTti = -1;

  constructor(
    private readonly cell: RadioCellSpec,
    seed: number,
  ) {
    if (!(cell.capacityMbps > 0 && cell.bufferBytes > 0))
      throw new RangeError(`cell needs capacityMbps > 0 and bufferBytes > 0, got ${JSON.stringify(cell)}`);
    this.tti = cell.ttiMs ?? 1;
    this.bytesPerTti = Math.floor((cell.capacityMbps * 1e3 * this.tti) / 8);
    this.load = new CellLoad(cell.others, seededRandom(seed));
    this.harqSeed = (seed ^ 0x5bd1e995) >>> 0;
  }

  /** Bytes waiting in the user's buffer at `now` (before any packet arriving then). */
  queuedBytes(now: number): number {
    this.drain(now - (this.t0 ?? now));
    return this.backlog;
  }

  /** Our bytes in TTI `n` when we have data: the share process (n non-decreasing across calls). */
  private shareBytes(n: number): number {
    return Math.floor(this.bytesPerTti / (1 + this.load.activeAt(n * this.tti)));
  }

  /** When the radio has delivered a packet of `size` bytes arriving at `now` (before the base delay), or why it was dropped. */
  serve(size: number, now: number): number | CellDrop {
    if (this.t0 === undefined) this.t0 = now;
    const t = now - this.t0;
    this.drain(t);
    if (this.backlog + size > this.cell.bufferBytes) {
      this.stats.bufferDrops += 1;
      return 'buffer';
    }
    // The scheduler allocates a TTI at its start, from what is queued then: a packet that arrives
    // while a TTI is under way is served from the next one at the earliest.
    const nextTti = Math.floor(t / this.tti) + 1;
    const startTti = this.tailTti >= nextTti && this.left > 0 ? this.tailTti : Math.max(this.tailTti + 1, nextTti);
    if (this.cell.discardMs !== undefined && startTti * this.tti - t > this.cell.discardMs) {
      this.stats.discardDrops += 1;
      return 'discard';
    }
    if (startTti !== this.tailTti) {
      this.tailTti = startTti;
      this.left = this.open(startTti);
    }
    let need = size;
    for (;;) {
      const take = Math.min(need, this.left);
      need -= take;
      this.left -= take;
      if (need === 0) break;
      this.tailTti += 1;
      this.left = this.open(this.tailTti);
    }
    const sent = (this.tailTti + 1) * this.tti;
    this.ends.push(sent);
    this.sizes.push(size);
    this.backlog += size;
    return this.t0 + sent + this.harqDelay(this.tailTti);
  }

  /** Starts serving us in TTI n: its share, counted as offered. */
  private open(n: number): number {
    const share = this.shareBytes(n);
    this.stats.servedTtis += 1;
    this.stats.offeredBytes += share;
    return share;
  }

  /** HARQ: if TTI n's transport block failed once, it arrives `delayMs` later (n's fate is fixed by the seed). */
  private harqDelay(n: number): number {
    const h = this.cell.harq;
    if (!h || hashUnit(this.harqSeed, n) >= h.probability) return 0;
    if (n !== this.lastHarqTti) this.stats.harqRetransmissions += 1;
    this.lastHarqTti = n;
    return h.delayMs;
  }

  /** Forgets packets whose last byte has been sent by `t` (ms since t0). */
  private drain(t: number): void {
    while (this.head < this.ends.length && this.ends[this.head]! <= t) {
      this.backlog -= this.sizes[this.head]!;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.ends.length) {
      this.ends = this.ends.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }
}
