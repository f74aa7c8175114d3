import { EthleError } from '../errors/EthleError.js';
import { backhaulThroughput, type BackhaulEstimate } from './backhaulThroughput.js';
import { decideHold, type HoldDecision } from './decideHold.js';
import { HOLD_LIMITS } from './HOLD_LIMITS.js';
import { receiveWindowFromBuffer } from './receiveWindowFromBuffer.js';
import { TCP_DEFAULTS } from './TCP_DEFAULTS.js';
import { LIMITS, requireRange } from './validate.js';
import { warmBackhaul } from './warmBackhaul.js';

export interface ModelPartHoldInput {
  /** Backhaul round-trip time, seconds. */
  rttSeconds: number;
  /** LL-HLS part (or LL-DASH chunk) duration, seconds. */
  partSeconds: number;
  /** Stream bitrate, bits/s: a part is bitrate × partSeconds / 8 bytes. */
  bitrateBps: number;
  /** Receiver radio throughput, bits/s (eq. 1 and 3, per part). */
  ranBps: number;
  /**
   * 'warm' (default): the part travels on a connection whose window is already open (a preload-hint
   * request held at the origin, or a kept-alive flow that has not idled past its RTO): one RTT, then
   * the bytes at the per-flow rate. 'fresh': a new connection per part: handshake + request RTTs,
   * then slow start from the initial window.
   */
  start?: 'warm' | 'fresh';
  initialWindowSegments?: number;
  mssBytes?: number;
  bottleneckBps?: number;
  lossRate?: number;
  /** The edge's receive window on origin sockets, bytes. Default: Linux's, half of tcp_rmem's 6 MiB max. */
  receiveWindowBytes?: number;
  /** The origin's effective send window, bytes. */
  sendWindowBytes?: number;
  /** Cap on N, parts (default HOLD_LIMITS.max): one origin flow per held part. */
  maxHoldParts?: number;
}

export type ModelPartHoldResult = HoldDecision & {
  /** Bytes of one part. */
  partBytes: number;
  /** Latency the hold adds: hold × partSeconds (0 when not applicable). */
  holdSeconds: number;
  start: 'warm' | 'fresh';
  /** One part's delivery over the backhaul: time from the edge's request to its last byte, and the rate that means. */
  backhaul: BackhaulEstimate;
};

/**
 * ETHLE in parts: how many LL-HLS parts (LL-DASH chunks) an edge holds so that each part is at the
 * edge before it is listed. The slow-start model applies per transfer (Section IV); what changes
 * with parts is the transfer. The question is whether the backhaul delivers bitrate × part duration
 * within a part duration. eq. 1–3 then apply with the part as the unit (decideHold): hold 0 if
 * delivery + radio time fit in a part, else the smallest N with delivery ≤ N × part duration (N
 * parts in flight, one flow each), not when the radio is below the bitrate.
 *
 * A part's delivery d_p:
 * - warm (window already open): d_p = RTT + bytes / r, r = min(window / RTT, bottleneck, Mathis).
 *   One RTT for the request and the first byte; a preload-hint request already waits at the
 *   origin, so this overstates it by up to half an RTT. The window is what Linux gives by default
 *   (3 MiB advertised of a 6 MiB tcp_rmem) unless told. Live delivery never idles a hinted flow past
 *   its RTO, so slow start does not restart (RFC 5681 §4.1).
 * - fresh (a new connection per part): d_p = 2 RTT (handshake, request) + slow start of the bytes
 *   from IW (default Linux's 10), within the same window, bottleneck and loss caps.
 *
 * Figures at 224 ms, 60 Mbit/s radio, IW 10, MSS 1448, 3 MiB window (r = 3·2^20·8 / 0.224 s =
 * 112.3 Mbit/s), Table I bitrates (test/model/partHold.test.ts pins them):
 * - 15M-2s (14.8 Mbit/s), 0.5 s parts: a part is 0.925 MB. Warm: 0.224 s + 7.4 Mbit / 112.3 Mbit/s
 *   (0.066 s) = 0.290 s; plus the radio's 0.123 s that is 0.41 s ≤ 0.5 s: hold 0. Fresh: 0.448 s +
 *   0.224 s · log2(925 000 / 14 480 + 1) = 1.349 s of slow start = 1.80 s: N = 4 (2 s of latency,
 *   what x = 1 segment costs).
 * - 50M-2s (48.8 Mbit/s), 0.5 s parts: 3.05 MB. Warm: 0.224 + 0.217 = 0.441 s, but with the radio's
 *   0.407 s eq. 1 fails: N = 1 (0.5 s of latency where whole segments need x = 2, 4 s at IW 1).
 *   Fresh: 0.448 s + 1.730 s of slow start = 2.18 s: N = 5.
 * - 1 s parts: warm 15M-2s takes 0.36 s (hold 0), 50M-2s 0.66 s (N = 1, now 1 s of latency); fresh
 *   15M-2s 2.02 s, 50M-2s 2.40 s (N = 3 each). The 4 s and 10 s streams have the same bitrates, so
 *   the same parts and the same N.
 * So on warm connections the RTT, not slow start, is the cost, and a part hold of about one part
 * replaces whole segments. Fresh connections per part are what LL must avoid: slow start eats
 * several part durations.
 */
export function modelPartHold(input: ModelPartHoldInput): ModelPartHoldResult {
  const rtt = requireRange('rttSeconds', input.rttSeconds, 0, LIMITS.maxRttSeconds, true);
  const partSeconds = requireRange('partSeconds', input.partSeconds, 0, LIMITS.maxSegmentSeconds, true);
  const bitrate = requireRange('bitrateBps', input.bitrateBps, 0, LIMITS.maxBps, true);
  const start = input.start ?? 'warm';
  if (start !== 'warm' && start !== 'fresh')
    throw new EthleError('ERR_MODEL_INVALID_INPUT', `start must be 'warm' or 'fresh', got ${String(start)}`, {
      field: 'start',
      value: start,
    });
  const partBytes = (bitrate * partSeconds) / 8;
  const windows = {
    receiveWindowBytes: input.receiveWindowBytes ?? receiveWindowFromBuffer(TCP_DEFAULTS.receiveBufferMaxBytes),
    sendWindowBytes: input.sendWindowBytes,
  };
  const backhaul: BackhaulEstimate =
    start === 'fresh'
      ? backhaulThroughput({
          bytes: partBytes,
          rttSeconds: rtt,
          initialWindowSegments: input.initialWindowSegments,
          mssBytes: input.mssBytes,
          bottleneckBps: input.bottleneckBps,
          lossRate: input.lossRate,
          ...windows,
          includeRequestRtt: true,
          newConnection: true,
        })
      : warmBackhaul({
          bytes: partBytes,
          rttSeconds: rtt,
          bottleneckBps: input.bottleneckBps,
          lossRate: input.lossRate,
          mssBytes: input.mssBytes,
          ...windows,
        });
  const decision = decideHold({
    segmentBytes: partBytes,
    segmentSeconds: partSeconds,
    backhaulBps: backhaul.bps,
    ranBps: input.ranBps,
    bitrateBps: bitrate,
    maxHold: input.maxHoldParts ?? HOLD_LIMITS.max,
  });
  return { ...decision, partBytes, holdSeconds: (decision.hold ?? 0) * partSeconds, start, backhaul };
}
