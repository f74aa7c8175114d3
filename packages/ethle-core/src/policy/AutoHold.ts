import type { DecisionInput, HoldPolicyHooks, ReceiverDecision, StreamContext } from './HoldPolicy.js';
import { decideStreamHold, type StreamHoldDecision } from './decideStreamHold.js';
import { HoldPolicyBase } from './HoldPolicyBase.js';
import type { HoldPolicyConfig } from './HoldPolicyConfig.js';
import type { GroupAssignment } from './PolicyGroups.js';
import type { RadioEstimate } from './RadioEstimate.js';
import { DEFAULT_DWELL_SEGMENTS, initialStreamHold, nextStreamHold, raiseStreamHold, type StreamHoldState } from './nextStreamHold.js';
import { shouldRedirect } from './shouldRedirect.js';

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
  /** eq. 1 (and eq. 3) held at the last decision on the default radio estimate: new receivers join hold-0. */
  startsAtHold0?: boolean;
}

/**
 * `hold: 'auto'` (paper Section III): x per stream from the model, corrected online by the
 * backhaul rates the edge achieved; the receivers' groups by eq. 1; the redirect (eq. 3).
 *
 * x within the hold-x group moves both ways (nextStreamHold): up at once when the model or a
 * steady-state backhaul sample needs more, down by one only after the lower x has been supported
 * for a while — never below the model's x (unless holdFloor is 'measured'). Receivers' groups
 * stay monotone (hold-0 → hold-x, never back). A receiver is redirected (eq. 3) only on
 * sustained evidence in time (shouldRedirect: its measurements over `redirectSustainMs`, their
 * mean and the latest at or below the bitrate), never on a first request or a default estimate. Every
 * change of x goes to `hooks.onChange`, every receiver placed in a group to `hooks.onGroupChange`.
 */
export class AutoHold extends HoldPolicyBase {
  readonly #streams = new Map<string, StreamState>();

  constructor(config: HoldPolicyConfig & { hold: 'auto' }, hooks: HoldPolicyHooks = {}) {
    super(config, hooks);
  }

  streamHold(stream: string): number {
    return this.#streams.get(stream)?.x.hold ?? 1;
  }

  /**
   * A receiver joining now with the default radio estimate is served 0 when eq. 1 held for that
   * estimate at the stream's last decision on it (provisional before any receiver, or a receiver
   * on the default estimate), else the stream's x. Why it differs from streamHold: x stays ≥ 1
   * for hold-x while such a player is shown one segment more (hold-0), so a start anticipated
   * from x would rank the segment before the one it asks for first.
   */
  override startHold(stream: string): number {
    const s = this.#streams.get(stream);
    return s?.startsAtHold0 === true ? 0 : this.streamHold(stream);
  }

  /** Whether x of a stream has been decided yet (by a receiver or provisionally). */
  decided(stream: string): boolean {
    return this.#streams.has(stream);
  }

  originHold(origin: string): number {
    let x = 0;
    for (const s of this.#streams.values()) if (s.origin === origin) x = Math.max(x, s.x.hold);
    return x;
  }

  /** Auto decides on the stream's context and the receiver's radio, worth a wait for the first segment's size. */
  protected holdNeeds(): DecisionInput {
    return 'size';
  }

  protected steadySample(origin: string, mbps: number, nowMs: number): void {
    for (const [stream, s] of this.#streams) if (s.origin === origin) this.#step(stream, s, nowMs, mbps);
  }

  protected forgetHold(stream: string): void {
    this.#streams.delete(stream);
  }

  /**
   * Before any receiver decision: x from what the first manifest tells (advertised bitrate, the
   * manifest fetch's RTT), so the planner's first round prefetches where a player shown this x
   * will start. A no-op once decided or without context.
   */
  provisional(ctx: StreamContext, nowMs = 0): void {
    if (this.decided(ctx.stream)) return;
    const d = this.#track(ctx, this.config.defaultRanMbps, nowMs, '(before any receiver, advertised bitrate)');
    const s = this.#streams.get(ctx.stream);
    if (d !== undefined && s !== undefined) s.startsAtHold0 = d.eq1 && d.eq3;
  }

  /**
   * A receiver's manifest request: its group, the x it is served, or a redirect. `radio` is the
   * best estimate the edge has for it (chooseRadioEstimate: RNI, its own measurement, credible
   * CMCD, the default). Undefined without context yet (no segment size or RTT): the edge serves
   * the stream's current x (see HoldPolicy.needs: it waits for the first segment's size first).
   */
  receiver(ctx: StreamContext, session: string, radio: RadioEstimate, nowMs: number): ReceiverDecision | undefined {
    const ranMbps = radio.bps / 1e6;
    const d = this.#track(ctx, ranMbps, nowMs, '');
    if (d === undefined) return undefined;
    // A receiver on the default estimate is what the next new one will be: where it starts.
    if (radio.source === 'default') this.#streams.get(ctx.stream)!.startsAtHold0 = d.eq1 && d.eq3;
    const history = this.groups.note(ctx.stream, session, radio, nowMs);
    if (!d.eq3) {
      const bitrateBps = ((ctx.segmentBytes ?? 0) * 8) / ctx.segmentSeconds;
      const r = shouldRedirect({ requests: history.requests, estimates: history.estimates, bitrateBps, sustainMs: this.redirectSustainMs });
      if (r.redirect) {
        const bitrateMbps = bitrateBps / 1e6;
        return this.config.ranFailAction === 'redirect'
          ? { kind: 'redirect', ranMbps, bitrateMbps, evidence: r.evidence }
          : { kind: 'pass', x: 0, ranMbps, bitrateMbps };
      }
      // Not yet sustained: held like a receiver for whom eq. 1 fails (the safe side).
      const a = this.#place(ctx.stream, session, false, ranMbps, nowMs);
      return { kind: 'hold', x: this.#sessionHold(ctx.stream, session), group: a.group, from: a.from };
    }
    const a = this.#place(ctx.stream, session, d.eq1, ranMbps, nowMs);
    return { kind: 'hold', x: a.group === 'hold-0' ? 0 : this.#sessionHold(ctx.stream, session), group: a.group, from: a.from };
  }

  /** The x a known session is served now (its group's), for its token; undefined if unknown. */
  servedHold(stream: string, session: string): number | undefined {
    const st = this.groups.stateOf(stream, session);
    if (st === undefined) return undefined;
    return st.group === 'hold-0' ? 0 : this.#sessionHold(stream, session);
  }

  /**
   * A hold-x receiver's x: the stream's, but never below what it was served at the edge it came
   * from — a lower x would show it segments beyond its playlist's end there, a jump.
   */
  #sessionHold(stream: string, session: string): number {
    const x = this.streamHold(stream);
    const floor = this.groups.floorOf(stream, session);
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
    if (s === undefined) return;
    // The deadline is when the hold-x group sees the segment: with nobody in that group it is
    // nobody's (hold-0 receivers see every segment at once, and x does not change what they are
    // served). Raising x then would only make it hunt, up on fetches projected late for no one
    // and down again after the dwell.
    if (this.groups.counts(stream)['hold-x'] === 0) return;
    const target = Math.min(x, this.config.maxHold);
    if (target <= s.x.hold) return;
    if (nowMs !== undefined && s.deadlineRaisedAtMs !== undefined && nowMs - s.deadlineRaisedAtMs < s.segmentSeconds * 1000) return;
    if (nowMs !== undefined) s.deadlineRaisedAtMs = nowMs;
    s.x = raiseStreamHold(
      s.x,
      target,
      nowMs ?? Number.NEGATIVE_INFINITY,
      (this.config.lowerAfterSegments ?? DEFAULT_DWELL_SEGMENTS) * s.segmentSeconds * 1000,
    );
    this.hooks.onChange?.({
      stream,
      hold: target,
      reason: `raised: ${reason}`,
      backhaulMbps: this.backhaul.median(s.origin) ?? s.modelMbps,
    });
  }

  /** A receiver filed in its group by eq. 1 (hold-0 → hold-x only); joining or moving is reported. */
  #place(stream: string, session: string, eq1: boolean, ranMbps: number, nowMs: number): GroupAssignment {
    const a = this.groups.assign(stream, session, eq1, nowMs);
    if (a.from !== a.group) this.hooks.onGroupChange?.({ session, stream, from: a.from, to: a.group, ranMbps });
    return a;
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
    const measured = this.backhaul.median(ctx.origin);
    const d = measured === undefined ? model : decideStreamHold({ ...base, measuredBackhaulMbps: measured });
    let s = this.#streams.get(ctx.stream);
    if (s === undefined) {
      // The first decision starts from the (corrected) decision's x, as before any dwell.
      s = {
        origin: ctx.origin,
        x: initialStreamHold({ modelHold: Math.max(model.hold, d.hold), maxHold: this.config.maxHold }),
        segmentBytes: ctx.segmentBytes,
        segmentSeconds: ctx.segmentSeconds,
        modelHold: model.hold,
        modelMbps: model.backhaulMbps,
      };
      this.#streams.set(ctx.stream, s);
      this.hooks.onChange?.({
        stream: ctx.stream,
        hold: s.x.hold,
        reason: `${d.reason}${why === '' ? '' : ` ${why}`}`,
        backhaulMbps: d.backhaulMbps,
      });
      return d;
    }
    Object.assign(s, {
      origin: ctx.origin,
      segmentBytes: ctx.segmentBytes,
      segmentSeconds: ctx.segmentSeconds,
      modelHold: model.hold,
      modelMbps: model.backhaulMbps,
    });
    this.#step(ctx.stream, s, nowMs, undefined);
    return d;
  }

  /** One nextStreamHold step for a stream (a backhaul sample in Mbit/s, or none: the model's floor only). */
  #step(stream: string, s: StreamState, nowMs: number, sampleMbps: number | undefined): void {
    const measuredFloor = this.config.holdFloor === 'measured' && this.backhaul.median(s.origin) !== undefined;
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
    this.hooks.onChange?.({
      stream,
      hold: step.hold,
      reason: `${step.change === 'raise' ? 'raised' : 'lowered'}: ${step.reason}`,
      backhaulMbps: sampleMbps ?? s.modelMbps,
    });
  }
}
