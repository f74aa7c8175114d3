import { HOLD_LIMITS } from '../model/HOLD_LIMITS.js';

/**
 * The hold policy's defaults, one table for both edges (the Node edge's config and the service
 * worker read these; neither keeps its own).
 */
export const HOLD_POLICY_DEFAULTS = {
  /** x_max when the operator sets none. */
  maxHold: HOLD_LIMITS.defaultMax,
  /** The backhaul's initial congestion window, MSS: Linux's (RFC 6928). */
  initialWindow: 10,
  /** Radio throughput when nothing better is known, Mbit/s. */
  defaultRanMbps: 100,
  /**
   * Lowering x: the measured backhaul must support x − 1 for this many segment periods and this
   * many samples in a row first (nextStreamHold's dwell): raise fast, lower slowly.
   */
  lowerAfterSegments: 4,
  lowerAfterSamples: 3,
  /** auto's floor for x: the model's x (HoldPolicyConfig.holdFloor). */
  holdFloor: 'model',
  /**
   * A redirect (eq. 3) needs the receiver's radio measurements to cover this long, ms
   * (HoldPolicyConfig.redirectSustainMs says why 30 s).
   */
  redirectSustainMs: 30_000,
} as const;
