import { decideHold as coreDecideHold } from '../model/decideHold.js';
import { modelHold, type SegmentStart } from '../model/modelHold.js';

/** What the edge measured, for one receiver's decision. */
export interface HoldContext {
  rttMs: number;
  segmentBytes: number;
  segmentSeconds: number;
  ranMbps: number;
  initialWindow: number;
  maxHold: number;
  /** Backhaul throughput the edge actually achieved on recent segment fetches (Mbit/s), if known. */
  measuredBackhaulMbps?: number;
  /** The edge's receive window on its origin sockets and the origin's send window (bytes): one flow ≤ window/RTT. */
  receiveWindowBytes?: number;
  sendWindowBytes?: number;
  /** Measured backhaul loss rate, [0, 1] (Mathis cap). */
  lossRate?: number;
  /** How a segment fetch starts on the backhaul (modelHold's `start`; default the paper's slow start). */
  segmentStart?: SegmentStart;
}

export interface StreamHoldDecision {
  /** eq. 1 holds: hold-0 is enough for this receiver. */
  eq1: boolean;
  /** eq. 3 holds: the radio is faster than the bitrate. */
  eq3: boolean;
  /** x for the hold-x group (eq. 2, capped by maxHold): the same for every receiver of a stream. */
  hold: number;
  backhaulMbps: number;
  deliverySeconds: number;
  reason: string;
}

/**
 * The model and decision (`modelHold`, Sections III-B and IV) in an edge's units, corrected online
 * by what the edge measured. The request's RTT counts in the delivery time: every real segment
 * fetch pays it.
 */
export function decideStreamHold(c: HoldContext): StreamHoldDecision {
  const r = modelHold({
    rttSeconds: c.rttMs / 1000,
    segmentBytes: c.segmentBytes,
    segmentSeconds: c.segmentSeconds,
    ranBps: c.ranMbps * 1e6,
    initialWindowSegments: c.initialWindow,
    maxHold: c.maxHold,
    includeRequestRtt: true,
    ...(c.receiveWindowBytes === undefined ? {} : { receiveWindowBytes: c.receiveWindowBytes }),
    ...(c.sendWindowBytes === undefined ? {} : { sendWindowBytes: c.sendWindowBytes }),
    ...(c.lossRate === undefined ? {} : { lossRate: c.lossRate }),
    ...(c.segmentStart === undefined ? {} : { start: c.segmentStart }),
  });
  // Online correction: when the fetches the edge really made were slower than the model says
  // (loss, a bottleneck, a loaded origin), decide with what was achieved — the paper's model is an
  // optimistic upper bound (Section IV), so the lower of the two is the safe input.
  const measuredBps = c.measuredBackhaulMbps === undefined ? undefined : c.measuredBackhaulMbps * 1e6;
  if (measuredBps !== undefined && measuredBps > 0 && measuredBps < r.backhaul.bps) {
    const d = coreDecideHold({
      segmentBytes: c.segmentBytes,
      segmentSeconds: c.segmentSeconds,
      backhaulBps: measuredBps,
      ranBps: c.ranMbps * 1e6,
      maxHold: c.maxHold,
    });
    return {
      eq1: d.eq1,
      eq3: d.applicable,
      hold: Math.min(d.streamHold, c.maxHold),
      backhaulMbps: c.measuredBackhaulMbps!,
      deliverySeconds: (c.segmentBytes * 8) / measuredBps,
      reason: `${d.reason} (measured backhaul)`,
    };
  }
  return {
    eq1: r.eq1,
    eq3: r.applicable,
    hold: Math.min(r.streamHold, c.maxHold),
    backhaulMbps: r.backhaul.bps / 1e6,
    deliverySeconds: r.backhaul.deliverySeconds,
    reason: r.reason,
  };
}
