import { backhaulThroughput, type BackhaulEstimate } from './backhaulThroughput.js';
import { decideHold, type HoldDecision } from './decideHold.js';
import { LIMITS, requireRange } from './validate.js';

export interface ModelHoldInput {
  /** Backhaul round-trip time, seconds. */
  rttSeconds: number;
  /** Segment size, bytes. */
  segmentBytes: number;
  /** Segment length, seconds. */
  segmentSeconds: number;
  /** Receiver radio throughput, bits/s. */
  ranBps: number;
  /** Stream bitrate, bits/s (default segmentBytes·8 / segmentSeconds). */
  bitrateBps?: number;
  initialWindowSegments?: number;
  mssBytes?: number;
  bottleneckBps?: number;
  /** Measured backhaul loss rate, [0, 1]: caps th_bh at the Mathis rate. */
  lossRate?: number;
  /** The edge's receive window on its origin sockets, bytes (receiveWindowFromBuffer of its SO_RCVBUF). */
  receiveWindowBytes?: number;
  /** The origin's effective send window, bytes (configured or learned). */
  sendWindowBytes?: number;
  maxHold?: number;
  /** Count the request's RTT in the delivery time (what a real fetch pays; the paper's Table III does not). */
  includeRequestRtt?: boolean;
}

export type ModelHoldResult = HoldDecision & { backhaul: BackhaulEstimate };

/**
 * Backhaul model (Section IV) + decision (Section III-B) in one call: what `ethle-edge plan` prints.
 * th_bh = min(slow start up to the bottleneck and window/RTT, Mathis with the loss rate).
 */
export function modelHold(input: ModelHoldInput): ModelHoldResult {
  const segmentBytes = requireRange('segmentBytes', input.segmentBytes, 0, LIMITS.maxBytes, true);
  const backhaul = backhaulThroughput({
    bytes: segmentBytes,
    rttSeconds: input.rttSeconds,
    initialWindowSegments: input.initialWindowSegments,
    mssBytes: input.mssBytes,
    bottleneckBps: input.bottleneckBps,
    lossRate: input.lossRate,
    receiveWindowBytes: input.receiveWindowBytes,
    sendWindowBytes: input.sendWindowBytes,
    includeRequestRtt: input.includeRequestRtt,
  });
  const decision = decideHold({
    segmentBytes,
    segmentSeconds: input.segmentSeconds,
    backhaulBps: backhaul.bps,
    ranBps: input.ranBps,
    bitrateBps: input.bitrateBps,
    maxHold: input.maxHold,
  });
  return { ...decision, backhaul };
}
