import type { SegmentStart } from '../model/modelHold.js';
import type { FetchRegime } from './BackhaulSamples.js';
import type { HoldPolicyConfig } from './HoldPolicyConfig.js';
import type { IdleFetch, IdleFetchVerdict } from './OriginStartLearner.js';
import type { AdoptedSession, PolicyGroup, PolicyGroups } from './PolicyGroups.js';
import type { RadioEstimate } from './RadioEstimate.js';
import type { RedirectEvidence } from './shouldRedirect.js';

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

/**
 * What a receiver's decision reads, so that the edge measures only that. 'nothing': a fixed x
 * (or N) is the stream's alone — the hot path measures and chooses nothing per request.
 * 'context': the stream's context (segment size, RTT) and the receiver's radio estimate.
 * 'size': that, and the stream's first segment size is worth waiting for (one backhaul round
 * trip) when nothing tells it yet, rather than deciding on none.
 */
export type DecisionInput = 'nothing' | 'context' | 'size';

/** Why x changed, with the backhaul rate it was decided on (the operator's main figure). */
export interface HoldChange {
  stream: string;
  hold: number;
  reason: string;
  backhaulMbps: number;
}

/** A stream's N (parts held) changed under `holdParts: 'auto'`, and the inputs it was decided on. */
export interface PartHoldChange {
  stream: string;
  from: number;
  to: number;
  reason: string;
  rttMs: number | undefined;
  bitrateMbps: number | undefined;
}

/** A receiver was placed in a policy group by evidence (auto): joined one, or moved hold-0 → hold-x. */
export interface GroupChange {
  session: string;
  stream: string;
  from: PolicyGroup | undefined;
  to: PolicyGroup;
  /** The radio estimate it was placed on (Mbit/s). */
  ranMbps: number;
}

/** Where a policy reports its changes (the Node edge logs, counts and emits them). */
export interface HoldPolicyHooks {
  /** x of a stream changed. */
  onChange?: (c: HoldChange) => void;
  /** N of a low-latency stream changed. */
  onPartChange?: (c: PartHoldChange) => void;
  /** A receiver joined or moved group. */
  onGroupChange?: (c: GroupChange) => void;
}

export type ReceiverDecision =
  /** Serve the stream held by x; `group` is the receiver's policy group (undefined: no evidence yet). */
  | { kind: 'hold'; x: number; group: PolicyGroup | undefined; from?: PolicyGroup | undefined }
  /** eq. 3 fails on sustained evidence and the action is 'redirect': send the receiver to the origin. */
  | { kind: 'redirect'; ranMbps: number; bitrateMbps: number; evidence: RedirectEvidence }
  /** eq. 3 fails and the action is 'pass-through': serve it unheld (ETHLE does not apply, III-B). */
  | { kind: 'pass'; x: 0; ranMbps: number; bitrateMbps: number };

/**
 * An edge's hold policy (paper Section III), chosen once from the config (createHoldPolicy:
 * FixedHold or AutoHold) and mounted by both edges: the one owner of x per stream, N per
 * low-latency stream, the receivers' policy groups, the redirect decision, and what the edge's
 * own fetches teach (backhaul samples, how the origin treats idle connections). Pure: the edge
 * passes in time, measurements and contexts, and reads decisions; nothing here does I/O.
 */
export interface HoldPolicy {
  readonly config: HoldPolicyConfig;
  /** What a receiver's decision on this stream reads: for its x, or for its N (`parts`). */
  needs(stream: string, parts: boolean): DecisionInput;
  /**
   * A receiver's manifest request: its group, the x it is served, or a redirect. `radio` is the
   * best estimate the edge has for it (chooseRadioEstimate). Undefined when the policy has no
   * context yet (no segment size or RTT): the edge serves the stream's current x and files the
   * receiver in no group.
   */
  receiver(ctx: StreamContext, session: string, radio: RadioEstimate, nowMs: number): ReceiverDecision | undefined;
  /** The x the stream's planner keeps the edge ahead by (the hold-x group's). No side effects. */
  streamHold(stream: string): number;
  /**
   * The x a receiver joining now is served before any measurement of its own (the default radio
   * estimate): where the planner anticipates a new player's start. Auto serves it 0 when eq. 1
   * holds for the default radio (hold-0), whatever the stream's x. No side effects.
   */
  startHold(stream: string): number;
  /** The largest x in force among an origin's streams (what its steady state runs in parallel). */
  originHold(origin: string): number;
  /** Before any receiver: x from what the first manifest tells, so the first prefetches match. */
  provisional(ctx: StreamContext, nowMs?: number): void;
  /** The planner found a held segment will miss its deadline: x must be at least `x`. */
  requireHold(stream: string, x: number, reason: string, nowMs?: number): void;
  /** The x a known session is served now, for its token; undefined if unknown. */
  servedHold(stream: string, session: string): number | undefined;

  /** Whether low-latency streams are held in parts (`holdParts` configured). */
  readonly holdsParts: boolean;
  /** The most parts a stream is held by: a fixed N, auto's cap (x_max), 0 without `holdParts`. */
  readonly maxPartHold: number;
  /** N for a low-latency stream's receivers (the same for all of them), with the receiver's radio estimate. */
  partHold(ctx: StreamContext, radio: RadioEstimate, partSeconds: number): number;

  /**
   * One segment fetch's backhaul rate (Mbit/s) with the mean number of flows it shared the
   * backhaul with, and whether it ran on a cold connection: steady, burst or cold (BackhaulSamples).
   */
  addBackhaulSample(origin: string, mbps: number, meanFlows: number, nowMs?: number, cold?: boolean): FetchRegime;
  /** A segment fetch on a warm connection with the idle gap before it (OriginStartLearner). */
  addIdleFetch(origin: string, fetch: IdleFetch): IdleFetchVerdict;
  /** How an origin treats idle connections by the edge's fetches, once they agree. */
  learnedSegmentStart(origin: string): SegmentStart | undefined;
  /** The segment start the model uses for an origin's streams. */
  segmentStart(origin: string): SegmentStart;
  /** Median steady-state backhaul rate of an origin (Mbit/s), once there are enough samples. */
  measuredBackhaulMbps(origin: string): number | undefined;

  /** A receiver handed over from another edge of the fleet, filed with its state (PolicyGroups.adopt). */
  adopt(stream: string, session: string, state: AdoptedSession, nowMs: number): boolean;
  /** A session's state for its token, or undefined for a session this edge does not know. */
  sessionState(stream: string, session: string): ReturnType<PolicyGroups['stateOf']>;
  /** Sessions per group of a stream, confirmed or not: what the policy acts on. */
  counts(stream: string): Record<PolicyGroup, number>;
  /** Confirmed sessions per group of a stream (seen again a reload later): receivers, not ids. */
  confirmedCounts(stream: string): Record<PolicyGroup, number>;
  readonly sessions: number;
  /** Sessions not confirmed yet (PolicyGroups: at most a quarter of maxSessions). */
  readonly unconfirmedSessions: number;
  /** Forget sessions not seen for sessionIdleMs. */
  sweep(nowMs: number): void;
  /** A stream went idle: its x, its N and its sessions go. */
  forgetStream(stream: string): void;
}
