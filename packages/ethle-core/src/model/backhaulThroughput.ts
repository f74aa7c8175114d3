import { mathisThroughputBps } from './mathisThroughputBps.js';
import { slowStartDeliverySeconds, type SlowStartInput } from './slowStartDeliverySeconds.js';
import { requireRange } from './validate.js';

export interface BackhaulInput extends SlowStartInput {
  /** Packet loss rate on the backhaul when known; caps throughput at the Mathis rate. */
  lossRate?: number;
}

export interface BackhaulEstimate {
  /** th_bh of the paper (eq. 11): segment bytes over delivery time, bits/s. */
  bps: number;
  /** d_seg of the paper (eq. 10), seconds. */
  deliverySeconds: number;
  /** What bounds the estimate. */
  limitedBy: 'slow-start' | 'bottleneck' | 'loss';
}

/** Backhaul throughput of one segment fetch (paper Section IV, eq. 10–11), optionally loss-capped. */
export function backhaulThroughput(input: BackhaulInput): BackhaulEstimate {
  const pure = slowStartDeliverySeconds({ ...input, bottleneckBps: undefined });
  let deliverySeconds = slowStartDeliverySeconds(input);
  let limitedBy: BackhaulEstimate['limitedBy'] = deliverySeconds > pure + 1e-12 ? 'bottleneck' : 'slow-start';
  if (input.lossRate !== undefined && requireRange('lossRate', input.lossRate, 0, 1) > 0) {
    const cap = mathisThroughputBps({ rttSeconds: input.rttSeconds, lossRate: input.lossRate, mssBytes: input.mssBytes });
    const capped = (input.bytes * 8) / cap;
    if (capped > deliverySeconds) {
      deliverySeconds = capped;
      limitedBy = 'loss';
    }
  }
  const bps = deliverySeconds > 0 ? (input.bytes * 8) / deliverySeconds : Number.POSITIVE_INFINITY;
  return { bps, deliverySeconds, limitedBy };
}
