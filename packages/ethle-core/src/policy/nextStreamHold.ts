import { LIMITS, requireInteger, requireRange } from '../model/validate.js';
import { HOLD_POLICY_DEFAULTS } from './HOLD_POLICY_DEFAULTS.js';

/** Plain data, so the edge can keep one per stream and log it. */
export interface StreamHoldState {
  /** x in force for the stream's hold-x group. */
  hold: number;
  /** When the current run of samples supporting x − 1 began (ms), or undefined. */
  lowerSinceMs: number | undefined;
  /** How many samples in a row have supported x − 1. */
  lowerSamples: number;
  /** When x was last lowered (ms), to tell a flap (a raise soon after) from a lower that held. */
  loweredAtMs?: number | undefined;
  /** The dwell's multiplier: doubled by each flap up to MAX_DWELL_SCALE, back to 1 by a raise that is not one (default 1). */
  dwellScale?: number;
}

export interface StreamHoldSample {
  /** One steady-state segment fetch's per-flow backhaul rate, bits/s (as measured by the edge). */
  backhaulBps: number;
}

export interface StreamHoldOptions {
  /** s_seg, bytes. */
  segmentBytes: number;
  /** l_seg, seconds. */
  segmentSeconds: number;
  /** The model's x for the stream (decideHold's streamHold): x never goes below it. */
  modelHold: number;
  /** x_max: x never goes above it. */
  maxHold: number;
  /** Lower x only after x − 1 has been supported for this many segment periods (default 4). */
  dwellSegments?: number;
  /** … and by at least this many samples in a row (default 3). */
  dwellSamples?: number;
  /** A sample supports x − 1 only when its rate is at least (1 + margin) × what x − 1 needs (default 0.2). */
  margin?: number;
}

export interface StreamHoldStep {
  state: StreamHoldState;
  hold: number;
  change: 'raise' | 'lower' | 'none';
  reason:
    /** x was below the model's x (or the model's x rose): raised to it. */
    | 'model-floor'
    /** x was above x_max (the cap was lowered): lowered to it at once. */
    | 'max-hold'
    /** The sample needs more than x (eq. 2 with the measured rate): raised at once. */
    | 'measured-slow'
    /** x − 1 was supported for the whole dwell: lowered by one. */
    | 'recovered'
    /** x − 1 is supported, the dwell is not over yet. */
    | 'dwelling'
    /** Nothing to do. */
    | 'steady';
  /** x the sample alone asks for (eq. 2 with its rate, at least 1), when there was a sample. */
  sampleHold: number | undefined;
}

const EPS = 1e-9;
/** A lower that a raise undoes within this many dwells was a flap. */
const FLAP_DWELLS = 2;
/** The dwell grows to at most this many times its configured length. */
export const MAX_DWELL_SCALE = 8;
/** StreamHoldOptions.dwellSegments when unset: the policy's default, which the edges' configs show. */
export const DEFAULT_DWELL_SEGMENTS = HOLD_POLICY_DEFAULTS.lowerAfterSegments;

/**
 * x raised to `hold` at `nowMs` (by a sample, the model or a missed deadline). A raise within
 * FLAP_DWELLS dwells of the last lower means that lower came too soon: the next lower must wait
 * twice as long (up to MAX_DWELL_SCALE times), so x that hunts between two values settles, at a
 * cost of latency, instead of moving every few segments. Any other raise resets the dwell.
 */
export function raiseStreamHold(state: StreamHoldState, hold: number, nowMs: number, dwellMs: number): StreamHoldState {
  const scale = state.dwellScale ?? 1;
  const flapped =
    state.loweredAtMs !== undefined && nowMs >= state.loweredAtMs && nowMs - state.loweredAtMs < FLAP_DWELLS * dwellMs * scale;
  return {
    hold,
    lowerSinceMs: undefined,
    lowerSamples: 0,
    loweredAtMs: undefined,
    dwellScale: flapped ? Math.min(MAX_DWELL_SCALE, scale * 2) : 1,
  };
}

/** The state to start a stream with: the model's x, within x_max. */
export function initialStreamHold(options: Pick<StreamHoldOptions, 'modelHold' | 'maxHold'>): StreamHoldState {
  const maxHold = requireInteger('maxHold', options.maxHold, 0, LIMITS.maxHold);
  const modelHold = requireInteger('modelHold', options.modelHold, 0, LIMITS.maxHold);
  return { hold: Math.min(modelHold, maxHold), lowerSinceMs: undefined, lowerSamples: 0 };
}

/**
 * The stream's x within the hold-x group, both ways (issue 19): raise at once when a measured
 * steady-state rate needs more (eq. 2: x = ⌈s·8 / (th_bh·l)⌉), lower by one only after the
 * measured rate has supported x − 1, with a margin, for `dwellSegments` segment periods and
 * `dwellSamples` samples in a row. Raising late costs stalls, lowering late only latency, and a
 * player copes with the playlist's edge jumping one segment forward, not with x flapping: a lower
 * undone soon after doubles the next dwell (raiseStreamHold). Never below the model's x, never
 * above x_max.
 *
 * Receivers' membership of hold-0 / hold-x (the paper's group rule) is separate and stays
 * monotone; this only moves the x the hold-x group is held at.
 */
export function nextStreamHold(
  state: StreamHoldState,
  sample: StreamHoldSample | undefined,
  nowMs: number,
  options: StreamHoldOptions,
): StreamHoldStep {
  const s = requireRange('segmentBytes', options.segmentBytes, 0, LIMITS.maxBytes, true);
  const l = requireRange('segmentSeconds', options.segmentSeconds, 0, LIMITS.maxSegmentSeconds, true);
  const maxHold = requireInteger('maxHold', options.maxHold, 0, LIMITS.maxHold);
  const floor = Math.min(requireInteger('modelHold', options.modelHold, 0, LIMITS.maxHold), maxHold);
  const dwellSegments = requireRange('dwellSegments', options.dwellSegments ?? DEFAULT_DWELL_SEGMENTS, 0, 1000);
  const dwellSamples = requireInteger('dwellSamples', options.dwellSamples ?? HOLD_POLICY_DEFAULTS.lowerAfterSamples, 1, 1000);
  const margin = requireRange('margin', options.margin ?? 0.2, 0, 10);
  requireRange('nowMs', nowMs, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
  const hold = requireInteger('state.hold', state.hold, 0, LIMITS.maxHold);

  const bits = s * 8;
  let sampleHold: number | undefined;
  if (sample !== undefined) {
    const bps = requireRange('backhaulBps', sample.backhaulBps, 0, Number.POSITIVE_INFINITY, true);
    sampleHold = Math.max(1, Math.ceil(bits / (bps * l) - EPS));
  }
  const scale = state.dwellScale ?? 1;
  const dwellMs = dwellSegments * l * 1000;
  // A run of supporting samples ends; the flap memory stays.
  const reset = (x: number): StreamHoldState => ({
    hold: x,
    lowerSinceMs: undefined,
    lowerSamples: 0,
    loweredAtMs: state.loweredAtMs,
    dwellScale: scale,
  });

  if (hold > maxHold) return { state: reset(maxHold), hold: maxHold, change: 'lower', reason: 'max-hold', sampleHold };
  const target = Math.min(maxHold, Math.max(floor, sampleHold ?? 0));
  if (target > hold) {
    return {
      state: raiseStreamHold(state, target, nowMs, dwellMs),
      hold: target,
      change: 'raise',
      reason: sampleHold !== undefined && sampleHold >= target ? 'measured-slow' : 'model-floor',
      sampleHold,
    };
  }
  if (sample === undefined)
    return { state, hold, change: 'none', reason: state.lowerSinceMs === undefined ? 'steady' : 'dwelling', sampleHold };

  const candidate = hold - 1;
  // eq. 2 for x − 1 with headroom; x − 1 = 0 is never supported (eq. 2 has no x = 0).
  const supports = candidate >= Math.max(floor, 1) && sample.backhaulBps >= ((1 + margin) * bits) / (candidate * l);
  if (!supports) return { state: reset(hold), hold, change: 'none', reason: 'steady', sampleHold };

  // A clock that went backwards restarts the dwell rather than shortening it.
  const since = state.lowerSinceMs === undefined || nowMs < state.lowerSinceMs ? nowMs : state.lowerSinceMs;
  const samples = since === state.lowerSinceMs ? state.lowerSamples + 1 : 1;
  if (samples >= dwellSamples && nowMs - since >= dwellMs * scale) {
    return { state: { ...reset(candidate), loweredAtMs: nowMs }, hold: candidate, change: 'lower', reason: 'recovered', sampleHold };
  }
  return { state: { ...reset(hold), lowerSinceMs: since, lowerSamples: samples }, hold, change: 'none', reason: 'dwelling', sampleHold };
}
