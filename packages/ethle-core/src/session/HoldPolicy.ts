import { DEFAULT_DWELL_SEGMENTS, initialStreamHold, nextStreamHold, raiseStreamHold, type StreamHoldState } from '../policy/nextStreamHold.js';
import type { SegmentStart } from '../model/modelHold.js';
import type { RadioEstimate } from '../policy/RadioEstimate.js';
import { shouldRedirect } from '../policy/shouldRedirect.js';
import { BackhaulSamples, type FetchRegime } from './BackhaulSamples.js';
import { OriginStartLearner, type IdleFetch, type IdleFetchVerdict } from './OriginStartLearner.js';
import { decideStreamHold, type StreamHoldDecision } from './decideStreamHold.js';
import { PolicyGroups, type AdoptedSession, type PolicyGroup } from './PolicyGroups.js';

/** How an edge holds: one config, read by both edges (Node and service worker). */
export interface HoldPolicyConfig {
  /** 'auto': x from the model and what the edge measures; N: every receiver gets x = N. */
  hold: 'auto' | number;
  /** Operator cap on x and on parallel origin connections per stream. */
  maxHold: number;
  /** The backhaul's initial congestion window (MSS). */
  initialWindow: number;
  /** Radio throughput when nothing better is known (Mbit/s). */
  defaultRanMbps: number;
  /** eq. 3 fails: send the receiver to the origin ('redirect') or serve it unheld ('pass-through'). */
  ranFailAction: 'redirect' | 'pass-through';
  /** Receiver sessions remembered at most (policy groups). */
  maxSessions?: number;
  /** A session not seen for this long is forgotten (ms). */
  sessionIdleMs?: number;
  /** One backhaul flow's windows (bytes) and loss rate, for the model (see decideStreamHold). */
  receiveWindowBytes?: number;
  sendWindowBytes?: number;
  lossRate?: number;
  /** Lowering x: the lower x must be supported this many segment periods and samples (nextStreamHold). */
  lowerAfterSegments?: number;
  lowerAfterSamples?: number;
  /**
   * How low auto's x may go within hold-x. 'model' (default): never below the model's x — the
   * paper's slow-start model is an optimistic bound (Section IV), so its x is the least that is
   * safe without evidence. 'measured': once the edge has steady-state backhaul samples, x may be
   * lowered below the model's, to 1, on the same dwell — for a backhaul the edge keeps warm (one
   * shared flow, prefetching every segment), where the measured rate beats a fresh flow's slow start.
   */
  holdFloor?: 'model' | 'measured';
  /**
   * How the model takes a segment fetch to start on the backhaul. 'slow-start' (default): the
   * paper's premise, a CUBIC/Reno origin that restarts an idle connection from its initial window.
   * 'warm': an origin that keeps its window across idle (BBR, or `tcp_slow_start_after_idle` = 0),
   * so a fetch costs one RTT plus the bytes at the window-limited rate. This is the x a receiver
   * joins at, before anything is measured, and the x it keeps: its player holds its distance to
   * the live edge (docs/experiments.md, "Why hold-0 does not stall here").
   * 'learn': 'slow-start' until the origin's own fetches after idle tell (OriginStartLearner),
   * then whichever they show — for the receivers that join after that, and the floor x is lowered
   * toward on the usual dwell.
   */
  segmentStart?: SegmentStart | 'learn';
}

/** What an edge knows of one stream when it decides. */
export interface StreamContext {
  stream: string;
  origin: string;
  /** s_seg: measured mean, or what the manifest advertises × l_seg; undefined before either. */
  segmentBytes: number | undefined;
  segmentSeconds: number;
  /** Backhaul RTT to the stream's origin (ms), configured or measured; undefined before any. */
  rttMs: number | undefined;
}

/** Why x changed, with the backhaul rate it was decided on (the operator's main figure). */
export interface HoldChange {
  stream: string;
  hold: number;
  reason: string;
  backhaulMbps: number;
}

/** A stream's x within hold-x and what it was last decided with. */
interface StreamState {
  origin: string;
  x: StreamHoldState;
  segmentBytes: number;
  segmentSeconds: number;
  /** The model's x (no measurement): x never goes below it. */
  modelHold: number;
  /** The model's per-flow backhaul rate (Mbit/s), for the change log. */
  modelMbps: number;
  /** When a missed deadline last raised x (ms), for requireHold's one-raise-per-segment rule. */
  deadlineRaisedAtMs?: number;
}

export type ReceiverDecision =
  /** Serve the stream held by x; `group` is the receiver's policy group (undefined: no evidence yet). */
  | { kind: 'hold'; x: number; group: PolicyGroup | undefined; from?: PolicyGroup | undefined }
  /** eq. 3 fails on sustained evidence and the action is 'redirect': send the receiver to the origin. */
  | { kind: 'redirect'; ranMbps: number; bitrateMbps: number; evidence: readonly RadioEstimate[] }
  /** eq. 3 fails and the action is 'pass-through': serve it unheld (ETHLE does not apply, III-B). */
  | { kind: 'pass'; x: 0; ranMbps: number; bitrateMbps: number };

/**
 * The one auto-hold policy of an edge (paper Section III), shared by the Node edge and the
 * service worker: x per stream (one source: this object), the receivers' policy groups, the
 * redirect decision, and the online correction from the backhaul rates the edge achieved. Pure:
 * the edge passes in time, measurements and contexts, and reads decisions; nothing here does I/O.
 *
 * x within the hold-x group moves both ways (nextStreamHold): up at once when the model or a
 * steady-state backhaul sample needs more, down by one only after the lower x has been supported
 * for a while — never below the model's x (unless holdFloor is 'measured'). Receivers' groups
 * stay monotone (hold-0 → hold-x, never back). A receiver is redirected (eq. 3) only on
 * sustained evidence (shouldRedirect), never on a first request or a default estimate. Every change of x goes to `onChange`.
 */
export class HoldPolicy {
  readonly config: HoldPolicyConfig;
  readonly #onChange: (c: HoldChange) => void;
  readonly #streams = new Map<string, StreamState>();
  readonly #backhaul = new BackhaulSamples();
  readonly #start = new OriginStartLearner();
  readonly #groups: PolicyGroups;

  constructor(config: HoldPolicyConfig, onChange: (c: HoldChange) => void = () => undefined) {
    this.config = config;
    this.#onChange = onChange;
    this.#groups = new PolicyGroups(config.sessionIdleMs ?? 120_000, config.maxSessions ?? 100_000);
  }

  /** The x the stream's planner keeps the edge ahead by. No side effects. */
  streamHold(stream: string): number {
    const h = this.config.hold;
    return typeof h === 'number' ? h : (this.#streams.get(stream)?.x.hold ?? 1);
  }

  /** Whether auto has decided a stream's x yet. */
  decided(stream: string): boolean {
    return typeof this.config.hold === 'number' || this.#streams.has(stream);
  }

  /** The largest x in force among an origin's streams (what its steady state runs in parallel). */
  originHold(origin: string): number {
    if (typeof this.config.hold === 'number') return this.config.hold;
    let x = 0;
    for (const s of this.#streams.values()) if (s.origin === origin) x = Math.max(x, s.x.hold);
    return x;
  }

  /**
   * One segment fetch's backhaul rate (Mbit/s) with the mean number of flows it shared the
   * backhaul with, and whether it ran on a cold connection (isColdConnection). A steady-state
   * sample (see BackhaulSamples) moves the x of the origin's streams: up at once if it needs more,
   * toward lower after a dwell if it supports less.
   */
  addBackhaulSample(origin: string, mbps: number, meanFlows: number, nowMs = 0, cold = false): FetchRegime {
    const regime = this.#backhaul.add(origin, mbps, meanFlows, this.originHold(origin), cold);
    if (regime === 'steady' && this.config.hold === 'auto' && mbps > 0) {
      for (const [stream, s] of this.#streams) if (s.origin === origin) this.#step(stream, s, nowMs, mbps);
    }
    return regime;
  }

  /**
   * A segment fetch on a warm connection with the idle gap before it: evidence of how the origin
   * treats idle connections (OriginStartLearner), learnt whatever segmentStart is configured (the
   * edge can say when the configuration disagrees) and used by the model under 'learn'.
   */
  addIdleFetch(origin: string, fetch: IdleFetch): IdleFetchVerdict {
    return this.#start.add(origin, fetch);
  }

  /** How an origin treats idle connections by the edge's fetches, once they agree. */
  learnedSegmentStart(origin: string): SegmentStart | undefined {
    return this.#start.learned(origin);
  }

  /** The segment start the model uses for an origin's streams. */
  segmentStart(origin: string): SegmentStart {
    const c = this.config.segmentStart ?? 'slow-start';
    return c === 'learn' ? (this.#start.learned(origin) ?? 'slow-start') : c;
  }

  /** Median steady-state backhaul rate of an origin (Mbit/s), once there are enough samples. */
  measuredBackhaulMbps(origin: string): number | undefined {
    return this.#backhaul.median(origin);
  }

  /**
   * Before any receiver decision: x from what the first manifest tells (advertised bitrate, the
   * manifest fetch's RTT), so the planner's first round prefetches where a player shown this x
   * will start. A no-op once decided or without context.
   */
  provisional(ctx: StreamContext, nowMs = 0): void {
    if (this.decided(ctx.stream)) return;
    this.#track(ctx, this.config.defaultRanMbps, nowMs, '(before any receiver, advertised bitrate)');
  }

  /**
   * A receiver's manifest request: its group, the x it is served, or a redirect. `radio` is the
   * best estimate the edge has for it (chooseRadioEstimate: RNI, its own measurement, credible
   * CMCD, the default). Returns undefined when auto has no context yet (no segment size or RTT):
   * the edge should wait for the first segment's size, or serve the stream's current x.
   */
  receiver(ctx: StreamContext, session: string, radio: RadioEstimate, nowMs: number): ReceiverDecision | undefined {
    const h = this.config.hold;
    if (typeof h === 'number') {
      // Forced x: every receiver is in the group its x means.
      const a = this.#groups.assign(ctx.stream, session, h === 0, nowMs);
      return { kind: 'hold', x: h, group: a.group, from: a.from };
    }
    const ranMbps = radio.bps / 1e6;
    const d = this.#track(ctx, ranMbps, nowMs, '');
    if (d === undefined) return undefined;
    const history = this.#groups.note(ctx.stream, session, radio, nowMs);
    if (!d.eq3) {
      const bitrateBps = ((ctx.segmentBytes ?? 0) * 8) / ctx.segmentSeconds;
      const r = shouldRedirect({ requests: history.requests, estimates: history.estimates, bitrateBps });
      if (r.redirect) {
        const bitrateMbps = bitrateBps / 1e6;
        return this.config.ranFailAction === 'redirect' ? { kind: 'redirect', ranMbps, bitrateMbps, evidence: r.evidence } : { kind: 'pass', x: 0, ranMbps, bitrateMbps };
      }
      // Not yet sustained: held like a receiver for whom eq. 1 fails (the safe side).
      const a = this.#groups.assign(ctx.stream, session, false, nowMs);
      return { kind: 'hold', x: this.#sessionHold(ctx.stream, session), group: a.group, from: a.from };
    }
    const a = this.#groups.assign(ctx.stream, session, d.eq1, nowMs);
    return { kind: 'hold', x: a.group === 'hold-0' ? 0 : this.#sessionHold(ctx.stream, session), group: a.group, from: a.from };
  }

  /**
   * A receiver handed over from another edge of the fleet (a verified session token): filed with
   * its group, requests, last measurement and the x it was served there (see PolicyGroups.adopt).
   */
  adopt(stream: string, session: string, state: AdoptedSession, nowMs: number): boolean {
    return this.#groups.adopt(stream, session, { ...state, x: Math.min(state.x, this.config.maxHold) }, nowMs);
  }

  /** A session's state for its token, or undefined for a session this edge does not know. */
  sessionState(stream: string, session: string): ReturnType<PolicyGroups['stateOf']> {
    return this.#groups.stateOf(stream, session);
  }

  /** The x a known session is served now (its group's), for its token; undefined if unknown. */
  servedHold(stream: string, session: string): number | undefined {
    const st = this.#groups.stateOf(stream, session);
    if (st === undefined) return undefined;
    if (typeof this.config.hold === 'number') return this.config.hold;
    return st.group === 'hold-0' ? 0 : this.#sessionHold(stream, session);
  }

  /**
   * A hold-x receiver's x: the stream's, but never below what it was served at the edge it came
   * from — a lower x would show it segments beyond its playlist's end there, a jump.
   */
  #sessionHold(stream: string, session: string): number {
    const x = this.streamHold(stream);
    const floor = this.#groups.floorOf(stream, session);
    return floor > x ? floor : x;
  }

  /**
   * The planner found that a held segment will miss its deadline whatever it does now (its fetch
   * is projected to end after the segment becomes visible): x must be at least `x`. Raised at
   * once, like a slow sample; lowering follows the same dwell. Only while some receiver of the
   * stream is in hold-x: the deadline is theirs.
   *
   * With `nowMs`, at most once per segment period: one more x gives the late fetch one more
   * segment length, so a raise before that has run out is the same miss seen again — by the
   * stream's other track, or by a planning pass that projects a stalled fetch at its collapsed
   * rate. Without this rule a 4 s origin stall of a DASH stream (video and audio, planning on every
   * event) took x from 2 to 7 (e2e edge-hold-lower), where one per segment period gives 2 → 4.
   */
  requireHold(stream: string, x: number, reason: string, nowMs?: number): void {
    const s = this.#streams.get(stream);
    if (this.config.hold !== 'auto' || s === undefined) return;
    // The deadline is when the hold-x group sees the segment: with nobody in that group it is
    // nobody's (hold-0 receivers see every segment at once, and x does not change what they are
    // served). Raising x then only hunted: 15M-4s at 224 ms, receivers all in hold-0, x 1 ↔ 2
    // every 20–40 s on fetches projected late for no one (matrix runs of 2026-11-26).
    if (this.#groups.counts(stream)['hold-x'] === 0) return;
    const target = Math.min(x, this.config.maxHold);
    if (target <= s.x.hold) return;
    if (nowMs !== undefined && s.deadlineRaisedAtMs !== undefined && nowMs - s.deadlineRaisedAtMs < s.segmentSeconds * 1000) return;
    if (nowMs !== undefined) s.deadlineRaisedAtMs = nowMs;
    s.x = raiseStreamHold(s.x, target, nowMs ?? Number.NEGATIVE_INFINITY, (this.config.lowerAfterSegments ?? DEFAULT_DWELL_SEGMENTS) * s.segmentSeconds * 1000);
    this.#onChange({ stream, hold: target, reason: `raised: ${reason}`, backhaulMbps: this.#backhaul.median(s.origin) ?? s.modelMbps });
  }

  /** Active sessions per group of a stream. */
  counts(stream: string): Record<PolicyGroup, number> {
    return this.#groups.counts(stream);
  }

  /** Confirmed sessions per group of a stream (seen again a reload later): receivers, not ids. */
  confirmedCounts(stream: string): Record<PolicyGroup, number> {
    return this.#groups.confirmedCounts(stream);
  }

  get sessions(): number {
    return this.#groups.size;
  }

  /** Sessions not confirmed yet (PolicyGroups: at most a quarter of maxSessions). */
  get unconfirmedSessions(): number {
    return this.#groups.unconfirmed;
  }

  /** Forget sessions not seen for sessionIdleMs. */
  sweep(nowMs: number): void {
    this.#groups.sweep(nowMs);
  }

  /** A stream went idle: its x and its sessions go. */
  forgetStream(stream: string): void {
    this.#streams.delete(stream);
    this.#groups.dropStream(stream);
  }

  /**
   * The receiver-facing decision (eq. 1, eq. 3 with the measured correction) and the stream's x:
   * created from the model's x, then moved by nextStreamHold with the model's x as its floor.
   */
  #track(ctx: StreamContext, ranMbps: number, nowMs: number, why: string): StreamHoldDecision | undefined {
    if (ctx.segmentBytes === undefined || !(ctx.segmentBytes > 0) || ctx.rttMs === undefined || !(ctx.segmentSeconds > 0)) return undefined;
    const base = {
      rttMs: Math.max(ctx.rttMs, 0.05),
      segmentBytes: ctx.segmentBytes,
      segmentSeconds: ctx.segmentSeconds,
      ranMbps,
      initialWindow: this.config.initialWindow,
      maxHold: this.config.maxHold,
      ...(this.config.receiveWindowBytes === undefined ? {} : { receiveWindowBytes: this.config.receiveWindowBytes }),
      ...(this.config.sendWindowBytes === undefined ? {} : { sendWindowBytes: this.config.sendWindowBytes }),
      ...(this.config.lossRate === undefined ? {} : { lossRate: this.config.lossRate }),
      segmentStart: this.segmentStart(ctx.origin),
    };
    const model = decideStreamHold(base);
    const measured = this.#backhaul.median(ctx.origin);
    const d = measured === undefined ? model : decideStreamHold({ ...base, measuredBackhaulMbps: measured });
    let s = this.#streams.get(ctx.stream);
    if (s === undefined) {
      // The first decision starts from the (corrected) decision's x, as before any dwell.
      s = { origin: ctx.origin, x: initialStreamHold({ modelHold: Math.max(model.hold, d.hold), maxHold: this.config.maxHold }), segmentBytes: ctx.segmentBytes, segmentSeconds: ctx.segmentSeconds, modelHold: model.hold, modelMbps: model.backhaulMbps };
      this.#streams.set(ctx.stream, s);
      this.#onChange({ stream: ctx.stream, hold: s.x.hold, reason: `${d.reason}${why === '' ? '' : ` ${why}`}`, backhaulMbps: d.backhaulMbps });
      return d;
    }
    Object.assign(s, { origin: ctx.origin, segmentBytes: ctx.segmentBytes, segmentSeconds: ctx.segmentSeconds, modelHold: model.hold, modelMbps: model.backhaulMbps });
    this.#step(ctx.stream, s, nowMs, undefined);
    return d;
  }

  /** One nextStreamHold step for a stream (a backhaul sample in Mbit/s, or none: the model's floor only). */
  #step(stream: string, s: StreamState, nowMs: number, sampleMbps: number | undefined): void {
    const measuredFloor = this.config.holdFloor === 'measured' && this.#backhaul.median(s.origin) !== undefined;
    const step = nextStreamHold(s.x, sampleMbps === undefined ? undefined : { backhaulBps: sampleMbps * 1e6 }, nowMs, {
      segmentBytes: s.segmentBytes,
      segmentSeconds: s.segmentSeconds,
      modelHold: measuredFloor ? Math.min(s.modelHold, 1) : s.modelHold,
      maxHold: this.config.maxHold,
      ...(this.config.lowerAfterSegments === undefined ? {} : { dwellSegments: this.config.lowerAfterSegments }),
      ...(this.config.lowerAfterSamples === undefined ? {} : { dwellSamples: this.config.lowerAfterSamples }),
    });
    s.x = step.state;
    if (step.change === 'none') return;
    this.#onChange({ stream, hold: step.hold, reason: `${step.change === 'raise' ? 'raised' : 'lowered'}: ${step.reason}`, backhaulMbps: sampleMbps ?? s.modelMbps });
  }
}
