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
  /** A shared radio cell's scheduler instead of a fixed rate cap; `delayMs` is its stable base delay. */
  cell?: RadioCellSpec;
  /** Rate cap, Mbit/s (serialisation at this rate). */
  rateMbps?: number;
  /** Drop-tail queue limit, bytes (default: 1.5 × BDP at 100 ms, at least 64 kB). */
  queueBytes?: number;
  /**
   * Seed of this direction's random source (fluctuating delay, the cell's load and HARQ, loss). The
   * same seed gives the same delay walk or cell load over time, so runs to compare (schemes within one repeat) see the same radio;
   * unset: Math.random.
   */
  seed?: number;
  /** Random loss probability per packet, [0, 1). */
  loss?: number;
  /** mahimahi trace: ms timestamps (looping), each an opportunity to deliver one 1500-byte packet. */
  traceMs?: number[];
}

/**
 * A cell's radio scheduler in one direction, as one user of it sees it (the LTE-A model): the cell
 * sends in TTIs of 1 ms; in each TTI the user gets an equal share of the cell with the other users
 * that have data (round robin / proportional fair with equal channels), so its rate is
 * capacity / (1 + active others). The other users switch between backlogged (ON) and idle (OFF)
 * with exponential durations from a seeded stream: the same seed, the same load over time,
 * whatever our traffic does. The user's packets wait in a FIFO per-user buffer at the eNodeB (RLC/
 * PDCP: deep, so RTT rises with queueing) bounded in bytes and by a PDCP discard timer.
 */
export interface RadioCellSpec {
  /** The cell's capacity in this direction when one user has it all, Mbit/s. */
  capacityMbps: number;
  /** Scheduling interval, ms (LTE: 1). */
  ttiMs?: number;
  /** Other users: how many, and the mean of their exponential ON (backlogged) and OFF durations, ms. */
  others: { users: number; meanOnMs: number; meanOffMs: number };
  /** The per-user buffer at the eNodeB, bytes: a packet that would exceed it is dropped. */
  bufferBytes: number;
  /** PDCP discard timer, ms: a packet that would wait longer than this before its TTI is dropped. */
  discardMs?: number;
  /**
   * HARQ: the probability a TTI's transport block fails its first transmission and is resent
   * `delayMs` later (LTE FDD: 8 ms). Delivery stays in order (RLC reordering), so packets after it
   * wait too. The cell's capacity is the delivered rate: a retransmission costs time, not share.
   */
  harq?: { probability: number; delayMs: number };
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
