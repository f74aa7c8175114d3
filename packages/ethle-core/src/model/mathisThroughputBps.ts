import { TCP_DEFAULTS } from './TCP_DEFAULTS.js';
import { LIMITS, requireRange } from './validate.js';

export interface MathisInput {
  rttSeconds: number;
  /** Packet loss probability, (0, 1]. */
  lossRate: number;
  mssBytes?: number;
}

/**
 * Steady-state TCP throughput under random loss p (Mathis et al. 1997; used by Humeida et al. for
 * deadline-aware live delivery): MSS/RTT · sqrt(3/2) / sqrt(p), in bits/s.
 */
export function mathisThroughputBps(input: MathisInput): number {
  const rtt = requireRange('rttSeconds', input.rttSeconds, 0, LIMITS.maxRttSeconds, true);
  const p = requireRange('lossRate', input.lossRate, 0, 1, true);
  const mss = requireRange('mssBytes', input.mssBytes ?? TCP_DEFAULTS.mssBytes, 0, LIMITS.maxMssBytes, true);
  return (Math.sqrt(1.5) * mss * 8) / (rtt * Math.sqrt(p));
}
