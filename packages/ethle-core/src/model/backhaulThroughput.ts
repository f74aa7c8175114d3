import { mathisThroughputBps } from './mathisThroughputBps.js';
import { slowStartDeliverySeconds, type SlowStartInput } from './slowStartDeliverySeconds.js';
import { LIMITS, requireRange } from './validate.js';
import { windowCapBps } from './windowCapBps.js';

export interface BackhaulInput extends SlowStartInput {
  /**
   * Packet loss rate on the backhaul when known; caps throughput at the Mathis rate. Mathis is
   * the bound of loss-based congestion control (Reno, CUBIC); BBR does not back off on random
   * loss of a few percent, so with BBR senders this cap is pessimistic.
   */
  lossRate?: number;
  /** Receive window of the fetching socket, bytes (see receiveWindowFromBuffer, windowCapBps). */
  receiveWindowBytes?: number;
  /** Bytes the origin keeps in flight at most (its send buffer's effective size, see windowCapBps). */
  sendWindowBytes?: number;
}

export interface BackhaulEstimate {
  /** th_bh of the paper (eq. 11): segment bytes over delivery time, bits/s. */
  bps: number;
  /** d_seg of the paper (eq. 10), seconds. */
  deliverySeconds: number;
  /** What bounds the estimate. */
  limitedBy: 'slow-start' | 'bottleneck' | 'window' | 'loss';
}

/**
 * Backhaul throughput of one segment fetch (paper Section IV, eq. 10–11), capped by the TCP
 * window and by loss: th_bh = min(slow start up to min(bottleneck, window/RTT), Mathis).
 * The window acts like a bottleneck of window/RTT: slow start doubles up to it, then the flow
 * sends one window per RTT (windowCapBps explains the numbers).
 */
export function backhaulThroughput(input: BackhaulInput): BackhaulEstimate {
  const cap = windowCapBps(input);
  const link = input.bottleneckBps;
  // A cap beyond the model's rate limit is no cap (and would fail slowStartDeliverySeconds' check).
  const windowBinds = cap !== undefined && cap < LIMITS.maxBps && (link === undefined || cap < link);
  const bottleneckBps = windowBinds ? cap : link;
  const pure = slowStartDeliverySeconds({ ...input, bottleneckBps: undefined });
  let deliverySeconds = slowStartDeliverySeconds({ ...input, bottleneckBps });
  let limitedBy: BackhaulEstimate['limitedBy'] = deliverySeconds > pure + 1e-12 ? (windowBinds ? 'window' : 'bottleneck') : 'slow-start';
  if (input.lossRate !== undefined && requireRange('lossRate', input.lossRate, 0, 1) > 0) {
    const mathis = mathisThroughputBps({ rttSeconds: input.rttSeconds, lossRate: input.lossRate, mssBytes: input.mssBytes });
    const capped = (input.bytes * 8) / mathis;
    if (capped > deliverySeconds) {
      deliverySeconds = capped;
      limitedBy = 'loss';
    }
  }
  const bps = deliverySeconds > 0 ? (input.bytes * 8) / deliverySeconds : Number.POSITIVE_INFINITY;
  return { bps, deliverySeconds, limitedBy };
}
