import type { BackhaulEstimate } from './backhaulThroughput.js';
import { capBackhaulBps } from './capBackhaulBps.js';
import { receiveWindowFromBuffer } from './receiveWindowFromBuffer.js';
import { TCP_DEFAULTS } from './TCP_DEFAULTS.js';
import { LIMITS, requireRange } from './validate.js';
import { windowCapBps } from './windowCapBps.js';

export interface WarmBackhaulInput {
  /** Bytes of the transfer (a segment, or a part). */
  bytes: number;
  /** Backhaul round-trip time, seconds. */
  rttSeconds: number;
  /** The edge's receive window on its origin sockets, bytes. Default: Linux's, half of tcp_rmem's 6 MiB max. */
  receiveWindowBytes?: number;
  /** The origin's effective send window, bytes. */
  sendWindowBytes?: number;
  bottleneckBps?: number;
  lossRate?: number;
  mssBytes?: number;
}

/**
 * One transfer on a connection whose window is already open: one RTT for the request and the
 * first byte, then the bytes at the per-flow rate r = min(window / RTT, bottleneck, Mathis). No
 * slow start, so the window always has a value (Linux's default advertised 3 MiB unless told):
 * without it the rate would be unbounded.
 *
 * When this holds: a flow that never idles past its RTO (a preload-hint request held at the
 * origin, RFC 5681 §4.1), or a sender that keeps its window across idle — BBR (Linux skips the
 * idle restart for a congestion control with its own cong_control) or CUBIC/Reno with
 * `tcp_slow_start_after_idle` = 0, common CDN tuning. The paper's model (backhaulThroughput) is
 * the other case: every segment fetch starts in slow start.
 */
export function warmBackhaul(input: WarmBackhaulInput): BackhaulEstimate {
  const bytes = requireRange('bytes', input.bytes, 0, LIMITS.maxBytes, true);
  const rtt = requireRange('rttSeconds', input.rttSeconds, 0, LIMITS.maxRttSeconds, true);
  const receiveWindowBytes = input.receiveWindowBytes ?? receiveWindowFromBuffer(TCP_DEFAULTS.receiveBufferMaxBytes);
  const windowBps = windowCapBps({ rttSeconds: rtt, receiveWindowBytes, sendWindowBytes: input.sendWindowBytes }) as number;
  const link =
    input.bottleneckBps === undefined
      ? Number.POSITIVE_INFINITY
      : requireRange('bottleneckBps', input.bottleneckBps, 0, LIMITS.maxBps, true);
  const capped = capBackhaulBps({ bps: Math.min(windowBps, link), rttSeconds: rtt, lossRate: input.lossRate, mssBytes: input.mssBytes });
  const limitedBy: BackhaulEstimate['limitedBy'] = capped.limitedBy === 'loss' ? 'loss' : link < windowBps ? 'bottleneck' : 'window';
  const deliverySeconds = rtt + (bytes * 8) / capped.bps;
  return { bps: (bytes * 8) / deliverySeconds, deliverySeconds, limitedBy };
}
