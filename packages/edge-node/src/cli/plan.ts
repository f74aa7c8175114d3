import {
  HOLD_LIMITS,
  isEthleError,
  modelHold,
  modelPartHold,
  receiveWindowFromBuffer,
  TCP_DEFAULTS,
  type ModelHoldResult,
  type SegmentStart,
} from '@ethle/core';
import { parseArgs } from 'node:util';
import { EXIT_USAGE, type CliIo } from './CliIo.js';

/**
 * The cap plan assumes without --max-hold: the edge's own default (createEdgeConfig's maxHold, which
 * `ethle-edge serve --max-hold` also documents), so plan says what a default edge would hold —
 * not the core's looser default of 8. test/cli/plan.test.ts checks the two agree.
 */
export const PLAN_DEFAULT_MAX_HOLD = HOLD_LIMITS.defaultMax;

const HELP = `usage: ethle-edge plan --rtt-ms MS --segment-seconds S (--segment-bytes B | --bitrate-mbps M) --ran-mbps R [options]

How many segments an ETHLE edge holds for a stream (paper eq. 1-3 with the slow-start backhaul model).

  --rtt-ms MS            backhaul round-trip time, milliseconds
  --segment-seconds S    segment length, seconds
  --segment-bytes B      segment size, bytes
  --bitrate-mbps M       stream bitrate, Mbit/s (segment size = M * S / 8 when --segment-bytes is absent)
  --ran-mbps R           receiver radio throughput, Mbit/s
  --iw N                 initial congestion window, MSS (default ${TCP_DEFAULTS.initialWindowSegments}; 1 reproduces the paper)
  --mss B                maximum segment size, bytes (default ${TCP_DEFAULTS.mssBytes})
  --loss P               backhaul loss rate (0..1): caps throughput at the Mathis rate
  --bottleneck-mbps M    backhaul bottleneck bandwidth, Mbit/s
  --rcvbuf B             the edge's receive buffer on origin sockets, bytes: Linux advertises
                         about half of it, so one flow carries at most rcvbuf/2/RTT (6 MiB,
                         Linux's tcp_rmem max: ~112 Mbit/s at 224 ms)
  --window-bytes B       bytes the origin keeps in flight at most (its effective send window):
                         caps one flow at B/RTT
  --segment-start MODE   slow-start (default; the paper's: every segment fetch starts from the
                         initial window, as a CUBIC/Reno origin after idle) | warm (the origin
                         keeps its window across idle — BBR, or tcp_slow_start_after_idle=0 —
                         so a fetch is one RTT + the bytes at the window-limited rate; 3 MiB
                         window unless --rcvbuf/--window-bytes say otherwise)
  --max-hold N           operator cap on x (default ${PLAN_DEFAULT_MAX_HOLD}, as ethle-edge serve)
  --part-seconds S       LL-HLS part (LL-DASH chunk) length, seconds: also answer in parts
                         (holdParts: the newest N parts to hold; eq. 1-3 per part)
  --part-start MODE      warm (default): parts travel on connections whose window is open
                         (one RTT + the bytes at the per-flow rate, 3 MiB window unless
                         --rcvbuf/--window-bytes say otherwise); fresh: a new connection
                         per part (handshake + request + slow start)
  --json                 print one JSON object
  -h, --help             this help
`;

const OPTIONS = {
  'rtt-ms': { type: 'string' },
  'segment-seconds': { type: 'string' },
  'segment-bytes': { type: 'string' },
  'bitrate-mbps': { type: 'string' },
  'ran-mbps': { type: 'string' },
  iw: { type: 'string' },
  mss: { type: 'string' },
  loss: { type: 'string' },
  'bottleneck-mbps': { type: 'string' },
  rcvbuf: { type: 'string' },
  'window-bytes': { type: 'string' },
  'max-hold': { type: 'string' },
  'part-seconds': { type: 'string' },
  'part-start': { type: 'string' },
  'segment-start': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

function num(values: Record<string, unknown>, name: string, required: true): number;
function num(values: Record<string, unknown>, name: string, required: false): number | undefined;
function num(values: Record<string, unknown>, name: string, required: boolean): number | undefined {
  const raw = values[name];
  if (raw === undefined) {
    if (required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  const v = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(v))
    throw new UsageError(`--${name} must be a number, got ${JSON.stringify(raw)}`);
  // Every quantity here is a size, rate, time or probability: negative is always a mistake.
  if (v < 0) throw new UsageError(`--${name} must not be negative, got ${v}`);
  return v;
}

/** The JSON `ethle-edge plan --json` prints. Field names are an interface: keep them. */
export interface PlanOutput {
  hold: number | null;
  applicable: boolean;
  assured: boolean;
  reason: string;
  streamHold: number;
  backhaulMbps: number;
  deliverySeconds: number;
  limitedBy: string;
  segmentBytes: number;
  segmentSeconds: number;
  bitrateMbps: number;
  ranMbps: number;
  rttMs: number;
  initialWindow: number;
  mssBytes: number;
  /** How a segment fetch was taken to start (--segment-start). */
  segmentStart: SegmentStart;
  /** The window that capped one flow, bytes (min of --rcvbuf/2 and --window-bytes), when given. */
  windowBytes?: number;
  /** With --part-seconds: N parts to hold (null when eq. 3 fails), and how one part travels. */
  holdParts?: number | null;
  partSeconds?: number;
  partBytes?: number;
  partStart?: 'warm' | 'fresh';
  partDeliverySeconds?: number;
  partLimitedBy?: string;
  partReason?: string;
}

export async function runPlan(argv: string[], io: CliIo): Promise<number> {
  let out: PlanOutput;
  let json: boolean;
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const v = parsed.values as Record<string, unknown>;
    if (v.help) {
      io.stdout.write(HELP);
      return 0;
    }
    json = v.json === true;
    const rttMs = num(v, 'rtt-ms', true);
    const segmentSeconds = num(v, 'segment-seconds', true);
    const ranMbps = num(v, 'ran-mbps', true);
    const bitrateMbps = num(v, 'bitrate-mbps', false);
    let segmentBytes = num(v, 'segment-bytes', false);
    if (segmentBytes === undefined) {
      if (bitrateMbps === undefined) throw new UsageError('one of --segment-bytes or --bitrate-mbps is required');
      segmentBytes = (bitrateMbps * 1e6 * segmentSeconds) / 8;
    }
    const iw = num(v, 'iw', false) ?? TCP_DEFAULTS.initialWindowSegments;
    const mss = num(v, 'mss', false) ?? TCP_DEFAULTS.mssBytes;
    const bottleneck = num(v, 'bottleneck-mbps', false);
    const rcvbuf = num(v, 'rcvbuf', false);
    const sendWindowBytes = num(v, 'window-bytes', false);
    const receiveWindowBytes = rcvbuf === undefined ? undefined : receiveWindowFromBuffer(positive('rcvbuf', rcvbuf));
    if (sendWindowBytes !== undefined) positive('window-bytes', sendWindowBytes);
    const segmentStart = v['segment-start'] ?? 'slow-start';
    if (segmentStart !== 'slow-start' && segmentStart !== 'warm')
      throw new UsageError(
        `--segment-start must be slow-start or warm, got ${JSON.stringify(segmentStart)}${segmentStart === 'learn' ? ' (learn is for serve: plan has no fetches to learn from)' : ''}`,
      );
    const r: ModelHoldResult = modelHold({
      start: segmentStart,
      rttSeconds: rttMs / 1000,
      segmentBytes,
      segmentSeconds,
      ranBps: ranMbps * 1e6,
      bitrateBps: bitrateMbps === undefined ? undefined : bitrateMbps * 1e6,
      initialWindowSegments: iw,
      mssBytes: mss,
      lossRate: num(v, 'loss', false),
      bottleneckBps: bottleneck === undefined ? undefined : bottleneck * 1e6,
      receiveWindowBytes,
      sendWindowBytes,
      maxHold: num(v, 'max-hold', false) ?? PLAN_DEFAULT_MAX_HOLD,
    });
    out = {
      hold: r.hold,
      applicable: r.applicable,
      assured: r.assured,
      reason: r.reason,
      streamHold: r.streamHold,
      backhaulMbps: round(r.backhaul.bps / 1e6, 3),
      deliverySeconds: round(r.backhaul.deliverySeconds, 4),
      limitedBy: r.backhaul.limitedBy,
      segmentBytes,
      segmentSeconds,
      bitrateMbps: round(bitrateMbps ?? (segmentBytes * 8) / segmentSeconds / 1e6, 3),
      ranMbps,
      rttMs,
      initialWindow: iw,
      mssBytes: mss,
      segmentStart,
    };
    // A warm start always has a window (Linux's default when none is given).
    const defaultWindow = segmentStart === 'warm' ? receiveWindowFromBuffer(TCP_DEFAULTS.receiveBufferMaxBytes) : Number.POSITIVE_INFINITY;
    const windowBytes = Math.min(receiveWindowBytes ?? defaultWindow, sendWindowBytes ?? Number.POSITIVE_INFINITY);
    if (Number.isFinite(windowBytes)) out.windowBytes = windowBytes;
    const partSeconds = num(v, 'part-seconds', false);
    const partStart = v['part-start'];
    if (partStart !== undefined && partStart !== 'warm' && partStart !== 'fresh')
      throw new UsageError(`--part-start must be warm or fresh, got ${JSON.stringify(partStart)}`);
    if (partStart !== undefined && partSeconds === undefined) throw new UsageError('--part-start needs --part-seconds');
    if (partSeconds !== undefined) {
      positive('part-seconds', partSeconds);
      if (partSeconds > segmentSeconds)
        throw new UsageError(`--part-seconds must not exceed --segment-seconds (${segmentSeconds}), got ${partSeconds}`);
      const p = modelPartHold({
        rttSeconds: rttMs / 1000,
        partSeconds,
        bitrateBps: bitrateMbps !== undefined ? bitrateMbps * 1e6 : (segmentBytes * 8) / segmentSeconds,
        ranBps: ranMbps * 1e6,
        start: partStart ?? 'warm',
        initialWindowSegments: iw,
        mssBytes: mss,
        lossRate: num(v, 'loss', false),
        bottleneckBps: bottleneck === undefined ? undefined : bottleneck * 1e6,
        receiveWindowBytes,
        sendWindowBytes,
      });
      out.holdParts = p.hold;
      out.partSeconds = partSeconds;
      out.partBytes = round(p.partBytes, 0);
      out.partStart = p.start;
      out.partDeliverySeconds = round(p.backhaul.deliverySeconds, 4);
      out.partLimitedBy = p.backhaul.limitedBy;
      out.partReason = p.reason;
    }
  } catch (e) {
    if (e instanceof UsageError || isEthleError(e)) {
      io.stderr.write(`ethle-edge plan: ${e.message}\nRun 'ethle-edge plan --help' for the options.\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
  io.stdout.write(json ? `${JSON.stringify(out)}\n` : `${sentence(out)}${partSentence(out)}\n`);
  return 0;
}

function positive(name: string, v: number): number {
  if (!(v > 0)) throw new UsageError(`--${name} must be above 0, got ${v}`);
  return v;
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

function partSentence(o: PlanOutput): string {
  if (o.partSeconds === undefined) return '';
  const how = `a ${o.partSeconds} s part (${((o.partBytes ?? 0) / 1e6).toFixed(2)} MB) takes ${o.partDeliverySeconds?.toFixed(2)} s over the backhaul on ${o.partStart === 'fresh' ? 'a fresh connection' : 'a warm connection'}`;
  if (o.holdParts === null || o.holdParts === undefined) return ` In parts: not applicable (${how}).`;
  return ` In parts: hold ${o.holdParts} part${o.holdParts === 1 ? '' : 's'} (+${round(o.holdParts * o.partSeconds, 3)} s latency): ${how}.`;
}

function sentence(o: PlanOutput): string {
  const segs = (n: number | null) => `${n} segment${n === 1 ? '' : 's'}`;
  const ranSeconds = (o.segmentBytes * 8) / (o.ranMbps * 1e6);
  const bh = `the backhaul delivers a segment in ${o.deliverySeconds.toFixed(2)} s (${o.backhaulMbps.toFixed(1)} Mbit/s, ${o.segmentStart === 'warm' ? 'warm, ' : ''}${o.limitedBy}${o.limitedBy === 'window' ? ` of ${o.windowBytes} B` : ''})`;
  switch (o.reason) {
    case 'hold-0-sufficient':
      return `Hold 0 segments: ${bh} and the radio in ${ranSeconds.toFixed(2)} s, within the ${o.segmentSeconds} s segment (eq. 1).`;
    case 'hold-x':
      return `Hold ${segs(o.hold)} (+${(o.hold ?? 0) * o.segmentSeconds} s latency): ${bh} and the radio in ${ranSeconds.toFixed(2)} s, over the ${o.segmentSeconds} s segment (eq. 1 fails); ${o.hold === 1 ? '1 origin fetch keeps' : `${o.hold} parallel origin fetches keep`} the edge ahead (eq. 2).`;
    case 'capped-at-max-hold':
      return `Hold ${segs(o.hold)} (the operator cap; ${o.streamHold} needed, QoE not assured): ${bh}.`;
    default:
      return `Not applicable: the radio's ${o.ranMbps} Mbit/s is not above the ${o.bitrateMbps.toFixed(1)} Mbit/s bitrate (eq. 3); redirect the receiver to the origin. (${bh}.)`;
  }
}
