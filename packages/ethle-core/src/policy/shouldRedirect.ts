import { LIMITS, requireInteger, requireRange } from '../model/validate.js';
import type { RadioEstimate } from './RadioEstimate.js';

export interface RedirectInput {
  /** Requests this receiver has made to the edge, the current one included. */
  requests: number;
  /** Its radio estimates, oldest first: one per segment-scale measurement (chooseRadioEstimate). */
  estimates: readonly RadioEstimate[];
  /** b_seg, bits/s. */
  bitrateBps: number;
  /** How many measurements in a row must fail eq. 3 (default 2). */
  consecutive?: number;
}

export interface RedirectDecision {
  redirect: boolean;
  reason:
    /** The receiver's first request: nothing measured yet. */
    | 'first-request'
    /** Too few measurements (the default estimate is not one). */
    | 'too-few-measurements'
    /** The latest measurement passes eq. 3, or the failing run is shorter than required. */
    | 'not-sustained'
    /** The last `consecutive` measurements all fail eq. 3. */
    | 'sustained-below-bitrate';
  /** The measurements the decision rests on (the last `consecutive`), for the log. */
  evidence: readonly RadioEstimate[];
}

/**
 * Redirect a receiver to the origin (eq. 3 fails: th_ran ≤ b_seg, holding cannot help) only on
 * sustained evidence: the last `consecutive` segment-scale measurements (RNI, the edge's own,
 * credible CMCD) all at or below the bitrate, and never on a first request. A default estimate
 * is no evidence: a redirect moves the receiver away from the edge for good, so one noisy
 * sample, or a player's starting guess, must not cause it.
 */
export function shouldRedirect(input: RedirectInput): RedirectDecision {
  const requests = requireInteger('requests', input.requests, 0, Number.MAX_SAFE_INTEGER);
  const bitrate = requireRange('bitrateBps', input.bitrateBps, 0, LIMITS.maxBps, true);
  const n = requireInteger('consecutive', input.consecutive ?? 2, 1, 1000);
  if (requests <= 1) return { redirect: false, reason: 'first-request', evidence: [] };
  const measurements = input.estimates.filter((e) => e.source !== 'default');
  if (measurements.length < n) return { redirect: false, reason: 'too-few-measurements', evidence: measurements };
  const last = measurements.slice(-n);
  const sustained = last.every((e) => !(e.bps > bitrate));
  return { redirect: sustained, reason: sustained ? 'sustained-below-bitrate' : 'not-sustained', evidence: last };
}
