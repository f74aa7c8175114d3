import type { SegmentStart } from '../model/modelHold.js';
import { requireRange } from '../model/validate.js';
import { AutoParts } from './AutoParts.js';
import { BackhaulSamples, type FetchRegime } from './BackhaulSamples.js';
import { FixedParts } from './FixedParts.js';
import type { DecisionInput, HoldPolicy, HoldPolicyHooks, ReceiverDecision, StreamContext } from './HoldPolicy.js';
import type { HoldPolicyConfig } from './HoldPolicyConfig.js';
import { OriginStartLearner, type IdleFetch, type IdleFetchVerdict } from './OriginStartLearner.js';
import type { PartHold } from './PartHold.js';
import { PolicyGroups, type AdoptedSession, type PolicyGroup } from './PolicyGroups.js';
import { HOLD_POLICY_DEFAULTS } from './HOLD_POLICY_DEFAULTS.js';
import { MAX_REDIRECT_SUSTAIN_MS } from './shouldRedirect.js';
import type { RadioEstimate } from './RadioEstimate.js';

/**
 * What FixedHold and AutoHold share: the receivers' policy groups, the backhaul samples and the
 * origin-start learner (the edge learns from its fetches whatever x it holds: the measured rate
 * feeds the planner, the learnt start the operator's log), and the part hold, chosen once from
 * `holdParts`. The subclass owns x: how it is decided, and what a steady-state sample does to it.
 */
export abstract class HoldPolicyBase implements HoldPolicy {
  readonly config: HoldPolicyConfig;
  readonly holdsParts: boolean;
  protected readonly hooks: HoldPolicyHooks;
  protected readonly groups: PolicyGroups;
  /** The redirect's window (HoldPolicyConfig.redirectSustainMs), validated once. */
  protected readonly redirectSustainMs: number;
  protected readonly backhaul = new BackhaulSamples();
  readonly #start = new OriginStartLearner();
  readonly #parts: PartHold;

  constructor(config: HoldPolicyConfig, hooks: HoldPolicyHooks) {
    this.config = config;
    this.hooks = hooks;
    this.redirectSustainMs = requireRange(
      'redirectSustainMs',
      config.redirectSustainMs ?? HOLD_POLICY_DEFAULTS.redirectSustainMs,
      0,
      MAX_REDIRECT_SUSTAIN_MS,
    );
    this.groups = new PolicyGroups(config.sessionIdleMs ?? 120_000, config.maxSessions ?? 100_000, this.redirectSustainMs);
    const p = config.holdParts;
    this.holdsParts = p !== undefined;
    this.#parts = p === 'auto' ? new AutoParts(config.maxHold, (c) => hooks.onPartChange?.(c)) : new FixedParts(p ?? 0);
  }

  abstract streamHold(stream: string): number;
  /** A receiver joining now is served the stream's x (auto: see AutoHold.startHold). */
  startHold(stream: string): number {
    return this.streamHold(stream);
  }
  abstract originHold(origin: string): number;
  abstract receiver(ctx: StreamContext, session: string, radio: RadioEstimate, nowMs: number): ReceiverDecision | undefined;
  abstract provisional(ctx: StreamContext, nowMs?: number): void;
  abstract requireHold(stream: string, x: number, reason: string, nowMs?: number): void;
  abstract servedHold(stream: string, session: string): number | undefined;
  /** What a receiver's decision of x reads. */
  protected abstract holdNeeds(stream: string): DecisionInput;
  /** A steady-state backhaul sample of an origin (Mbit/s, > 0): what it does to its streams' x. */
  protected abstract steadySample(origin: string, mbps: number, nowMs: number): void;
  /** A stream went: what the subclass keeps of it. */
  protected abstract forgetHold(stream: string): void;

  needs(stream: string, parts: boolean): DecisionInput {
    return parts ? this.#parts.needs(stream) : this.holdNeeds(stream);
  }

  get maxPartHold(): number {
    return this.holdsParts ? this.#parts.max : 0;
  }

  partHold(ctx: StreamContext, radio: RadioEstimate, partSeconds: number): number {
    return this.#parts.decide(ctx, radio, partSeconds);
  }

  /**
   * A steady-state sample (see BackhaulSamples) moves the x of the origin's streams under auto:
   * up at once if it needs more, toward lower after a dwell if it supports less.
   */
  addBackhaulSample(origin: string, mbps: number, meanFlows: number, nowMs = 0, cold = false): FetchRegime {
    const regime = this.backhaul.add(origin, mbps, meanFlows, this.originHold(origin), cold);
    if (regime === 'steady' && mbps > 0) this.steadySample(origin, mbps, nowMs);
    return regime;
  }

  /**
   * Evidence of how the origin treats idle connections (OriginStartLearner), learnt whatever
   * segmentStart is configured (the edge can say when the configuration disagrees) and used by
   * the model under 'learn'.
   */
  addIdleFetch(origin: string, fetch: IdleFetch): IdleFetchVerdict {
    return this.#start.add(origin, fetch);
  }

  learnedSegmentStart(origin: string): SegmentStart | undefined {
    return this.#start.learned(origin);
  }

  segmentStart(origin: string): SegmentStart {
    const c = this.config.segmentStart ?? 'slow-start';
    return c === 'learn' ? (this.#start.learned(origin) ?? 'slow-start') : c;
  }

  measuredBackhaulMbps(origin: string): number | undefined {
    return this.backhaul.median(origin);
  }

  /** Filed with its group, requests, last measurement and the x it was served there (at most x_max). */
  adopt(stream: string, session: string, state: AdoptedSession, nowMs: number): boolean {
    return this.groups.adopt(stream, session, { ...state, x: Math.min(state.x, this.config.maxHold) }, nowMs);
  }

  sessionState(stream: string, session: string): ReturnType<PolicyGroups['stateOf']> {
    return this.groups.stateOf(stream, session);
  }

  counts(stream: string): Record<PolicyGroup, number> {
    return this.groups.counts(stream);
  }

  confirmedCounts(stream: string): Record<PolicyGroup, number> {
    return this.groups.confirmedCounts(stream);
  }

  get sessions(): number {
    return this.groups.size;
  }

  get unconfirmedSessions(): number {
    return this.groups.unconfirmed;
  }

  sweep(nowMs: number): void {
    this.groups.sweep(nowMs);
  }

  forgetStream(stream: string): void {
    this.forgetHold(stream);
    this.#parts.forget(stream);
    this.groups.dropStream(stream);
  }
}
