import { EthleError } from '../errors/EthleError.js';
import { backhaulThroughput, type BackhaulEstimate } from './backhaulThroughput.js';
import { decideHold, type HoldDecision } from './decideHold.js';
import { LIMITS, requireRange } from './validate.js';
import { warmBackhaul } from './warmBackhaul.js';

/**
 * How a segment fetch starts on the backhaul. 'slow-start' (the paper's premise, default): from
 * the initial window, as a CUBIC/Reno origin restarts an idle connection. 'warm': at the flow's
 * window-limited rate after one RTT, as a BBR origin (or `tcp_slow_start_after_idle` = 0) sends
 * on a kept-alive connection (warmBackhaul).
 */
export type SegmentStart = 'slow-start' | 'warm';

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
  /** Count the request's RTT in the delivery time (what a real fetch pays; the paper's Table III does not). Warm starts always count it. */
  includeRequestRtt?: boolean;
  /** Default 'slow-start' (the paper's model). */
  start?: SegmentStart;
}

export type ModelHoldResult = HoldDecision & { backhaul: BackhaulEstimate; start: SegmentStart };

/**
 * Backhaul model (Section IV) + decision (Section III-B) in one call: what `ethle-edge plan` prints.
 * th_bh = min(slow start up to the bottleneck and window/RTT, Mathis with the loss rate); with a
 * warm start, RTT + the bytes at min(window/RTT, bottleneck, Mathis).
 *
 * Figures at 224 ms with Linux's 3 MiB window and IW 10 (test/model/warmSegmentHold.test.ts pins
 * them): 15M-2s (3.7 MB) takes 1.79 s in slow start without the request RTT, 2.02 s with it, so
 * x = 2 as the edge decides; warm it takes 0.49 s, and eq. 1 holds for any radio above 17 Mbit/s
 * (hold-0). 50M-2s (12.2 MB): 2.40 s in slow start with the request RTT (x = 2), 1.09 s warm (x = 1;
 * eq. 1 needs a radio above 108 Mbit/s).
 */
export function modelHold(input: ModelHoldInput): ModelHoldResult {
  const segmentBytes = requireRange('segmentBytes', input.segmentBytes, 0, LIMITS.maxBytes, true);
  const start = input.start ?? 'slow-start';
  if (start !== 'slow-start' && start !== 'warm')
    throw new EthleError('ERR_MODEL_INVALID_INPUT', `start must be 'slow-start' or 'warm', got ${String(start)}`, {
      field: 'start',
      value: start,
    });
  const backhaul =
    start === 'warm'
      ? warmBackhaul({
          bytes: segmentBytes,
          rttSeconds: input.rttSeconds,
          mssBytes: input.mssBytes,
          bottleneckBps: input.bottleneckBps,
          lossRate: input.lossRate,
          receiveWindowBytes: input.receiveWindowBytes,
          sendWindowBytes: input.sendWindowBytes,
        })
      : backhaulThroughput({
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
  return { ...decision, backhaul, start };
}
