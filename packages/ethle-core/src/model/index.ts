export { TCP_DEFAULTS } from './TCP_DEFAULTS.js';
export { slowStartDeliverySeconds, type SlowStartInput } from './slowStartDeliverySeconds.js';
export { mathisThroughputBps, type MathisInput } from './mathisThroughputBps.js';
export { backhaulThroughput, type BackhaulInput, type BackhaulEstimate } from './backhaulThroughput.js';
export { decideHold, type HoldInput, type HoldDecision, type HoldReason } from './decideHold.js';
export { modelHold, type ModelHoldInput, type ModelHoldResult } from './modelHold.js';
export * from './HOLD_LIMITS.js';
