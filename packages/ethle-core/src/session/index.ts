// The stream session both edges mount: manifest views, the hold policy, backhaul statistics.
export * from './ManifestView.js';
export * from './loadManifest.js';
export * from './originPath.js';
export * from './BackhaulSamples.js';
export * from './OriginStartLearner.js';
export * from './PolicyGroups.js';
export * from './decideStreamHold.js';
export * from './HoldPolicy.js';
export * from './decidePartHold.js';
export * from './HOLD_POLICY_DEFAULTS.js';
