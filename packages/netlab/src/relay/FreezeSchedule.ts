import { seededRandom } from './seededRandom.js';

/**
 * Extra departure lateness put into a relay on purpose, to measure what a given lateness does to
 * the results (docs/netlab.md, "The lateness bar"). The relay's sending thread is frozen at
 * seeded random moments, as a virtual machine's vCPU is when the hypervisor deschedules it: a
 * datagram due during a freeze leaves when it ends, and the ones after it in order.
 */
export interface LatenessInjection {
  /**
   * Target p99 of the extra lateness, ms (0: none). Freezes of 1.5–2.5 × this (uniform, mean 2 ×)
   * start as a Poisson process of rate 0.01 / p99Ms per ms, so the thread is frozen 2 % of the
   * time and — traffic being independent of the freezes — 1 % of datagrams fall in a freeze with
   * more than p99Ms of it left: the extra lateness's p99 is p99Ms.
   */
  p99Ms: number;
  /** VM-like stalls on top, per minute (Poisson), each of `stallMs` (uniform; default 5–10 ms). */
  stallsPerMinute: number;
  stallMs?: [number, number];
  /** The freezes' random source: the same seed, the same freezes at the same times (from the first datagram). */
  seed: number;
}

/** What the freezes cost so far. */
export interface FreezeStats {
  /** Freezes that began (both kinds). */
  freezes: number;
  /** Their total length, ms (overlaps counted twice). */
  frozenMs: number;
}

interface Process {
  ratePerMs: number;
  minMs: number;
  maxMs: number;
  start: number;
  end: number;
}

export const DEFAULT_STALL_MS: [number, number] = [5, 10];

/** Checks an injection's numbers; the message names the field. */
export function latenessInjectionProblem(l: LatenessInjection): string | undefined {
  if (!(Number.isFinite(l.p99Ms) && l.p99Ms >= 0 && l.p99Ms <= 100)) return `p99Ms must be in [0, 100] ms, got ${l.p99Ms}`;
  if (!(Number.isFinite(l.stallsPerMinute) && l.stallsPerMinute >= 0 && l.stallsPerMinute <= 600))
    return `stallsPerMinute must be in [0, 600], got ${l.stallsPerMinute}`;
  const [lo, hi] = l.stallMs ?? DEFAULT_STALL_MS;
  if (!(lo > 0 && hi >= lo && hi <= 1000)) return `stallMs must be [min, max] with 0 < min ≤ max ≤ 1000, got [${lo}, ${hi}]`;
  return undefined;
}

/**
 * The freezes of one relay as a function of time since its first datagram: `thawAt(t)` is the end
 * of the freeze `t` falls in, or `t` itself. Pure but for the seeded source; `t` must not decrease
 * between calls (the sending thread's clock), so memory is constant.
 */
export class FreezeSchedule {
  readonly stats: FreezeStats = { freezes: 0, frozenMs: 0 };
  private readonly processes: Process[] = [];
  private readonly random: () => number;

  constructor(spec: LatenessInjection) {
    const problem = latenessInjectionProblem(spec);
    if (problem) throw new RangeError(`lateness injection: ${problem}`);
    this.random = seededRandom(spec.seed);
    if (spec.p99Ms > 0) this.add(0.01 / spec.p99Ms, 1.5 * spec.p99Ms, 2.5 * spec.p99Ms);
    const [lo, hi] = spec.stallMs ?? DEFAULT_STALL_MS;
    if (spec.stallsPerMinute > 0) this.add(spec.stallsPerMinute / 60_000, lo, hi);
  }

  private add(ratePerMs: number, minMs: number, maxMs: number): void {
    const p: Process = { ratePerMs, minMs, maxMs, start: 0, end: 0 };
    this.draw(p, 0);
    this.processes.push(p);
  }

  /** The next freeze of `p` after one that began at `from`: an exponential gap, a uniform length. */
  private draw(p: Process, from: number): void {
    p.start = from - Math.log(1 - this.random()) / p.ratePerMs;
    const length = p.minMs + this.random() * (p.maxMs - p.minMs);
    p.end = p.start + length;
    this.stats.freezes += 1;
    this.stats.frozenMs += length;
  }

  /** The moment the thread may run again if it wants to run at `t` (ms since the first datagram). */
  thawAt(t: number): number {
    let thaw = t;
    for (const p of this.processes) {
      while (p.end <= t) this.draw(p, p.start);
      if (p.start <= t) thaw = Math.max(thaw, p.end);
    }
    return thaw;
  }

  /** Freezes that began by `t` and their length (the last drawn one has not begun until its start). */
  statsAt(t: number): FreezeStats {
    let freezes = this.stats.freezes;
    let frozenMs = this.stats.frozenMs;
    for (const p of this.processes) {
      if (p.start > t) {
        freezes -= 1;
        frozenMs -= p.end - p.start;
      }
    }
    return { freezes, frozenMs };
  }
}
