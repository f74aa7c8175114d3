import type { PrefetchDeadlines } from '../planner/planDeadlines.js';
import type { IdSet, PrefetchInput } from '../planner/planPrefetch.js';
import { segmentDeadlineMs } from '../planner/segmentDeadlineMs.js';
import type { Rendition, SegmentRef } from '../session/ManifestView.js';
import { barePath } from './barePath.js';
import { RenditionLadder } from './RenditionLadder.js';
import { SegmentSizes } from './SegmentSizes.js';
import { STREAM_DEFAULTS } from './STREAM_DEFAULTS.js';

/**
 * A held segment's fetch projected late by at most this many segment lengths does not raise x:
 * the raise would cost every hold-x receiver a whole segment of buffer (its playlist's edge stands
 * still for one), the miss costs them its lateness, once. See PrefetchDeadlines.toleranceMs.
 */
export const MISS_TOLERANCE_SEGMENTS = 0.5;

/** What changed in a stream's window between two versions (paths without query). */
export interface WindowDiff {
  added: string[];
  removed: string[];
}

/** Where a segment is at an edge: whole, on its way, or not there. */
export type LocalState = 'complete' | 'pending' | undefined;

/** The edge's side of a plan: what x it keeps, its cap, and whether to plan against deadlines. */
export interface PlanLimits {
  /** x: how far ahead of the most advanced receiver the edge keeps (the stream's x). */
  hold: number;
  /** The operator's cap on x and on parallel origin fetches per stream (x_max). */
  maxHold: number;
  /** The x a new player is shown (HoldPolicy.startHold; default `hold`): where a start is anticipated. */
  startHold?: number;
  deadlines?: PrefetchDeadlines;
}

/** What an edge measures of its fetches in flight, for the deadline plan. */
export interface FetchProgress {
  /** Bytes the fetch of this segment has received (undefined: not in flight). */
  receivedBytes(s: SegmentRef): number | undefined;
  /** How long it has run (ms). */
  fetchElapsedMs(s: SegmentRef): number | undefined;
  /** Its rate over its latest observation window (bits/s). */
  recentBps(s: SegmentRef): number | undefined;
}

/** The inputs of the deadline plan that only the edge knows. */
export interface DeadlineInputs {
  nowMs: number;
  /** The measured steady-state per-flow backhaul rate, bits/s. */
  flowBps: number;
  /** A new fetch's wait for its first byte (the backhaul RTT), ms. */
  firstByteMs?: number;
  /** Most byte ranges one segment may be fetched as. */
  maxSplit: number;
  fetches: FetchProgress;
}

interface Track {
  segments: SegmentRef[];
  byId: Map<number, SegmentRef>;
}

export interface StreamProgressOptions {
  /**
   * A DASH ladder's Representation counts as played this long after a receiver's request for a
   * segment of it (ms; default STREAM_DEFAULTS.idleMs, the edges pass their stream idle time).
   */
  playedWithinMs?: number;
}

/**
 * One stream's progress as both edges see it (the Node edge's LiveStream and the service
 * worker's SwEdge mount the same class): the window of the current manifest version by track,
 * what changed in it, the most advanced segment receivers asked for, the sizes of recent
 * segments, the lead, and the planner's input. Pure: versions, requests, sizes and what is local
 * come in as arguments; nothing here fetches, stores or reads a clock.
 */
export class StreamProgress {
  readonly sizes = new SegmentSizes();
  readonly #mostAdvanced = new Map<string, number>();
  readonly #ladder: RenditionLadder;
  #tracks = new Map<string, Track>();
  #byPath = new Map<string, SegmentRef>();

  constructor(o: StreamProgressOptions = {}) {
    this.#ladder = new RenditionLadder(o.playedWithinMs ?? STREAM_DEFAULTS.idleMs);
  }

  /**
   * The current version's DASH ladder (ManifestView.ladder), or undefined (any other manifest, or
   * the stream closed: what was kept of the ladder goes).
   */
  setLadder(ladder: readonly Rendition[] | undefined): void {
    this.#ladder.set(ladder);
  }

  /**
   * The window a version lists now (ascending ids per track), replacing the last one: returns the
   * segment paths (without query) that appeared and that left, for the edge's segment index.
   */
  setWindow(segments: readonly SegmentRef[]): WindowDiff {
    const byPath = new Map<string, SegmentRef>();
    const tracks = new Map<string, Track>();
    for (const s of segments) {
      byPath.set(barePath(s.path), s);
      let t = tracks.get(s.track);
      if (t === undefined) tracks.set(s.track, (t = { segments: [], byId: new Map() }));
      t.segments.push(s);
      t.byId.set(s.id, s);
    }
    const added: string[] = [];
    const removed: string[] = [];
    for (const p of byPath.keys()) if (!this.#byPath.has(p)) added.push(p);
    for (const p of this.#byPath.keys()) if (!byPath.has(p)) removed.push(p);
    this.#byPath = byPath;
    this.#tracks = tracks;
    return { added, removed };
  }

  /** The segment a request path (without query) names, if the current window lists it. */
  segmentFor(path: string): SegmentRef | undefined {
    return this.#byPath.get(path);
  }

  /** Paths (without query) of the current window. */
  paths(): IterableIterator<string> {
    return this.#byPath.keys();
  }

  /** The current window's tracks. */
  tracks(): IterableIterator<string> {
    return this.#tracks.keys();
  }

  /** How many tracks the current window has. */
  get trackCount(): number {
    return this.#tracks.size;
  }

  /** A segment of the current window by track and id. */
  segment(track: string, id: number): SegmentRef | undefined {
    return this.#tracks.get(track)?.byId.get(id);
  }

  /** A track's segments in the current window, ascending ids. */
  segments(track: string): readonly SegmentRef[] {
    return this.#tracks.get(track)?.segments ?? [];
  }

  /**
   * A receiver asked for this segment (at nowMs: a ladder's Representation is played from then on,
   * see RenditionLadder; without it the request does not count as played). True when the plan
   * changes: the track's most advanced request so far, or a ladder's Representation played again.
   */
  noteRequest(s: SegmentRef, nowMs?: number): boolean {
    const played = nowMs !== undefined && this.#ladder.noteRequest(s.track, nowMs);
    const m = this.#mostAdvanced.get(s.track);
    if (m !== undefined && s.id <= m) return played;
    this.#mostAdvanced.set(s.track, s.id);
    return true;
  }

  /**
   * The current window's tracks to plan at nowMs: all of them, except on a DASH ladder, where per
   * adaptation set only the Representations receivers play, or before any request the one players
   * start on (RenditionLadder). The others are not fetched.
   */
  plannedTracks(nowMs: number): string[] {
    const tracks = [...this.#tracks.keys()];
    if (!this.#ladder.active) return tracks;
    const planned = this.#ladder.planned((t) => this.#tracks.has(t), nowMs);
    return tracks.filter((t) => !this.#ladder.has(t) || planned.has(t));
  }

  mostAdvanced(track: string): number | undefined {
    return this.#mostAdvanced.get(track);
  }

  /**
   * s_seg for the model: the measured mean, else what the manifest advertises × l_seg. On a DASH
   * ladder, given nowMs: per adaptation set the played Representation's (RenditionLadder), not the
   * whole ladder's.
   */
  segmentBytesEstimate(bitrateHintBps: number | undefined, segmentSeconds: number, nowMs?: number): number | undefined {
    if (nowMs !== undefined && this.#ladder.active) {
      const b = this.#ladder.segmentBytes((t) => this.sizes.track(t), segmentSeconds, nowMs);
      if (b !== undefined) return b;
    }
    const measured = this.sizes.total;
    if (measured !== undefined) return measured;
    return bitrateHintBps === undefined || !(segmentSeconds > 0) ? undefined : (bitrateHintBps * segmentSeconds) / 8;
  }

  /**
   * One segment's expected size: its track's measured mean, else the advertised bitrate (pass it
   * only where it is this track's: an HLS media playlist's, not a DASH MPD's sum; a DASH ladder's
   * Representation has its own @bandwidth) × its length.
   */
  expectedBytes(s: SegmentRef, bitrateHintBps?: number): number | undefined {
    const m = this.sizes.track(s.track);
    if (m !== undefined) return m;
    const bps = bitrateHintBps ?? this.#ladder.bandwidthBps(s.track);
    return bps === undefined ? undefined : (bps * s.durationSeconds) / 8;
  }

  /**
   * The planner's input for one track: its window, the most advanced request, what is local (the
   * edge's cache or store answers `local`), x and the parallel fetches: x for the held segments
   * plus one for the segment a receiver waits for (paper III-B) within the operator's cap, and up
   * to the cap for a segment that would miss its deadline waiting for a slot (an earlier start
   * costs no latency, a larger x costs l_seg).
   */
  plannerInput(track: string, local: (s: SegmentRef) => LocalState, limits: PlanLimits): PrefetchInput {
    const cached = new Set<number>();
    const inFlight = new Set<number>();
    const list = this.segments(track);
    for (const s of list) {
      const state = local(s);
      if (state === 'complete') cached.add(s.id);
      else if (state === 'pending') inFlight.add(s.id);
    }
    return {
      produced: list.map((s) => s.id),
      mostAdvanced: this.#mostAdvanced.get(track),
      cached,
      inFlight,
      inFlightCount: inFlight.size,
      hold: limits.hold,
      ...(limits.startHold === undefined ? {} : { startHold: limits.startHold }),
      maxParallel: Math.min(Math.max(1, limits.hold), limits.maxHold) + 1,
      burstParallel: limits.maxHold + 1,
      // Ranges per fetch of a segment players already see: the plan ranks them in need order.
      maxSplit: limits.maxHold,
      ...(limits.deadlines === undefined ? {} : { deadlines: limits.deadlines }),
    };
  }

  /**
   * The deadline inputs for one track (issue 19): a held segment must be whole at the edge when it
   * becomes visible to the hold-x group, its production time plus x segment lengths. Needs a size
   * estimate and x ≥ 1 (else undefined: the plain plan); segments without a production time
   * (no HLS PDT, no DASH availability) have no deadline.
   */
  deadlines(track: string, hold: number, d: DeadlineInputs): PrefetchDeadlines | undefined {
    const bytes = this.sizes.track(track);
    const t = this.#tracks.get(track);
    if (bytes === undefined || hold < 1 || t === undefined) return undefined;
    const byId = t.byId;
    // The newest segment's length: what a raise of x would cost the receivers.
    const segmentSeconds = t.segments.at(-1)?.durationSeconds;
    const on =
      <T>(f: (s: SegmentRef) => T) =>
      (id: number): T | undefined => {
        const s = byId.get(id);
        return s === undefined ? undefined : f(s);
      };
    return {
      nowMs: d.nowMs,
      flowBps: d.flowBps,
      segmentBytes: () => bytes,
      deadlineMs: (id) => {
        const s = byId.get(id);
        return s?.availableAtMs === undefined ? undefined : segmentDeadlineMs(s.availableAtMs, hold, s.durationSeconds);
      },
      // A miss that only starting late explains (a backlog) does not raise x: see planDeadlines.
      producedAtMs: (id) => byId.get(id)?.availableAtMs,
      receivedBytes: on((s) => d.fetches.receivedBytes(s)),
      fetchElapsedMs: on((s) => d.fetches.fetchElapsedMs(s)),
      recentBps: on((s) => d.fetches.recentBps(s)),
      ...(d.firstByteMs === undefined ? {} : { firstByteMs: d.firstByteMs }),
      maxSplit: Math.max(1, d.maxSplit),
      ...(segmentSeconds === undefined ? {} : { toleranceMs: MISS_TOLERANCE_SEGMENTS * segmentSeconds * 1000 }),
    };
  }

  /**
   * How many segments beyond a track's most advanced request are whole at the edge (goal: x);
   * undefined before any request.
   */
  trackLead(track: string, cached: IdSet): number | undefined {
    const most = this.#mostAdvanced.get(track);
    if (most === undefined) return undefined;
    let l = 0;
    while (cached.has(most + l + 1)) l += 1;
    return l;
  }
}

/**
 * How soon a segment that left an edge's store (evicted, not storable, failed) may be prefetched
 * again: not within its own length (at least a second). Fetching it again at the planner's pace
 * is how prefetch and eviction fed each other; a no-cache origin would be fetched in a loop.
 */
export function prefetchRetryMs(s: SegmentRef): number {
  return Math.max(1000, s.durationSeconds * 1000);
}
