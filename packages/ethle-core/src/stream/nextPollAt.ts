import type { ManifestView } from '../session/ManifestView.js';

/** The poller's pace (ms). */
export const POLL_TIMING = {
  /** Never poll more often than this (a manifest that asks for less is read at this pace). */
  minMs: 100,
  /** Aim this long after a segment's expected listing (clock skew and origin processing). */
  dueSlackMs: 30,
  /** Retry interval while an expected segment is not listed yet. */
  dueRetryMs: 100,
  /** The slowest pace after failures, and the pace when the schedule itself fails. */
  maxBackoffMs: 8_000,
  /** A poll whose time is this close counts as due (a timer fires a little early or late). */
  earlyMs: 5,
} as const;

/** What the next poll is decided from. */
export interface PollState {
  /** Now, epoch ms (HLS program date-times are wall-clock times). */
  nowMs: number;
  /** When the last poll started, epoch ms (0: never). */
  lastPollAtMs: number;
  /** Polls failed in a row. */
  failures: number;
  /** The last poll brought the same text again. */
  unchanged: boolean;
  /** The current version, if the stream has one. */
  view: Pick<ManifestView, 'pollIntervalMs' | 'segmentSeconds' | 'nextSegmentDueMs' | 'lowLatency'> | undefined;
}

export interface NextPoll {
  /** When to poll, epoch ms. */
  atMs: number;
  /**
   * Until then, plan this often (ms): a DASH `$Number$` window moves with the clock, not with MPD
   * updates. Undefined: nothing to do in between (a blocking poll, a backoff).
   */
  planEveryMs?: number;
  reason: 'blocking' | 'backoff' | 'cadence' | 'segment-due' | 'due-retry';
}

/**
 * When a stream's manifest is polled next. One poll per stream however many receivers: the
 * origin sees one flow.
 *
 * - LL-HLS with a blocking origin: at once (the poll waits at the origin for the next part). An
 *   unchanged answer means the origin did not block: back to the timed cadence, never a spin.
 * - After failures: the cadence doubled per failure (up to 2⁶), capped at one segment once the
 *   stream has had a version (receivers wait on it, and the edge must be back within a segment of
 *   the origin), else at `maxBackoffMs`.
 * - Otherwise the manifest's cadence from the last poll, or, for a dated manifest (HLS PDT), just
 *   after the next segment is due, retried briefly while it is not listed yet: holding then adds x
 *   segments, not x segments plus up to half a target duration of polling lag.
 */
export function nextPollAt(p: PollState): NextPoll {
  const { view, nowMs } = p;
  if (p.failures === 0 && !p.unchanged && view?.lowLatency?.nextPart !== undefined) return { atMs: nowMs, reason: 'blocking' };
  const base = Math.max(POLL_TIMING.minMs, view?.pollIntervalMs ?? 1000);
  if (p.failures > 0) {
    const cap =
      view !== undefined && view.segmentSeconds > 0
        ? Math.min(POLL_TIMING.maxBackoffMs, Math.max(POLL_TIMING.minMs, view.segmentSeconds * 1000))
        : POLL_TIMING.maxBackoffMs;
    return { atMs: nowMs + Math.min(cap, base * 2 ** Math.min(p.failures, 6)), reason: 'backoff' };
  }
  // Plan every half segment in between polls (DASH $Number$: see planEveryMs).
  const planEvery = view === undefined || view.segmentSeconds <= 0 ? base : Math.max(POLL_TIMING.minMs, view.segmentSeconds * 500);
  const planEveryMs = Math.min(base, planEvery);
  const cadence = p.lastPollAtMs + base;
  const due = view?.nextSegmentDueMs === undefined ? undefined : view.nextSegmentDueMs + POLL_TIMING.dueSlackMs;
  if (due !== undefined) {
    if (due > p.lastPollAtMs && due < cadence) return { atMs: due, planEveryMs, reason: 'segment-due' };
    const retry = p.lastPollAtMs + POLL_TIMING.dueRetryMs;
    if (due <= p.lastPollAtMs && p.lastPollAtMs - due < base && retry < cadence) return { atMs: retry, planEveryMs, reason: 'due-retry' };
  }
  return { atMs: cadence, planEveryMs, reason: 'cadence' };
}
