import { HOLD_LIMITS } from './HOLD_LIMITS.js';
import { LIMITS, requireInteger, requireRange } from './validate.js';
import { capBackhaulBps, type CappedBackhaul } from './capBackhaulBps.js';

export interface HoldInput {
  /** s_seg: segment size, bytes. */
  segmentBytes: number;
  /** l_seg: segment length, seconds. */
  segmentSeconds: number;
  /** th_bh: backhaul throughput of one connection, bits/s (see backhaulThroughput). */
  backhaulBps: number;
  /** th_ran: the receiver's expected radio throughput, bits/s. */
  ranBps: number;
  /** b_seg: the stream's bitrate, bits/s (default segmentBytes·8 / segmentSeconds). */
  bitrateBps?: number;
  /** x_max: operator cap on held segments = parallel origin connections (default 8). */
  maxHold?: number;
  /**
   * Optional caps on th_bh, for a backhaulBps that does not know them (e.g. a measured rate):
   * th_bh = min(backhaulBps, window/RTT, Mathis(RTT, lossRate)), see capBackhaulBps. rttSeconds is
   * required with any of them.
   */
  rttSeconds?: number;
  receiveWindowBytes?: number;
  sendWindowBytes?: number;
  /** Measured loss rate on the backhaul, [0, 1]. */
  lossRate?: number;
  mssBytes?: number;
}

/** The th_bh eq. 1 and 2 were evaluated with. */
export interface UsedBackhaul {
  backhaulBps: number;
  /**
   * Whether decideHold's own caps lowered the given backhaulBps ('window', 'loss') or not
   * ('input'). What bounded a modelled rate is modelHold's `backhaul.limitedBy`.
   */
  backhaulLimitedBy: CappedBackhaul['limitedBy'];
}

export type HoldReason =
  /** eq. 1 holds: backhaul + radio time fits in a segment length; the edge only splits the path. */
  | 'hold-0-sufficient'
  /** eq. 1 fails; x is the smallest hold satisfying eq. 2. */
  | 'hold-x'
  /** eq. 2 needs more than x_max; x_max is held and QoE is not assured. */
  | 'capped-at-max-hold'
  /** eq. 3 fails: the radio is not faster than the bitrate; holding cannot help (redirect or pass through). */
  | 'ran-below-bitrate';

export type HoldDecision = UsedBackhaul &
  (
    | {
        applicable: true;
        /** x to hold for this receiver (0 for the hold-0 group). */
        hold: number;
        /** The smallest x satisfying eq. 2, i.e. the hold-x group's x for the stream (receiver-independent). */
        streamHold: number;
        /** Whether eq. 1 holds for this receiver. */
        eq1: boolean;
        /** False only when capped by x_max. */
        assured: boolean;
        reason: Exclude<HoldReason, 'ran-below-bitrate'>;
      }
    | { applicable: false; hold: null; streamHold: number; eq1: false; assured: false; reason: 'ran-below-bitrate' }
  );

const EPS = 1e-9;

/**
 * The ETHLE decision (paper Section III-B): hold-0 if eq. 1 holds, otherwise the smallest x with
 * s/(th_bh·x) ≤ l_seg (eq. 2), subject to th_ran > b_seg (eq. 3) and the operator's cap.
 * eq. 2 depends on the backhaul only, so `streamHold` is the same for every receiver of a stream;
 * only eq. 1 and eq. 3 depend on the receiver's radio.
 */
export function decideHold(input: HoldInput): HoldDecision {
  const s = requireRange('segmentBytes', input.segmentBytes, 0, LIMITS.maxBytes, true);
  const l = requireRange('segmentSeconds', input.segmentSeconds, 0, LIMITS.maxSegmentSeconds, true);
  const bh = requireRange('backhaulBps', input.backhaulBps, 0, Number.POSITIVE_INFINITY, true);
  const ran = requireRange('ranBps', input.ranBps, 0, Number.POSITIVE_INFINITY);
  const bitrate = requireRange('bitrateBps', input.bitrateBps ?? (s * 8) / l, 0, LIMITS.maxBps, true);
  const maxHold = requireInteger('maxHold', input.maxHold ?? HOLD_LIMITS.defaultMax, 0, LIMITS.maxHold);

  const bits = s * 8;
  // th_bh: the given rate, within what one flow's window and the loss rate allow.
  const capped = capBackhaulBps({
    bps: bh,
    rttSeconds: input.rttSeconds,
    receiveWindowBytes: input.receiveWindowBytes,
    sendWindowBytes: input.sendWindowBytes,
    lossRate: input.lossRate,
    mssBytes: input.mssBytes,
  });
  const th = capped.bps;
  const used: UsedBackhaul = { backhaulBps: th, backhaulLimitedBy: capped.limitedBy };
  // eq. 2: s/(th_bh·x) ≤ l  ⇔  x ≥ s/(th_bh·l); EPS keeps an exact fit from rounding up.
  const streamHold = Math.max(1, Math.ceil(bits / (th * l) - EPS));

  if (!(ran > bitrate)) {
    return { ...used, applicable: false, hold: null, streamHold, eq1: false, assured: false, reason: 'ran-below-bitrate' };
  }
  const eq1 = bits / th + bits / ran <= l + EPS;
  if (eq1) return { ...used, applicable: true, hold: 0, streamHold, eq1, assured: true, reason: 'hold-0-sufficient' };
  if (streamHold > maxHold) {
    return { ...used, applicable: true, hold: maxHold, streamHold, eq1, assured: false, reason: 'capped-at-max-hold' };
  }
  return { ...used, applicable: true, hold: streamHold, streamHold, eq1, assured: true, reason: 'hold-x' };
}
