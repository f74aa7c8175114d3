export interface HoldContext {
  rttMs: number;
  segmentBytes: number;
  segmentSeconds: number;
  ranMbps: number;
  initialWindow: number;
  maxHold: number;
}

export interface HoldDecision {
  /** eq. 1 holds: hold-0 is enough for this receiver. */
  eq1: boolean;
  /** eq. 3 holds: the radio is faster than the bitrate. */
  eq3: boolean;
  /** x for the hold-x group (eq. 2, capped by maxHold). */
  hold: number;
  backhaulMbps: number;
  deliverySeconds: number;
  reason: string;
}

// TEMPORARY placeholder until @ethle/core's model lands; replaced by a call into core.
export function decideHold(c: HoldContext): HoldDecision {
  const mss = 1448;
  let sent = 0;
  let cwnd = c.initialWindow * mss;
  let rounds = 1;
  while (sent < c.segmentBytes && rounds < 1000) {
    sent += cwnd;
    cwnd *= 2;
    rounds += 1;
  }
  const deliverySeconds = (rounds * c.rttMs) / 1000;
  const backhaulMbps = (c.segmentBytes * 8) / deliverySeconds / 1e6;
  const bitrateMbps = (c.segmentBytes * 8) / c.segmentSeconds / 1e6;
  const eq3 = c.ranMbps > bitrateMbps;
  const eq1 = deliverySeconds + (c.segmentBytes * 8) / (c.ranMbps * 1e6) <= c.segmentSeconds;
  const hold = Math.min(c.maxHold, Math.max(1, Math.ceil(deliverySeconds / c.segmentSeconds)));
  return { eq1, eq3, hold, backhaulMbps, deliverySeconds, reason: 'placeholder' };
}
