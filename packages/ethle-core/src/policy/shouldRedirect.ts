import { LIMITS, requireInteger, requireRange } from '../model/validate.js';
import { HOLD_POLICY_DEFAULTS } from './HOLD_POLICY_DEFAULTS.js';
import type { RadioSource } from './RadioEstimate.js';

/** The longest redirect window accepted (ms): beyond it a receiver the radio cannot carry stalls for minutes first. */
export const MAX_REDIRECT_SUSTAIN_MS = 600_000;

/** One radio estimate as the receiver's history keeps it: its value, source and when it was noted. */
export interface NotedEstimate {
  /** th_ran, bits/s. */
  bps: number;
  source: RadioSource;
  /** When the edge noted it (ms, the policy's clock). */
  atMs: number;
}

export interface RedirectInput {
  /** Requests this receiver has made to the edge, the current one included. */
  requests: number;
  /** Its radio estimates, oldest first, each with when it was noted (PolicyGroups.note). */
  estimates: readonly NotedEstimate[];
  /** b_seg, bits/s. */
  bitrateBps: number;
  /** The least number of measurements the window must hold (default 2). */
  consecutive?: number;
  /** The least time the measurements must cover, ms (default HOLD_POLICY_DEFAULTS.redirectSustainMs). */
  sustainMs?: number;
}

/** What a redirect decision rests on, for the log. */
export interface RedirectEvidence {
  /** The window's measurements, oldest first (the latest last); empty before there is one. */
  measurements: readonly NotedEstimate[];
  /** From the window's first measurement to its latest, ms. */
  spanMs: number;
  /**
   * The window's time-weighted mean, bits/s: each measurement weighted by how long it was the
   * edge's latest (until the next one). Undefined while the window has fewer than two.
   */
  meanBps: number | undefined;
}

export interface RedirectDecision {
  redirect: boolean;
  reason:
    /** The receiver's first request: nothing measured yet. */
    | 'first-request'
    /** Too few measurements (the default estimate is not one). */
    | 'too-few-measurements'
    /** The measurements do not reach back `sustainMs` yet. */
    | 'window-too-short'
    /** The latest measurement, or the window's mean, passes eq. 3. */
    | 'not-sustained'
    /** Over at least `sustainMs` the mean fails eq. 3, and so does the latest measurement. */
    | 'sustained-below-bitrate';
  evidence: RedirectEvidence;
}

/**
 * Redirect a receiver to the origin (eq. 3 fails: th_ran ≤ b_seg, holding cannot help) only on
 * sustained evidence in time: its measurements (RNI, the edge's own, credible CMCD; a default
 * estimate is none) cover at least `sustainMs`, at least `consecutive` of them, their mean over
 * that window is at or below the bitrate, and so is the latest; never on a first request.
 *
 * A redirect moves the receiver away from the edge for good, and holding absorbs what is shorter
 * than the held buffer (x · l_seg, seconds): a shared cell at 50 % load gives one user ~82 Mbit/s
 * on average but 28–56 Mbit/s while the others send, for sojourns of seconds. Two measurements
 * ~4 s apart under a 48.8 Mbit/s stream (the old rule: the last two, each ≤ b_seg) redirected such
 * a receiver at 45 s, and from the origin it stalled five times. The window is the newest
 * measurements reaching back `sustainMs` from the latest (the shortest such suffix, and at least
 * `consecutive` long). Its mean is weighted by time — each measurement by how long it stood until
 * the next — because measurements come at the request rate, not a fixed one (a playlist reloaded
 * at half the target duration when unchanged, after a stall, or an RNI value at every request):
 * a burst of them must not outweigh the rest of the window. The latest has no duration yet, so it
 * is checked on its own: a radio that has just recovered is not redirected on its past. With
 * `sustainMs` 0 the window is the last `consecutive` measurements, all ≤ b_seg when there are two:
 * the old rule.
 */
export function shouldRedirect(input: RedirectInput): RedirectDecision {
  const requests = requireInteger('requests', input.requests, 0, Number.MAX_SAFE_INTEGER);
  const bitrate = requireRange('bitrateBps', input.bitrateBps, 0, LIMITS.maxBps, true);
  const n = requireInteger('consecutive', input.consecutive ?? 2, 1, 1000);
  const sustainMs = requireRange('sustainMs', input.sustainMs ?? HOLD_POLICY_DEFAULTS.redirectSustainMs, 0, MAX_REDIRECT_SUSTAIN_MS);
  const none: RedirectEvidence = { measurements: [], spanMs: 0, meanBps: undefined };
  if (requests <= 1) return { redirect: false, reason: 'first-request', evidence: none };
  const measurements = input.estimates.filter((e) => e.source !== 'default');
  const k = measurements.length - 1;
  if (measurements.length < n) return { redirect: false, reason: 'too-few-measurements', evidence: windowOf(measurements, 0) };
  const latest = measurements[k]!;
  // The newest measurement at least sustainMs before the latest opens the window.
  let j = k - n + 1;
  while (j >= 0 && latest.atMs - measurements[j]!.atMs < sustainMs) j -= 1;
  if (j < 0) return { redirect: false, reason: 'window-too-short', evidence: windowOf(measurements, 0) };
  const evidence = windowOf(measurements, j);
  const sustained = !(latest.bps > bitrate) && !(evidence.meanBps! > bitrate);
  return { redirect: sustained, reason: sustained ? 'sustained-below-bitrate' : 'not-sustained', evidence };
}

/** The measurements from index `from` to the latest, their span and time-weighted mean. */
function windowOf(measurements: readonly NotedEstimate[], from: number): RedirectEvidence {
  const w = measurements.slice(from);
  if (w.length === 0) return { measurements: w, spanMs: 0, meanBps: undefined };
  const spanMs = w[w.length - 1]!.atMs - w[0]!.atMs;
  if (w.length < 2) return { measurements: w, spanMs, meanBps: undefined };
  let sum = 0;
  let ms = 0;
  for (let i = 0; i + 1 < w.length; i++) {
    // A clock that steps back counts as no time, not negative time.
    const d = Math.max(0, w[i + 1]!.atMs - w[i]!.atMs);
    sum += w[i]!.bps * d;
    ms += d;
  }
  // All at one instant (a window of 0 ms): each counts the same.
  const meanBps = ms > 0 ? sum / ms : w.slice(0, -1).reduce((a, e) => a + e.bps, 0) / (w.length - 1);
  return { measurements: w, spanMs, meanBps };
}
