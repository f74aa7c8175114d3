import type { LinkSpec } from './relay/LinkSpec.js';

/** The paper's backhaul RTTs to the UK testbed (Section V-A). */
export const PAPER_RTT_MS = { 'us-west': 137, japan: 224, australia: 302, india: 334 } as const;

/** A backhaul of the given RTT (split evenly between directions), optionally rate-capped. */
export function backhaul(rttMs: number, rateMbps?: number): LinkSpec {
  return { up: { delayMs: rttMs / 2, rateMbps }, down: { delayMs: rttMs / 2, rateMbps } };
}

/**
 * The paper's LTE-A RAN: 112 Mbit/s downlink cap, air-interface delay fluctuating between 20 and
 * 180 ms round trip at 50 % cell load (Fig. 6) — modelled as 10–90 ms one way each direction.
 * With a seed the delay walk is reproducible (each direction its own stream from it).
 */
export function lteA(o: { seed?: number } = {}): LinkSpec {
  const seed = o.seed;
  return {
    down: { delayMs: 25, rateMbps: 112, fluctuating: { minMs: 10, maxMs: 90 }, ...(seed === undefined ? {} : { seed }) },
    up: { delayMs: 25, rateMbps: 50, fluctuating: { minMs: 10, maxMs: 90 }, ...(seed === undefined ? {} : { seed: (seed ^ 0x9e3779b9) >>> 0 }) },
  };
}

export const LTE_A = 'lte-a';
