export { TCP_DEFAULTS } from './TCP_DEFAULTS.js';
export { slowStartDeliverySeconds, type SlowStartInput } from './slowStartDeliverySeconds.js';
export { mathisThroughputBps, type MathisInput } from './mathisThroughputBps.js';
export { windowCapBps, type WindowCapInput } from './windowCapBps.js';
export { receiveWindowFromBuffer } from './receiveWindowFromBuffer.js';
export { capBackhaulBps, type BackhaulCapInput, type CappedBackhaul } from './capBackhaulBps.js';
export { backhaulThroughput, type BackhaulInput, type BackhaulEstimate } from './backhaulThroughput.js';
export { decideHold, type HoldInput, type HoldDecision, type HoldReason, type UsedBackhaul } from './decideHold.js';
export { modelHold, type ModelHoldInput, type ModelHoldResult } from './modelHold.js';
