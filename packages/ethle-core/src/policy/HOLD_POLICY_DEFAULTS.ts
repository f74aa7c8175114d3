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
} as const;
