import { EthleError } from '../errors/EthleError.js';
import type { HlsPartPosition } from './HlsPartPosition.js';

/** What the edge knows about the playlist it serves (the held one) — e.g. from HlsHoldResult. */
export interface HeldPlaylistPosition {
  /** msn of the newest complete segment listed (HlsHoldResult.lastVisibleMsn). */
  lastMsn: number;
  /** The newest part listed, if any (HlsHoldResult.lastVisiblePart). */
  lastPart?: HlsPartPosition;
  /** Parts per parent segment (HlsHoldResult.partsPerSegment / partsPerSegment()). */
  partsPerSegment: number;
  /** EXT-X-PART-INF PART-TARGET, seconds: sets the Advance Part Limit. */
  partTarget: number;
  /** EXT-X-TARGETDURATION, seconds: a blocked request gets 503 after 3 × this. */
  targetDuration: number;
  /** EXT-X-ENDLIST: the directives are ignored. */
  ended?: boolean;
}

export type BlockingReloadPlan =
  /** The served playlist already contains what was asked for (or the playlist ended): answer now. */
  | { action: 'answer' }
  /**
   * Block. The held playlist contains the request once the origin lists `origin` (or later): the
   * requested part + the N held parts. After `timeoutSeconds` without it, answer 503 (§6.2.5.2).
   */
  | { action: 'wait'; origin: HlsPartPosition; timeoutSeconds: number }
  /** Too far ahead of the served playlist (§6.2.5.2): answer 400 at once. */
  | { action: 'reject'; status: 400; reason: 'msn-too-far' | 'part-too-far' };

/**
 * Blocking playlist reload through a part-holding edge (RFC 8216bis §6.2.5.2). The receiver asks
 * for `_HLS_msn=M[&_HLS_part=P]` against the playlist the edge serves, which lags the origin by
 * `holdParts` parts. So the request is satisfied when the origin lists position (M, P) + N parts,
 * carried across segment boundaries with the playlist's parts per segment. Without `_HLS_part` the
 * receiver wants segment M complete, i.e. its last part. A part index past the parent's last part
 * means part 0 of the next segment (§6.2.5.2). The Bad Request rules are judged against the served
 * playlist, the one the receiver has seen: M > last msn + 2, or more than the Advance Part Limit
 * (3 / PART-TARGET parts if PART-TARGET < 1 s, else 3) past its newest part.
 */
export function planBlockingReload(
  request: { msn: number; part?: number },
  held: HeldPlaylistPosition,
  holdParts: number,
): BlockingReloadPlan {
  const { msn, part } = request;
  const k = held.partsPerSegment;
  if (
    !isCount(msn) ||
    (part !== undefined && !isCount(part)) ||
    !isCount(holdParts) ||
    !isCount(held.lastMsn) ||
    !Number.isInteger(k) ||
    k < 1 ||
    !(held.partTarget > 0) ||
    !(held.targetDuration > 0) ||
    (held.lastPart !== undefined && (!isCount(held.lastPart.msn) || !isCount(held.lastPart.part)))
  ) {
    throw new EthleError(
      'ERR_HLS_INVALID_OPTIONS',
      'planBlockingReload: msn, part, holdParts and positions must be integers ≥ 0, partsPerSegment ≥ 1, durations > 0',
      { request, held, holdParts },
    );
  }
  if (held.ended === true) return { action: 'answer' };
  // Positions in parts: segment m's part j is m·k + j.
  const wanted = part === undefined ? msn * k + k - 1 : part >= k ? (msn + 1) * k : msn * k + part;
  const lastListed = held.lastPart !== undefined ? held.lastPart.msn * k + Math.min(held.lastPart.part, k - 1) : -1;
  const have = Math.max(lastListed, held.lastMsn * k + k - 1);
  if (wanted <= have || (part === undefined && msn <= held.lastMsn)) return { action: 'answer' };
  if (msn > held.lastMsn + 2) return { action: 'reject', status: 400, reason: 'msn-too-far' };
  const advancePartLimit = held.partTarget < 1 ? 3 / held.partTarget : 3;
  if (part !== undefined && wanted - have > advancePartLimit + 1e-9) return { action: 'reject', status: 400, reason: 'part-too-far' };
  const target = wanted + holdParts;
  return { action: 'wait', origin: { msn: Math.floor(target / k), part: target % k }, timeoutSeconds: 3 * held.targetDuration };
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
