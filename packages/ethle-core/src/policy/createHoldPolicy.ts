import { AutoHold } from './AutoHold.js';
import { FixedHold } from './FixedHold.js';
import type { HoldPolicy, HoldPolicyHooks } from './HoldPolicy.js';
import type { HoldPolicyConfig } from './HoldPolicyConfig.js';

/**
 * The edge's hold policy, chosen once from its config: a fixed x (`hold: N`, FixedHold) or the
 * model with its online correction (`hold: 'auto'`, AutoHold); `holdParts` picks the part hold
 * inside it the same way. Nothing downstream asks which: the policy says what its decisions read
 * (HoldPolicy.needs) and reports what it changes (hooks).
 */
export function createHoldPolicy(config: HoldPolicyConfig, hooks: HoldPolicyHooks = {}): HoldPolicy {
  const h = config.hold;
  return typeof h === 'number' ? new FixedHold({ ...config, hold: h }, hooks) : new AutoHold({ ...config, hold: h }, hooks);
}
