import { CellScheduler } from './CellScheduler.js';
import type { DirectionSpec } from './LinkSpec.js';

export interface ShaperStats {
  packets: number;
  bytes: number;
  drops: number;
  lossDrops: number;
  queueBytes: number;
  /** The most that waited in that queue ahead of a packet it admitted, bytes: how deep the model's queue got. */
  maxQueueBytes: number;
  /** Cell model only: drops because a PDCP discard timer would have expired (also counted in `drops`). */
  discardDrops?: number;
  /** Cell model only: TTIs whose transport block needed a HARQ retransmission. */
  harqRetransmissions?: number;
  /** Cell model only: TTIs in which we had data, and the bytes the cell offered us in them (our share). */
  servedTtis?: number;
  offeredBytes?: number;
}

const MTU_OPPORTUNITY = 1500;

/**
 * When each packet of one direction leaves, from its arrival time and size: rate cap
 * (serialisation), drop-tail queue, random loss, constant or fluctuating delay, a mahimahi
 * trace of delivery opportunities, or a shared cell's TTI scheduler (CellScheduler). Pure but for the random source, which is injected; time in ms.
 */
export class DirectionShaper {
  readonly stats: ShaperStats = { packets: 0, bytes: 0, drops: 0, lossDrops: 0, queueBytes: 0, maxQueueBytes: 0 };
  /** When the bottleneck finishes sending what is queued, ms. */
  private busyUntil = 0;
  private lastDeparture = 0;
  private delay: number;
  private nextStepAt = 0;
  /** Trace state: index of the next opportunity and the loop offset. */
  private traceIdx = 0;
  private traceLoop = 0;
  private traceLeft = 0;
  private readonly queueLimit: number;
  private readonly cell: CellScheduler | undefined;

  constructor(
    private readonly spec: DirectionSpec,
    private readonly random: () => number = Math.random,
    private readonly traceStartMs = 0,
  ) {
    this.delay = spec.fluctuating ? (spec.fluctuating.minMs + spec.fluctuating.maxMs) / 2 : spec.delayMs;
    const bdp = spec.rateMbps ? (spec.rateMbps * 1e6 * 0.1) / 8 : 0;
    this.queueLimit = spec.queueBytes ?? Math.max(64_000, 1.5 * bdp);
    if (spec.cell && (spec.rateMbps !== undefined || spec.fluctuating || spec.traceMs)) {
      // The cell is the rate and the delay's variation: a second one on top would be a different model.
      throw new RangeError('a direction with `cell` takes no rateMbps, fluctuating or traceMs');
    }
    // Unseeded: a seed drawn from the injected source, so the cell's load is still one stream.
    this.cell = spec.cell ? new CellScheduler(spec.cell, spec.seed ?? Math.floor(this.random() * 4294967296)) : undefined;
  }

  /**
   * Departure time for a packet of `size` bytes arriving at `now`, or null if dropped. `servedAt`:
   * the packet already went through a bottleneck elsewhere (a cell's shared cap) and was sent by
   * then — only this direction's loss, delay and FIFO order apply.
   */
  admit(size: number, now: number, servedAt?: number): number | null {
    const s = this.spec;
    if (s.loss && this.random() < s.loss) {
      this.stats.lossDrops += 1;
      return null;
    }
    let sent: number;
    if (servedAt !== undefined) {
      sent = servedAt;
    } else if (this.cell) {
      this.stats.queueBytes = this.cell.queuedBytes(now);
      this.stats.maxQueueBytes = Math.max(this.stats.maxQueueBytes, this.stats.queueBytes);
      const out = this.cell.serve(size, now);
      this.stats.discardDrops = this.cell.stats.discardDrops;
      this.stats.harqRetransmissions = this.cell.stats.harqRetransmissions;
      this.stats.servedTtis = this.cell.stats.servedTtis;
      this.stats.offeredBytes = this.cell.stats.offeredBytes;
      if (typeof out !== 'number') {
        this.stats.drops += 1;
        return null;
      }
      sent = out;
    } else if (s.traceMs && s.traceMs.length > 0) {
      sent = this.nextOpportunity(size, now);
    } else if (s.rateMbps) {
      const start = Math.max(now, this.busyUntil);
      const backlog = ((start - now) * s.rateMbps * 1e3) / 8; // bytes waiting ahead of this one
      if (backlog + size > this.queueLimit) {
        this.stats.drops += 1;
        return null;
      }
      this.busyUntil = start + (size * 8) / (s.rateMbps * 1e3);
      sent = this.busyUntil;
      this.stats.queueBytes = backlog;
      this.stats.maxQueueBytes = Math.max(this.stats.maxQueueBytes, backlog);
    } else {
      sent = now;
    }
    const departure = Math.max(sent + this.currentDelay(now), this.lastDeparture);
    this.lastDeparture = departure;
    this.stats.packets += 1;
    this.stats.bytes += size;
    return departure;
  }

  private currentDelay(now: number): number {
    const f = this.spec.fluctuating;
    if (!f) return this.spec.delayMs;
    const every = f.everyMs ?? 10;
    while (now >= this.nextStepAt) {
      const step = f.stepMs ?? (f.maxMs - f.minMs) / 20;
      this.delay = Math.min(f.maxMs, Math.max(f.minMs, this.delay + (this.random() * 2 - 1) * step));
      this.nextStepAt = this.nextStepAt === 0 ? now + every : this.nextStepAt + every;
    }
    return this.delay;
  }

  /** mahimahi semantics: each trace line lets up to 1500 bytes through at that ms; the trace loops. */
  private nextOpportunity(size: number, now: number): number {
    const trace = this.spec.traceMs!;
    const period = trace[trace.length - 1]! || 1;
    const at = () => this.traceStartMs + this.traceLoop * period + trace[this.traceIdx]!;
    const advance = () => {
      this.traceIdx += 1;
      if (this.traceIdx >= trace.length) {
        this.traceIdx = 0;
        this.traceLoop += 1;
      }
      this.traceLeft = MTU_OPPORTUNITY;
    };
    // Opportunities in the past are lost (the link was idle): skip to now.
    if (this.traceLeft === 0) this.traceLeft = MTU_OPPORTUNITY;
    let guard = 0;
    while (at() < now && guard++ < 1e6) advance();
    let need = size;
    let t = at();
    while (need > 0 && guard++ < 1e6) {
      const take = Math.min(need, this.traceLeft);
      need -= take;
      this.traceLeft -= take;
      t = at();
      if (this.traceLeft === 0) advance();
    }
    return t;
  }
}

/** Reads a mahimahi trace file's text: one non-negative integer ms timestamp per line. */
export function parseMahimahiTrace(text: string): number[] {
  const out: number[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t === '') continue;
    const v = Number(t);
    if (!Number.isInteger(v) || v < 0) throw new Error(`not a mahimahi trace line: ${JSON.stringify(line)}`);
    out.push(v);
  }
  if (out.length === 0) throw new Error('empty mahimahi trace');
  return out;
}
