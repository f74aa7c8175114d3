/**
 * One direction of an emulated link. Delay is one-way; a path's RTT is the sum of both directions'
 * delays over every link it crosses.
 */
export interface DirectionSpec {
  /** Constant one-way delay, ms. */
  delayMs: number;
  /**
   * Delay that fluctuates like a loaded LTE cell (paper Fig. 6: 20–180 ms at 50 % load): a bounded
   * random walk between minMs and maxMs replaces `delayMs`. Packets are never reordered: a packet
   * leaves no earlier than the one before it (FIFO, like a real radio bearer).
   */
  fluctuating?: { minMs: number; maxMs: number; stepMs?: number; everyMs?: number };
  /** Rate cap, Mbit/s (serialisation at this rate). */
  rateMbps?: number;
  /** Drop-tail queue limit, bytes (default: 1.5 × BDP at 100 ms, at least 64 kB). */
  queueBytes?: number;
  /**
   * Seed of this direction's random source (fluctuating delay, loss). The same seed gives the same
   * delay walk over time, so runs to compare (schemes within one repeat) see the same radio;
   * unset: Math.random.
   */
  seed?: number;
  /** Random loss probability per packet, [0, 1). */
  loss?: number;
  /** mahimahi trace: ms timestamps (looping), each an opportunity to deliver one 1500-byte packet. */
  traceMs?: number[];
}

export interface LinkSpec {
  /** From the side nearer the client to the side nearer the origin (uplink). */
  up: DirectionSpec;
  /** Towards the client (downlink). */
  down: DirectionSpec;
}

/** A symmetric link: the same spec both ways. */
export function symmetric(d: DirectionSpec): LinkSpec {
  return { up: { ...d }, down: { ...d } };
}
