import {
  planPrefetch,
  prefetchRetryMs,
  StreamProgress,
  timerMs,
  type ManifestView,
  type PrefetchDeadlines,
  type SegmentRef,
} from '@ethle/core';
import type { CacheEntry } from '../cache/CacheEntry.js';
import type { SegmentCache } from '../cache/SegmentCache.js';
import type { OriginClient } from '../origin/OriginClient.js';
import type { SplitFetch } from '../origin/SegmentFetchOptions.js';
import { fetchLimits, type FetchLimits } from '../origin/fetchLimits.js';
import { describeMiss } from './describeMiss.js';
import { RecentRates } from './RecentRates.js';
import { NODE_TIMERS, type Timers } from './Timers.js';

/** What a stream's prefetch tells the edge (metrics, the segment index, the policy, the log). */
export interface PrefetchHooks {
  /** Whole segments beyond the most advanced receiver (the lowest over the stream's tracks). */
  lead: (lead: number) => void;
  /**
   * The window's segment paths (without query) that appeared and that left: the registry keeps
   * one index of every active stream's segments, so a request finds its stream in O(1).
   */
  window: (added: string[], removed: string[]) => void;
  /** The planner projects a held segment to miss its deadline whatever it does: x must grow. */
  needsHold: (x: number, reason: string) => void;
  /** Segments fetched beyond x + 1 parallel fetches (up to maxParallel + 1): waiting, they would miss their deadline. */
  burst: (ids: number[]) => void;
  /** A held segment's fetch, started in time, is projected late within the tolerance: x is not raised for it (once per segment). */
  tolerated: (miss: string) => void;
  /**
   * A prefetch the plan wants does not fit the byte budget (without evicting what receivers still
   * need): skipped this tick. Told at every skip — counted, and logged summed by the caller.
   */
  budgetFull: (details: PrefetchBudgetFull) => void;
  /** A bug in planning (not an origin fault): reported, never thrown into a poll or a request. */
  planError: (e: Error) => void;
  /**
   * LL-HLS: the parts the current version lists (paths without query) that appeared and that
   * left. The registry indexes them beside the window's segments (listedPart): a receiver's
   * request for a listed part the edge did not prefetch is then one cached object of the stream,
   * not an unplanned one streamed through per request and cancelled with its receiver.
   */
  parts?: (added: string[], removed: string[]) => void;
}

/** Why a planned prefetch did not fit: what it needed, and what the budget held then (bytes). */
export interface PrefetchBudgetFull {
  segmentBytes: number;
  /** The stream's prefetches started but not admitted yet (queued, or waiting for headers), at their estimates. */
  pendingBytes: number;
  cacheBytes: number;
  transitBytes: number;
  maxBytes: number;
}

export interface StreamPrefetcherOptions {
  /** The stream's key: its scheduler group at the origin client. */
  key: string;
  origin: Pick<OriginClient, 'name' | 'fetchInto'>;
  cache: SegmentCache;
  /** The cache's wall clock, ms. */
  now: () => number;
  timers?: Timers;
  /** Operator cap on parallel origin fetches per stream (x_max; the planner uses up to x + 1 of them). */
  maxParallel: number;
  /** x the planner keeps the edge ahead by (changes with the auto policy). */
  hold: () => number;
  /** The x a new player is shown (HoldPolicy.startHold): where the planner anticipates a start. */
  startHold?: () => number;
  /** Advertised bits/s of one segment's track, before any was fetched (HLS media playlists only). */
  bitrateHint: () => number | undefined;
  /** The measured steady-state per-flow backhaul rate of the stream's origin (Mbit/s), if any. */
  flowMbps: () => number | undefined;
  /** Backhaul RTT (ms), if known: a new fetch's first byte waits for it. */
  rttMs: () => number | undefined;
  /** Shortest idle timeout and deadline of one segment fetch (ms); longer segments scale them (fetchLimits). */
  minFetchDeadlineMs: number;
  /** LL-HLS: parts to prefetch beyond the preload hint (the held ones and the few players read behind them). */
  prefetchParts: number;
  /**
   * A DASH ladder's Representation is prefetched while a receiver asked for a segment of it within
   * this long (ms): the stream's idle time (core RenditionLadder; default STREAM_DEFAULTS.idleMs).
   */
  playedWithinMs?: number;
  on: PrefetchHooks;
}

/**
 * A stream's prefetch: the core's StreamProgress (window, requests, sizes) and planPrefetch,
 * turned into origin fetches into the cache — each segment once, never beyond the cache's room,
 * not again within prefetchRetryMs of a failed fetch and never again once evicted whole — plus
 * LL-HLS parts (each listed part an object of the stream, see listedPart) and the first segment's
 * size.
 */
export class StreamPrefetcher {
  readonly progress: StreamProgress;
  readonly #o: StreamPrefetcherOptions;
  readonly #timers: Timers;
  #view: ManifestView | undefined;
  #closed = false;
  /**
   * Prefetches this stream started and that are not finished (cancelled when it closes), each
   * with the bytes it was expected to take: its own track's segment size, or a part's share of it.
   */
  readonly #prefetching = new Map<CacheEntry, number>();
  readonly #sizeWaiters: Array<() => void> = [];
  readonly #rates = new RecentRates();
  /** Per track (a stream has a few), the newest segment whose tolerated miss was reported. */
  readonly #toleratedUpTo = new Map<string, number>();
  /**
   * LL-HLS: the parts the current version lists, path without query → the path as listed
   * (bounded by the core's MAX_PART_PATHS, 16).
   */
  readonly #listedParts = new Map<string, string>();

  constructor(o: StreamPrefetcherOptions) {
    this.#o = o;
    this.#timers = o.timers ?? NODE_TIMERS;
    this.progress = new StreamProgress({ playedWithinMs: o.playedWithinMs });
  }

  /** A new origin version: plan from it, and fetch its LL-HLS parts. */
  onVersion(view: ManifestView, wentBackwards: boolean): void {
    this.#view = view;
    this.progress.setLadder(view.ladder);
    // Ids start over: the reported-up-to marks would silence every later report.
    if (wentBackwards) this.#toleratedUpTo.clear();
    this.#listParts(view);
    this.#prefetchParts(view);
  }

  /** A part the current version lists (request path without query): the path to fetch it by. */
  listedPart(barePath: string): string | undefined {
    return this.#listedParts.get(barePath);
  }

  /** The segment a request path (without query) names, if it is in the current window. */
  segmentFor(barePath: string): SegmentRef | undefined {
    return this.progress.segmentFor(barePath);
  }

  /** A receiver asked for this segment: its progress (and on a DASH ladder, what it plays) moves the plan. */
  noteRequest(seg: SegmentRef): void {
    if (this.progress.noteRequest(seg, this.#o.now())) this.plan();
  }

  /** A segment's size (its Content-Length, when the headers arrive). */
  noteSize(track: string, bytes: number): void {
    this.progress.sizes.note(track, bytes);
    for (const w of this.#sizeWaiters.splice(0)) w();
  }

  /**
   * The segment size for the model before any segment completed: the Content-Length of the
   * first segment fetch (which the first manifest request started) — one backhaul RTT, not a
   * whole segment. Undefined after timeoutMs.
   */
  async firstSegmentBytes(timeoutMs: number): Promise<number | undefined> {
    if (!this.progress.sizes.empty) return this.progress.sizes.total;
    await new Promise<void>((resolve) => {
      const t = this.#timers.setTimeout(resolve, timerMs(timeoutMs));
      this.#sizeWaiters.push(() => {
        this.#timers.clearTimeout(t);
        resolve();
      });
    });
    return this.progress.sizes.total;
  }

  /**
   * How to fetch a segment a receiver is or will at once be waiting for while the edge has no lead
   * on it: as `parts` concurrent byte ranges (default maxParallel; a visible prefetch takes what
   * the plan ranked it, core rangesByNeed), sized from the track's measured segments or, before
   * any, its advertised bitrate (an HLS media playlist's; a DASH ladder Representation's
   * @bandwidth). Undefined when the size cannot be estimated, or with maxParallel below 2.
   */
  splitFor(s: SegmentRef, parts = this.#o.maxParallel): SplitFetch | undefined {
    if (this.#o.maxParallel < 2 || parts < 2) return undefined;
    const approxBytes = this.progress.expectedBytes(s, this.#o.bitrateHint());
    return approxBytes === undefined ? undefined : { parts, approxBytes };
  }

  /** How long one fetch of a segment of this duration may go without a byte, and take in all. */
  limits(durationSeconds: number): FetchLimits {
    return fetchLimits(durationSeconds, this.#o.minFetchDeadlineMs);
  }

  /** Ask the core planner what to fetch now and start those fetches. A bug here is reported, not thrown. */
  plan(): void {
    try {
      this.#plan();
    } catch (e) {
      this.#o.on.planError(e as Error);
    }
  }

  close(): void {
    this.#closed = true;
    this.#view = undefined;
    this.#o.on.window([], this.progress.setWindow([]).removed);
    this.progress.setLadder(undefined);
    if (this.#listedParts.size > 0) this.#o.on.parts?.([], [...this.#listedParts.keys()]);
    this.#listedParts.clear();
    // Prefetches nobody reads any more are not worth the backhaul.
    for (const e of this.#prefetching.keys()) if (e.readers === 0) e.abort.abort('stream closed');
    this.#prefetching.clear();
    for (const w of this.#sizeWaiters.splice(0)) w();
  }

  #plan(): void {
    const view = this.#view;
    if (view === undefined || this.#closed) return;
    const now = this.#o.now();
    const { added, removed } = this.progress.setWindow(view.segments(now));
    if (added.length > 0 || removed.length > 0) this.#o.on.window(added, removed);
    const x = this.#o.hold();
    const cache = this.#o.cache;
    let lead: number | undefined;
    // A DASH ladder's Representations no receiver plays are not planned (core RenditionLadder):
    // what was fetched of them is held for nobody, evicted like any read segment.
    const planned = this.progress.plannedTracks(now);
    if (planned.length < this.progress.trackCount) {
      const on = new Set(planned);
      for (const track of this.progress.tracks()) if (!on.has(track)) this.#unwantOutside(track, undefined);
    }
    for (const track of planned) {
      const most = this.progress.mostAdvanced(track);
      const deadlines = this.#deadlines(track, x, now);
      const input = this.progress.plannerInput(
        track,
        (s) => {
          const e = cache.peek(this.#cacheKey(s.path));
          if (e === undefined) return undefined;
          // What the plan keeps local is evicted last (see SegmentCache.admit): the held segments
          // and the most advanced receiver's own (the plan's window is [most, most + x]; receivers
          // just behind it ask for it next). Were the head evictable, the cache would drop it first
          // and the plan fetch it again a segment later, for as long as it stays the head (receivers
          // paused or gone): a loop across the backhaul.
          e.wanted = most === undefined || s.id >= most;
          return e.state === 'complete' ? 'complete' : 'pending';
        },
        {
          hold: x,
          maxHold: this.#o.maxParallel,
          ...(this.#o.startHold === undefined ? {} : { startHold: this.#o.startHold() }),
          ...(deadlines === undefined ? {} : { deadlines }),
        },
      );
      const plan = planPrefetch(input);
      if (most === undefined) this.#unwantOutside(track, plan.want);
      if (plan.burst !== undefined) this.#o.on.burst(plan.burst);
      const splits = new Map((plan.split ?? []).map((d) => [d.id, d.ranges] as const));
      const visible = new Map((plan.visibleRanges ?? []).map((v) => [v.id, v.ranges] as const));
      for (const id of plan.fetch) {
        const s = this.progress.segment(track, id);
        if (s === undefined) continue;
        // A segment receivers already see (the plan's `visible`: a new player's start segments,
        // every one of them; a backlog) is waited for at once, as a miss is: as the ranges the
        // plan gives it in need order (the first needed 2 × maxParallel, later ones fewer, all
        // started now). A held one whose single-flow fetch would miss the moment it becomes
        // visible: the deadline plan's ranges. Either way it is one of the plan's fetches (x + 1,
        // a burst up to maxParallel + 1), of at most 2 × maxParallel ranges (n visible ones ranked
        // in one round take at most (n + 1) × maxParallel): the stream's connections stay bounded.
        const ranges = splits.get(id);
        const approx = this.progress.sizes.track(track);
        const shown = visible.get(id);
        this.#prefetch(
          s,
          shown !== undefined
            ? this.splitFor(s, shown)
            : ranges !== undefined && approx !== undefined
              ? { parts: ranges, approxBytes: approx }
              : undefined,
        );
      }
      // Said once per segment (the plan is made every tick): the newest segment reported per track.
      for (const l of plan.late ?? []) {
        if (l.tolerated !== true || l.id <= (this.#toleratedUpTo.get(track) ?? -1)) continue;
        this.#toleratedUpTo.set(track, l.id);
        this.#o.on.tolerated(describeMiss(l));
      }
      // A fetch that misses its deadline whatever the plan does: x is too small for this backhaul.
      if (plan.needsHold !== undefined)
        this.#o.on.needsHold(
          plan.needsHold,
          `a held segment's fetch misses its deadline (${(plan.late ?? []).map(describeMiss).join(', ')})`,
        );
      const l = this.progress.trackLead(track, input.cached);
      if (l !== undefined) lead = lead === undefined ? l : Math.min(lead, l);
    }
    if (lead !== undefined) this.#o.on.lead(lead);
  }

  /**
   * Before any receiver asked for a segment of a track, what the plan wants is where a new player
   * would start (plan.want); the rest of the window is held for nobody and is evicted like any
   * read segment. Without this every segment of such a track stayed wanted while the origin
   * listed it — an LL-HLS stream whose players fetch parts never asks for a segment, and its
   * origin's 120 s window of 50M-2s segments (732 MB) outgrew a 512 MB budget that could then
   * evict none of it for a prefetch. A track not planned (`want` undefined: a DASH ladder's
   * Representation nobody plays) has none of its window wanted.
   */
  #unwantOutside(track: string, want: { from: number; to: number } | undefined): void {
    for (const s of this.progress.segments(track)) {
      if (want !== undefined && s.id >= want.from && s.id <= want.to) continue;
      const e = this.#o.cache.peek(this.#cacheKey(s.path));
      if (e !== undefined) e.wanted = false;
    }
  }

  /** The deadline plan's inputs (core StreamProgress.deadlines) once the origin's per-flow rate is measured. */
  #deadlines(track: string, x: number, nowMs: number): PrefetchDeadlines | undefined {
    const flowMbps = this.#o.flowMbps();
    if (flowMbps === undefined) return undefined;
    const rtt = this.#o.rttMs();
    const entry = (s: SegmentRef) => this.#o.cache.peek(this.#cacheKey(s.path));
    return this.progress.deadlines(track, x, {
      nowMs,
      flowBps: flowMbps * 1e6,
      ...(rtt === undefined ? {} : { firstByteMs: rtt }),
      maxSplit: this.#o.maxParallel,
      fetches: {
        receivedBytes: (s) => entry(s)?.bytes,
        // The entry is made when its fetch starts (the cache's coarse wall clock, ms steps).
        fetchElapsedMs: (s) => {
          const e = entry(s);
          return e === undefined ? undefined : nowMs - e.createdAt;
        },
        recentBps: (s) => {
          const e = entry(s);
          return e === undefined ? undefined : this.#rates.bps(e, nowMs);
        },
      },
    });
  }

  /**
   * Fetch one segment into the cache at prefetch priority, unless it is there or on its way —
   * or it left the cache within prefetchRetryMs (bypassed, failed), or was evicted once whole
   * (SegmentCache.evicted: each object crosses the backhaul once for the plan; a receiver's
   * request may fetch it again), or it would not fit without evicting segments receivers still
   * need.
   */
  #prefetch(s: SegmentRef, split?: SplitFetch): void {
    const key = this.#cacheKey(s.path);
    const cache = this.#o.cache;
    if (cache.has(key) || cache.droppedWithin(key, prefetchRetryMs(s)) || cache.evicted(key)) return;
    const size = this.progress.sizes.track(s.track);
    // Prefetches started but not admitted yet will take room too: planned in one tick, each
    // would otherwise see the same free space, and all but one would be dropped at their headers.
    // Each counts what it will take (a part a part's bytes, another track its own track's size).
    let pending = 0;
    for (const [e, bytes] of this.#prefetching) if (!e.admitted && e.state === 'pending') pending += bytes;
    if (size !== undefined && !cache.hasRoom(size + pending)) {
      this.#o.on.budgetFull({
        segmentBytes: Math.round(size),
        pendingBytes: Math.round(pending),
        cacheBytes: cache.bytes,
        transitBytes: cache.budget.held('transit'),
        maxBytes: cache.maxBytes,
      });
      return;
    }
    // Wanted from the start: held segments no receiver asked for yet are evicted last.
    const entry = this.#start(key, s.path, s.durationSeconds, size ?? 0, true, split);
    entry.whenHeaders().then(
      () => {
        if (entry.expectedBytes !== undefined) this.noteSize(s.track, entry.expectedBytes);
      },
      () => undefined,
    );
    entry.whenComplete().then(
      () => this.plan(),
      () => undefined, // counted by the origin client's report; the planner retries next tick
    );
  }

  /** LL-HLS: the parts this version lists, told to the registry as they appear and leave. */
  #listParts(view: ManifestView): void {
    if (this.#closed) return;
    const ll = view.kind === 'hls-media' ? view.lowLatency : undefined;
    const next = new Map<string, string>();
    for (const path of ll?.partPaths ?? []) {
      const q = path.indexOf('?');
      next.set(q < 0 ? path : path.slice(0, q), path);
    }
    const added = [...next.keys()].filter((p) => !this.#listedParts.has(p));
    const removed = [...this.#listedParts.keys()].filter((p) => !next.has(p));
    this.#listedParts.clear();
    for (const [bare, path] of next) this.#listedParts.set(bare, path);
    if (added.length > 0 || removed.length > 0) this.#o.on.parts?.(added, removed);
  }

  /**
   * LL-HLS: fetch the preload-hinted part and the newest listed ones into the cache, each once
   * (the origin streams a hinted part while producing it; receivers read it while it arrives).
   */
  #prefetchParts(view: ManifestView): void {
    const ll = view.lowLatency;
    if (ll === undefined || view.kind !== 'hls-media') return;
    const cache = this.#o.cache;
    // A part is its share of a segment (an HLS media playlist is one track: total is its size).
    const partBytes = view.segmentSeconds > 0 ? ((this.progress.sizes.total ?? 0) * ll.partSeconds) / view.segmentSeconds : 0;
    for (const path of ll.partPaths.slice(0, this.#o.prefetchParts + 1)) {
      const key = this.#cacheKey(path);
      if (cache.has(key) || cache.droppedWithin(key, Math.max(1000, ll.partSeconds * 1000 * 4)) || cache.evicted(key)) continue;
      this.#start(key, path, ll.partSeconds, partBytes, false);
    }
  }

  /** One prefetch into a new cache entry of about `bytes`, owned by this stream until it settles. */
  #start(key: string, path: string, durationSeconds: number, bytes: number, wanted: boolean, split?: SplitFetch): CacheEntry {
    const entry = this.#o.cache.create(key);
    if (wanted) entry.wanted = true;
    this.#prefetching.set(entry, bytes);
    this.#o.origin.fetchInto(path, entry, {
      priority: 'prefetch',
      group: this.#o.key,
      limits: this.limits(durationSeconds),
      ...(split === undefined ? {} : { split }),
    });
    const settled = (): void => void this.#prefetching.delete(entry);
    entry.whenComplete().then(settled, settled);
    return entry;
  }

  #cacheKey(path: string): string {
    return `${this.#o.origin.name}${path}`;
  }
}
