import { TCP_DEFAULTS } from './TCP_DEFAULTS.js';
import { LIMITS, requireRange } from './validate.js';

export interface SlowStartInput {
  /** Bytes to deliver (one segment). */
  bytes: number;
  /** Round-trip time of the path, seconds. */
  rttSeconds: number;
  /** Initial congestion window in MSS (default 10, Linux; 1 reproduces the ETHLE paper). */
  initialWindowSegments?: number;
  /** Maximum segment size, bytes (default 1448). */
  mssBytes?: number;
  /** Bottleneck bandwidth when known, bits/s: once the window reaches the BDP the rest flows at this rate. */
  bottleneckBps?: number;
  /** Add one RTT for the HTTP request to reach the server (default false: pure transfer time). */
  includeRequestRtt?: boolean;
  /** Add one RTT for the TCP handshake of a new connection (default false). */
  newConnection?: boolean;
}

/**
 * Time to deliver `bytes` in TCP slow start: the delivered bytes double every RTT starting from
 * the initial window, i.e. after t rounds IW·MSS·(2^t − 1) bytes are in, so
 * t = log2(bytes / (IW·MSS) + 1) rounds — fractional rounds, which is what reproduces the paper's
 * Table III (its eq. 8 as printed, with growth 2/ln 2, does not; see shared/papers/README.md).
 * BBR's STARTUP (pacing gain 2/ln 2) and Reno/CUBIC slow start both double per RTT.
 *
 * Slow start restarts after an idle period longer than the RTO (RFC 5681 §4.1, Linux's
 * tcp_slow_start_after_idle=1), and a live client idles between segments (Kupka et al.), so every
 * live segment pays this again even on a kept-alive connection. That is why the model is per segment.
 */
export function slowStartDeliverySeconds(input: SlowStartInput): number {
  const bytes = requireRange('bytes', input.bytes, 0, LIMITS.maxBytes);
  const rtt = requireRange('rttSeconds', input.rttSeconds, 0, LIMITS.maxRttSeconds, true);
  const iw = requireRange(
    'initialWindowSegments',
    input.initialWindowSegments ?? TCP_DEFAULTS.initialWindowSegments,
    0,
    LIMITS.maxInitialWindow,
    true,
  );
  const mss = requireRange('mssBytes', input.mssBytes ?? TCP_DEFAULTS.mssBytes, 0, LIMITS.maxMssBytes, true);
  const extraRtts = (input.includeRequestRtt ? 1 : 0) + (input.newConnection ? 1 : 0);
  const w0 = iw * mss;

  const slowStart = rtt * Math.log2(bytes / w0 + 1);
  let transfer = slowStart;
  if (input.bottleneckBps !== undefined) {
    const rateBytes = requireRange('bottleneckBps', input.bottleneckBps, 0, LIMITS.maxBps, true) / 8;
    const bdp = rateBytes * rtt;
    // Rounds until the window reaches the BDP; from then on the bottleneck paces the transfer.
    const roundsToBdp = bdp > w0 ? Math.log2(bdp / w0) : 0;
    const inSlowStart = w0 * (2 ** roundsToBdp - 1);
    const paced = bytes <= inSlowStart ? slowStart : rtt * roundsToBdp + (bytes - inSlowStart) / rateBytes;
    // A bottleneck only ever slows delivery (the fractional-round approximation could otherwise
    // undercut it for transfers shorter than one round).
    transfer = Math.max(slowStart, paced);
  }
  return transfer + extraRtts * rtt;
}
