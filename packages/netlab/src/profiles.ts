import type { LinkSpec } from './relay/LinkSpec.js';

/** The paper's backhaul RTTs to the UK testbed (Section V-A). */
export const PAPER_RTT_MS = { 'us-west': 137, japan: 224, australia: 302, india: 334 } as const;

/** A backhaul of the given RTT (split evenly between directions), optionally rate-capped. */
export function backhaul(rttMs: number, rateMbps?: number): LinkSpec {
  return { up: { delayMs: rttMs / 2, rateMbps }, down: { delayMs: rttMs / 2, rateMbps } };
}

/** The uplink's stream of a profile's seed: each direction its own load process. */
const upSeed = (seed: number) => (seed ^ 0x9e3779b9) >>> 0;

/**
 * The LTE-A cell's parameters (docs/netlab.md, "The LTE-A radio model"). Capacity: the paper's
 * cell (Huawei lampsite, Band 41) offers 112 Mbit/s down; 50 up. Load: three other users, each
 * backlogged for 0.5 s on average and idle for 1.92 s, so at least one is busy half of the time —
 * the paper's "50 % cell load" (Fig. 6). Buffer: a deep per-user RLC/PDCP buffer (3 MB) with a
 * 150 ms PDCP discard timer, which with the base delay puts the RTT's ceiling at Fig. 6's ~180 ms.
 * Base delay: 9 ms one way, so an idle ping (plus TTI alignment) sees Fig. 6's floor of ~20 ms.
 */
export const LTE_A_CELL = {
  baseDelayMs: 9,
  downMbps: 112,
  upMbps: 50,
  others: { users: 3, meanOnMs: 500, meanOffMs: 1924 },
  bufferBytes: 3_000_000,
  discardMs: 150,
  harq: { probability: 0.1, delayMs: 8 },
} as const;

/**
 * The paper's LTE-A RAN as a shared cell: a stable base delay (9 ms one way), 1 ms TTIs of a
 * 112 Mbit/s (down) / 50 Mbit/s (up) cell whose share for us varies with the other users' load,
 * a deep per-user eNodeB buffer (RTT rises with queueing, to ~180 ms as in Fig. 6), HARQ
 * retransmissions (8 ms, 10 % of TTIs, in order). With a seed the load process is reproducible.
 * `load` replaces the 50 % cell load (the fraction of time the other users keep the cell busy).
 */
export function lteA(o: { seed?: number; load?: number } = {}): LinkSpec {
  const c = LTE_A_CELL;
  const others = o.load === undefined ? { ...c.others } : othersForLoad(o.load);
  const cell = (capacityMbps: number) => ({
    capacityMbps,
    others: { ...others },
    bufferBytes: c.bufferBytes,
    discardMs: c.discardMs,
    harq: { ...c.harq },
  });
  const seed = o.seed;
  return {
    down: { delayMs: c.baseDelayMs, cell: cell(c.downMbps), ...(seed === undefined ? {} : { seed }) },
    up: { delayMs: c.baseDelayMs, cell: cell(c.upMbps), ...(seed === undefined ? {} : { seed: upSeed(seed) }) },
  };
}

/**
 * The other users for a cell load in [0, 1): the fraction of time at least one of them is
 * backlogged, with LTE_A_CELL's user count and mean ON time (the OFF time follows).
 */
export function othersForLoad(load: number): { users: number; meanOnMs: number; meanOffMs: number } {
  if (!(load > 0 && load < 1)) throw new RangeError(`cell load must be in (0, 1), got ${load}`);
  const { users, meanOnMs } = LTE_A_CELL.others;
  const pOn = 1 - (1 - load) ** (1 / users);
  return { users, meanOnMs, meanOffMs: Math.round((meanOnMs * (1 - pOn)) / pOn) };
}

/**
 * The earlier LTE-A model, kept so its results stay reproducible: 112 Mbit/s downlink cap, the
 * one-way delay a bounded random walk of 10–90 ms (±4 ms every 10 ms) in each direction,
 * independent of traffic. It makes the path's base RTT change ninefold within seconds, which no
 * real cell does (docs/netlab.md, "The LTE-A radio model").
 */
export function lteAWalk(o: { seed?: number } = {}): LinkSpec {
  const seed = o.seed;
  return {
    down: { delayMs: 25, rateMbps: 112, fluctuating: { minMs: 10, maxMs: 90 }, ...(seed === undefined ? {} : { seed }) },
    up: { delayMs: 25, rateMbps: 50, fluctuating: { minMs: 10, maxMs: 90 }, ...(seed === undefined ? {} : { seed: upSeed(seed) }) },
  };
}

export const LTE_A = 'lte-a';
/** The earlier delay-walk model's name (`--ran lte-a-walk`). */
export const LTE_A_WALK = 'lte-a-walk';
