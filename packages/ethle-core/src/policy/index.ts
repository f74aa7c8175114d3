// The hold policy both edges mount (createHoldPolicy → FixedHold | AutoHold), and its parts:
// x over time, part holds, policy groups, the radio estimate, the redirect rule, backhaul statistics.
export type * from './HoldPolicy.js';
export type * from './HoldPolicyConfig.js';
export type * from './PartHold.js';
export { createHoldPolicy } from './createHoldPolicy.js';
export { FixedHold } from './FixedHold.js';
export { AutoHold } from './AutoHold.js';
export { HOLD_POLICY_DEFAULTS } from './HOLD_POLICY_DEFAULTS.js';
export * from './decideStreamHold.js';
export * from './decidePartHold.js';
export * from './PolicyGroups.js';
export * from './BackhaulSamples.js';
export * from './OriginStartLearner.js';
export {
  nextStreamHold,
  initialStreamHold,
  raiseStreamHold,
  MAX_DWELL_SCALE,
  DEFAULT_DWELL_SEGMENTS,
  type StreamHoldState,
  type StreamHoldSample,
  type StreamHoldOptions,
  type StreamHoldStep,
} from './nextStreamHold.js';
export { chooseRadioEstimate, type RadioInput } from './chooseRadioEstimate.js';
export {
  shouldRedirect,
  MAX_REDIRECT_SUSTAIN_MS,
  type RedirectInput,
  type RedirectDecision,
  type RedirectEvidence,
  type NotedEstimate,
} from './shouldRedirect.js';
export { PLAYER_DEFAULT_MTP_KBPS } from './PLAYER_DEFAULT_MTP_KBPS.js';
export type { RadioEstimate, RadioEvidence, RadioSkip, RadioSource } from './RadioEstimate.js';
