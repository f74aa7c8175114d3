import { EthleError } from '../errors/EthleError.js';
import { LIMITS, requireInteger, requireRange } from '../model/validate.js';
import { PLAYER_DEFAULT_MTP_KBPS } from './PLAYER_DEFAULT_MTP_KBPS.js';
import type { RadioEstimate, RadioSkip } from './RadioEstimate.js';

export interface RadioInput {
  /** MEC 012 RNI estimate for this receiver, bits/s, when the edge has a fresh one. */
  rniBps?: number;
  /**
   * The edge's own delivery-rate measurement to this receiver (bytes its responses delivered over
   * the time they took), with how many bytes it covers.
   */
  measured?: { bps: number; bytes: number };
  /** One segment's bytes: the least the edge's measurement must cover. */
  segmentBytes: number;
  /** CMCD from the receiver's request, in CMCD units: `mtp` kbit/s, `bl` ms. */
  cmcd?: { mtpKbps?: number; blMs?: number };
  /** Media segments this receiver has downloaded in full so far (the edge's request history). */
  segmentsDownloaded: number;
  /** The operator's default th_ran, bits/s. */
  defaultBps: number;
  /** CMCD mtp values that are a player's starting estimate (default PLAYER_DEFAULT_MTP_KBPS). */
  playerDefaultMtpKbps?: readonly number[];
}

/**
 * th_ran for one receiver (issue 19), first that applies:
 * 1. MEC 012 RNI, where the operator runs it: the radio network's own view.
 * 2. The edge's own measurement once it covers one segment's bytes: the edge sends on the radio
 *    leg, so it sees the delivery rate without the player's help; less than a segment is mostly
 *    the first RTTs and says little.
 * 3. CMCD `mtp` when credible: the player has downloaded a media segment (history) or has media
 *    buffered (`bl` > 0) — and with no segment in the history, not a known player default.
 *    hls.js sends `mtp=500` (its abrEwmaDefaultEstimate) before measuring anything; taken at
 *    face value it failed eq. 3 on loopback and redirected the demo's edge player.
 * 4. The operator's default.
 */
export function chooseRadioEstimate(input: RadioInput): RadioEstimate {
  const segmentBytes = requireRange('segmentBytes', input.segmentBytes, 0, LIMITS.maxBytes, true);
  const segmentsDownloaded = requireInteger('segmentsDownloaded', input.segmentsDownloaded, 0, Number.MAX_SAFE_INTEGER);
  const defaultBps = requireRange('defaultBps', input.defaultBps, 0, LIMITS.maxBps, true);
  const rniBps = input.rniBps === undefined ? undefined : requireRange('rniBps', input.rniBps, 0, LIMITS.maxBps);
  const measured = input.measured;
  if (measured !== undefined) {
    requireRange('measured.bps', measured.bps, 0, LIMITS.maxBps);
    requireRange('measured.bytes', measured.bytes, 0, LIMITS.maxBytes);
  }
  const mtpKbps = input.cmcd?.mtpKbps;
  if (mtpKbps !== undefined) requireRange('cmcd.mtpKbps', mtpKbps, 0, LIMITS.maxBps / 1e3);
  const blMs = input.cmcd?.blMs;
  if (blMs !== undefined) requireRange('cmcd.blMs', blMs, 0, Number.MAX_SAFE_INTEGER);
  const defaults = input.playerDefaultMtpKbps ?? PLAYER_DEFAULT_MTP_KBPS;
  if (!Array.isArray(defaults))
    throw new EthleError('ERR_MODEL_INVALID_INPUT', 'playerDefaultMtpKbps must be an array of numbers', {
      field: 'playerDefaultMtpKbps',
      value: defaults,
    });

  const skipped: RadioSkip[] = [];
  const evidence = () => ({
    rniBps,
    measuredBps: measured?.bps,
    measuredBytes: measured?.bytes,
    segmentBytes,
    mtpKbps,
    blMs,
    segmentsDownloaded,
    skipped,
  });

  if (rniBps !== undefined) return { bps: rniBps, source: 'rni', evidence: evidence() };
  if (measured !== undefined) {
    if (measured.bytes >= segmentBytes) return { bps: measured.bps, source: 'measured', evidence: evidence() };
    skipped.push('measured-too-few-bytes');
  }
  if (mtpKbps !== undefined && mtpKbps > 0) {
    if (segmentsDownloaded >= 1) return { bps: mtpKbps * 1e3, source: 'cmcd', evidence: evidence() };
    if (blMs === undefined || blMs <= 0) skipped.push('cmcd-before-first-segment');
    else if (defaults.includes(mtpKbps)) skipped.push('cmcd-player-default');
    else return { bps: mtpKbps * 1e3, source: 'cmcd', evidence: evidence() };
  }
  return { bps: defaultBps, source: 'default', evidence: evidence() };
}
