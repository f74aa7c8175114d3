import type { CacheEntry } from '../cache/CacheEntry.js';
import type { SegmentCache } from '../cache/SegmentCache.js';
import { deltaMediaPlaylist, ETHLE_HEADERS, loadManifest, planPrefetch, segmentDeadlineMs, timerMs, type DeadlineMiss, type HeldManifest, type ManifestView, type PrefetchDeadlines, type SegmentRef } from '@ethle/core';
import { EdgeError, isEdgeError } from '../errors/EdgeError.js';
import type { OriginClient, SplitFetch } from '../origin/OriginClient.js';
import { fetchDeadlineMs } from '../origin/fetchDeadlineMs.js';

export interface LiveStreamOptions {
  /** Metric/event label: `{origin}{path}`. */
  key: string;
  /** Origin-relative manifest path (+ forwarded query). */
  path: string;
  origin: OriginClient;
  cache: SegmentCache;
  now: () => number;
  /** Operator cap on parallel origin fetches per stream (the planner uses up to x of them). */
  maxParallel: number;
  /** x the planner keeps the edge ahead by (changes with the auto policy). */
  hold: () => number;
  /** Path prefix of this origin on the edge ('' with one origin). */
  edgePathPrefix: string;
  /** The stream's advertised bitrate (bits/s), for a segment's size before any was fetched. */
  bitrateHint: () => number | undefined;
  onManifestError: (e: EdgeError) => void;
  onLead: (lead: number) => void;
  /** A new origin version was loaded (the registry reads bitrate hints, the policy its context). */
  onVersion: (view: ManifestView) => void;
  /** Something about the origin's manifest worth an operator's attention (not an error). */
  onWarning: (message: string, details: Record<string, unknown>) => void;
  /** A bug in planning (not an origin fault): reported, never turned into an origin outage. */
  onPlanError: (e: Error) => void;
  /**
   * The window's segment paths (without query) that appeared and that left: the registry keeps
   * one index of every active stream's segments, so a request finds its stream in O(1).
   */
  onWindow: (added: string[], removed: string[]) => void;
  /** The measured steady-state per-flow backhaul rate of the stream's origin (Mbit/s), if any. */
  flowMbps: () => number | undefined;
  /** Backhaul RTT (ms), if known: a new fetch's first byte waits for it. */
  rttMs: () => number | undefined;
  /** The planner projects a held segment to miss its deadline whatever it does: x must grow. */
  onNeedsHold: (x: number, reason: string) => void;
  /** Segments fetched beyond x + 1 parallel fetches (up to maxParallel + 1): waiting, they would miss their deadline. */
  onBurst: (ids: number[]) => void;
  /** A held segment's fetch, started in time, is projected late within the tolerance: x is not raised for it (once per segment). */
  onTolerated: (miss: string) => void;
  /** Shortest deadline of one segment fetch (ms); longer segments get 4 × their duration. */
  minFetchDeadlineMs: number;
  /** Blocking reloads parked at once at most (config.maxBlockedPerStream). */
  maxBlocked: number;
  /** LL-HLS: parts to prefetch beyond the preload hint (the held ones and the few players read behind them). */
  prefetchParts: number;
}

/** A receiver's blocking reload waiting for a version that satisfies it. */
interface Blocked {
  satisfied: (v: Version) => boolean;
  settle: (v: Version | undefined) => void;
  timer: NodeJS.Timeout;
}

type HeldBody = HeldManifest & { body: Buffer; fresh: boolean };

interface Version {
  view: ManifestView;
  text: string;
  n: number;
  fetchedAtMs: number;
}

const MIN_POLL_MS = 100;
/** Aim this long after a segment's expected listing (clock skew and origin processing). */
const DUE_SLACK_MS = 30;
/** Retry interval while an expected segment is not listed yet. */
const DUE_RETRY_MS = 100;
const MAX_BACKOFF_MS = 8_000;
/**
 * A held segment's fetch projected late by at most this many segment lengths does not raise x:
 * the raise would cost every hold-x receiver a whole segment of buffer (its playlist's edge stands
 * still for one), the miss costs them its lateness, once. See PrefetchDeadlines.toleranceMs.
 */
const MISS_TOLERANCE_SEGMENTS = 0.5;
/** An in-flight fetch's recent rate is measured over at least this long (ms): a few backhaul RTTs. */
const RECENT_WINDOW_MS = 500;

/** One late fetch for the log of the raise it caused: by how much, and on what it was projected. */
function describeMiss(l: DeadlineMiss): string {
  const why = l.backlog === true ? ' (started late: not counted)' : l.tolerated === true ? ' (within tolerance: not counted)' : '';
  const by = `${((l.projectedMs - l.deadlineMs) / 1000).toFixed(2)} s late${why}`;
  if (l.queued === true) return `${l.id} waiting for a parallel slot, ${by}`;
  if (!l.inFlight) return `${l.id} not started, ${by}`;
  const mbps = l.projectedBps === undefined ? '' : ` at ${(l.projectedBps / 1e6).toFixed(1)} Mbit/s`;
  return `${l.id} ${((l.receivedBytes ?? 0) / 1e6).toFixed(2)} MB in${mbps}, ${by}`;
}

/**
 * One active live stream at the edge: a single poller of the origin manifest (one origin flow
 * however many receivers — emulated multicast), the planner feed that prefetches held segments,
 * the receivers' progress, and the held texts per origin version × x.
 */
export class LiveStream {
  /** Held manifests of the current version by parts held (LL). Cleared on every new version. */
  readonly #heldParts = new Map<number, HeldBody>();
  /** Delta updates (`_HLS_skip`) of held texts: made once per held text and skip kind. */
  readonly #deltas = new WeakMap<HeldBody, Map<string, Buffer>>();
  /** Receivers' blocking reloads parked until a version satisfies them (bounded: maxBlocked). */
  readonly #blocked = new Set<Blocked>();
  readonly key: string;
  readonly path: string;
  lastActivityMs: number;
  /** The upstream's manifest is already held (X-Ethle-Hold-Segments > 0): this edge does not hold it again. */
  upstreamHolds = false;
  /** holdParts 'auto': the parts this stream holds (set by the manifest handler, rising only). */
  partHold: number | undefined;
  #o: LiveStreamOptions;
  #current: Version | undefined;
  #versionN = 0;
  #lastError: EdgeError | undefined;
  #failures = 0;
  #lastPollAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #closed = false;
  /** The last poll brought the same text again. */
  #unchanged = false;
  /** Held manifests of the current version by x. Cleared on every new version. */
  readonly #held = new Map<number, HeldManifest & { body: Buffer; fresh: boolean }>();
  /** Most advanced segment id requested by any receiver, per track. */
  readonly #mostAdvanced = new Map<string, number>();
  /** Known segments of the current window by path (for mapping requests to ids). */
  #byPath = new Map<string, SegmentRef>();
  /** Sizes of recent complete segments (bytes), for the model's s_seg. */
  /** Recent segment sizes per track (bytes). */
  readonly #sizes = new Map<string, number[]>();
  readonly #sizeWaiters: Array<() => void> = [];
  /** Prefetches this stream started and that are not finished: cancelled when it closes. */
  readonly #prefetching = new Set<CacheEntry>();
  /** The cache could not take what the planner wanted: said once per episode, not per tick. */
  #budgetWarned = false;

  constructor(o: LiveStreamOptions) {
    this.#o = o;
    this.key = o.key;
    this.path = o.path;
    this.lastActivityMs = o.now();
  }

  get version(): Version | undefined {
    return this.#current;
  }

  get lastError(): EdgeError | undefined {
    return this.#lastError;
  }

  /** Start polling now (the first manifest request: prefetch starts before any segment request). */
  start(): Promise<void> {
    return this.#poll();
  }

  /** The current version, fetching one first if there is none yet. Throws the fetch error. */
  async ready(): Promise<Version> {
    if (this.#current === undefined) await (this.#polling ?? this.#poll());
    if (this.#current === undefined) throw this.#lastError ?? new EdgeError('ERR_EDGE_ORIGIN_UNREACHABLE', `no manifest for ${this.path}`);
    return this.#current;
  }

  /**
   * Held manifest for x, rewritten once per origin version × x and kept as a Buffer (the hot path
   * sends the same bytes to every receiver of the group). Texts with a session token (multivariant
   * playlists, fetched once per receiver) are not cached. `fresh` = rewritten by this call.
   */
  held(version: Version, x: number, token: string | undefined): HeldManifest & { body: Buffer; fresh: boolean } {
    const cacheable = token === undefined && version === this.#current;
    const hit = cacheable ? this.#held.get(x) : undefined;
    // A text that depends on the time (DASH S@r=-1 at the live edge) is made again once stale.
    if (hit !== undefined && (hit.validUntilMs === undefined || this.#o.now() < hit.validUntilMs)) return hit;
    const h = version.view.hold(x, token, this.#o.now());
    const entry = { ...h, body: Buffer.from(h.text, 'utf8'), fresh: false };
    if (cacheable) this.#held.set(x, entry);
    return { ...entry, fresh: true };
  }

  /**
   * The manifest with the newest n parts (LL-HLS) or chunks (LL-DASH) held, LL features kept:
   * rewritten once per origin version × n, like `held`. Undefined for a manifest without parts.
   */
  heldParts(version: Version, n: number): HeldBody | undefined {
    if (version.view.holdParts === undefined) return undefined;
    const cacheable = version === this.#current;
    const hit = cacheable ? this.#heldParts.get(n) : undefined;
    if (hit !== undefined && (hit.validUntilMs === undefined || this.#o.now() < hit.validUntilMs)) return hit;
    const h = version.view.holdParts(n, undefined, this.#o.now());
    const entry = { ...h, body: Buffer.from(h.text, 'utf8'), fresh: false };
    if (cacheable) this.#heldParts.set(n, entry);
    return { ...entry, fresh: true };
  }

  /** The Playlist Delta Update of a held LL-HLS text (`_HLS_skip`), made once per held text × kind. */
  delta(held: HeldBody, skip: 'YES' | 'v2'): Buffer {
    let m = this.#deltas.get(held);
    if (m === undefined) this.#deltas.set(held, (m = new Map()));
    let b = m.get(skip);
    if (b === undefined) m.set(skip, (b = Buffer.from(deltaMediaPlaylist(held.text, { skip }).text, 'utf8')));
    return b;
  }

  /** Blocking reloads parked now. */
  get blockedCount(): number {
    return this.#blocked.size;
  }

  /**
   * Park a receiver's blocking reload until a version satisfies it (resolved with that version,
   * right after the edge's own poll brings it), or `timeoutMs` passes / the stream closes
   * (undefined). Throws ERR_EDGE_BLOCKED_FULL when maxBlocked are parked already. However many
   * are parked, the origin sees the stream's one poll: parking starts nothing.
   */
  waitFor(satisfied: (v: Version) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<Version | undefined> {
    if (this.#closed || signal?.aborted === true) return Promise.resolve(undefined);
    if (this.#blocked.size >= this.#o.maxBlocked) {
      throw new EdgeError('ERR_EDGE_BLOCKED_FULL', `${this.#o.maxBlocked} blocking reloads already wait on ${this.key} (maxBlockedPerStream)`, { stream: this.key, max: this.#o.maxBlocked });
    }
    return new Promise((resolve) => {
      const b: Blocked = {
        satisfied,
        settle: (v) => {
          clearTimeout(b.timer);
          this.#blocked.delete(b);
          resolve(v);
        },
        timer: setTimeout(() => b.settle(undefined), timerMs(timeoutMs)),
      };
      b.timer.unref();
      this.#blocked.add(b);
      // The receiver left: its place is free at once, not at the deadline.
      signal?.addEventListener('abort', () => b.settle(undefined), { once: true });
    });
  }

  #wake(v: Version): void {
    for (const b of [...this.#blocked]) {
      let ok: boolean;
      try {
        ok = b.satisfied(v);
      } catch (e) {
        // A bug in judging a request: answer it with what there is rather than leave it parked.
        this.#o.onPlanError(e as Error);
        ok = true;
      }
      if (ok) b.settle(v);
    }
  }

  /**
   * LL-HLS: fetch the preload-hinted part and the newest listed ones into the cache, each once
   * (the origin streams a hinted part while producing it; receivers read it while it arrives).
   */
  #prefetchParts(view: ManifestView): void {
    const ll = view.lowLatency;
    if (ll === undefined || view.kind !== 'hls-media') return;
    const cache = this.#o.cache;
    for (const path of ll.partPaths.slice(0, this.#o.prefetchParts + 1)) {
      const key = this.#cacheKey(path);
      if (cache.has(key) || cache.droppedWithin(key, Math.max(1000, ll.partSeconds * 1000 * 4))) continue;
      const entry = cache.create(key);
      this.#prefetching.add(entry);
      this.#o.origin.fetchInto(path, entry, { priority: 'prefetch', group: this.key, deadlineMs: this.deadlineMs(ll.partSeconds) });
      const settled = (): void => {
        this.#prefetching.delete(entry);
      };
      entry.whenComplete().then(settled, settled);
    }
  }

  /** Average size of recent segments, or undefined before the first one arrived. */
  segmentBytes(): number | undefined {
    // s_seg is what one segment period costs the backhaul: every track's segment (DASH video +
    // audio) is fetched within l_seg, so the per-track means add up.
    if (this.#sizes.size === 0) return undefined;
    let sum = 0;
    for (const list of this.#sizes.values()) sum += list.reduce((a, b) => a + b, 0) / list.length;
    return sum;
  }

  /** The segment a request path (without query) names, if it is in the current window. */
  segmentFor(barePath: string): SegmentRef | undefined {
    return this.#byPath.get(barePath);
  }

  /** A receiver asked for this segment: record progress and keep the lead. */
  noteRequest(seg: SegmentRef): void {
    this.lastActivityMs = this.#o.now();
    const m = this.#mostAdvanced.get(seg.track);
    if (m === undefined || seg.id > m) {
      this.#mostAdvanced.set(seg.track, seg.id);
      this.plan();
    }
  }

  noteSize(track: string, bytes: number): void {
    let list = this.#sizes.get(track);
    if (list === undefined) this.#sizes.set(track, (list = []));
    list.push(bytes);
    if (list.length > 8) list.shift();
    for (const w of this.#sizeWaiters.splice(0)) w();
  }

  /**
   * The segment size for the model before any segment completed: the Content-Length of the
   * first segment fetch (which the first manifest request started) — one backhaul RTT, not a
   * whole segment. Undefined after timeoutMs.
   */
  async firstSegmentBytes(timeoutMs: number): Promise<number | undefined> {
    if (this.#sizes.size > 0) return this.segmentBytes();
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, timerMs(timeoutMs));
      t.unref();
      this.#sizeWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
    return this.segmentBytes();
  }

  /**
   * How to fetch a segment a receiver is or will at once be waiting for while the edge has no lead
   * on it: as maxParallel concurrent byte ranges, sized from the track's measured segments or
   * (HLS, before any) the advertised bitrate. Undefined when the size cannot be estimated.
   */
  splitFor(s: SegmentRef): SplitFetch | undefined {
    if (this.#o.maxParallel < 2) return undefined;
    const sizes = this.#sizes.get(s.track);
    let approxBytes = sizes === undefined || sizes.length === 0 ? undefined : sizes.reduce((a, b) => a + b, 0) / sizes.length;
    if (approxBytes === undefined && this.#current?.view.kind === 'hls-media') {
      const bps = this.#o.bitrateHint();
      if (bps !== undefined) approxBytes = (bps * s.durationSeconds) / 8;
    }
    return approxBytes === undefined ? undefined : { parts: this.#o.maxParallel, approxBytes };
  }

  /** Ask the core planner what to fetch now and start those fetches. A bug here is reported, not thrown. */
  plan(): void {
    try {
      this.#plan();
    } catch (e) {
      this.#o.onPlanError(e as Error);
    }
  }

  #plan(): void {
    const v = this.#current;
    if (v === undefined || this.#closed) return;
    const now = this.#o.now();
    const segs = v.view.segments(now);
    const byTrack = new Map<string, SegmentRef[]>();
    const byPath = new Map<string, SegmentRef>();
    for (const s of segs) {
      byPath.set(barePath(s.path), s);
      let t = byTrack.get(s.track);
      if (t === undefined) byTrack.set(s.track, (t = []));
      t.push(s);
    }
    const added: string[] = [];
    const removed: string[] = [];
    for (const p of byPath.keys()) if (!this.#byPath.has(p)) added.push(p);
    for (const p of this.#byPath.keys()) if (!byPath.has(p)) removed.push(p);
    this.#byPath = byPath;
    if (added.length > 0 || removed.length > 0) this.#o.onWindow(added, removed);
    const x = this.#o.hold();
    let lead: number | undefined;
    for (const [track, list] of byTrack) {
      const cached = new Set<number>();
      const inFlight = new Set<number>();
      const most = this.#mostAdvanced.get(track);
      for (const s of list) {
        const e = this.#o.cache.peek(this.#cacheKey(s.path));
        if (e === undefined) continue;
        // Held segments no receiver asked for yet are evicted last (see SegmentCache.admit).
        e.wanted = most === undefined || s.id > most;
        if (e.state === 'complete') cached.add(s.id);
        else inFlight.add(s.id);
      }
      const byId = new Map(list.map((s) => [s.id, s] as const));
      const deadlines = this.#deadlines(track, byId, x, now);
      const plan = planPrefetch({
        produced: list.map((s) => s.id),
        mostAdvanced: most,
        cached,
        inFlight,
        inFlightCount: inFlight.size,
        hold: x,
        // x connections for the held segments plus one for the segment a receiver waits for
        // (paper III-B), within the operator's cap.
        maxParallel: Math.min(Math.max(1, x), this.#o.maxParallel) + 1,
        // Beyond that, up to the operator's cap, for a segment that would miss its deadline
        // waiting for a slot: an earlier start costs no latency, a larger x costs l_seg.
        burstParallel: this.#o.maxParallel + 1,
        ...(deadlines === undefined ? {} : { deadlines }),
      });
      if (plan.burst !== undefined) this.#o.onBurst(plan.burst);
      const splits = new Map((plan.split ?? []).map((d) => [d.id, d.ranges] as const));
      for (const [i, id] of plan.fetch.entries()) {
        const s = byId.get(id);
        if (s === undefined) continue;
        // Before any receiver request the first one is where a new player starts: it will be
        // waited for at once, so it comes as parallel ranges; so does a held segment whose
        // single-flow fetch would miss the moment it becomes visible (deadline-aware plan).
        const ranges = splits.get(id);
        const approx = this.#approxBytes(s.track);
        this.prefetch(s, most === undefined && i === 0 ? this.splitFor(s) : ranges !== undefined && approx !== undefined ? { parts: ranges, approxBytes: approx } : undefined);
      }
      // Said once per segment (the plan is made every tick): the newest segment reported per track.
      for (const l of plan.late ?? []) {
        if (l.tolerated !== true || l.id <= (this.#toleratedUpTo.get(track) ?? -1)) continue;
        this.#toleratedUpTo.set(track, l.id);
        this.#o.onTolerated(describeMiss(l));
      }
      // A fetch that misses its deadline whatever the plan does: x is too small for this backhaul.
      if (plan.needsHold !== undefined) this.#o.onNeedsHold(plan.needsHold, `a held segment's fetch misses its deadline (${(plan.late ?? []).map(describeMiss).join(', ')})`);
      if (most !== undefined) {
        let l = 0;
        while (cached.has(most + l + 1)) l += 1;
        lead = lead === undefined ? l : Math.min(lead, l);
      }
    }
    if (lead !== undefined) this.#o.onLead(lead);
  }

  /** How long one fetch of a segment of this duration may take (ms). */
  deadlineMs(durationSeconds: number): number {
    return fetchDeadlineMs(durationSeconds, this.#o.minFetchDeadlineMs);
  }

  /**
   * Fetch one segment into the cache at prefetch priority, unless it is there or on its way —
   * or it left the cache less than a segment period ago (evicted, bypassed, failed: fetching it
   * again at the planner's pace is how prefetch and eviction fed each other), or it would not fit
   * without evicting segments receivers still need.
   */
  prefetch(s: SegmentRef, split?: SplitFetch): void {
    const key = this.#cacheKey(s.path);
    const cache = this.#o.cache;
    if (cache.has(key) || cache.droppedWithin(key, Math.max(1000, s.durationSeconds * 1000))) return;
    const size = this.#approxBytes(s.track);
    // Prefetches started but not admitted yet will take room too: planned in one tick, each
    // would otherwise see the same free space, and all but one would be dropped at their headers.
    let pending = 0;
    for (const e of this.#prefetching) if (!e.admitted && e.state === 'pending') pending += size ?? 0;
    if (size !== undefined && !cache.hasRoom(size + pending)) {
      if (!this.#budgetWarned) {
        this.#budgetWarned = true;
        this.#o.onWarning('cache too small for what the planner wants: prefetching less', { segmentBytes: Math.round(size), cacheBytes: cache.bytes, maxBytes: cache.maxBytes });
      }
      return;
    }
    this.#budgetWarned = false;
    const entry = cache.create(key);
    entry.wanted = true;
    this.#prefetching.add(entry);
    this.#o.origin.fetchInto(s.path, entry, { priority: 'prefetch', group: this.key, deadlineMs: this.deadlineMs(s.durationSeconds), ...(split === undefined ? {} : { split }) });
    const settled = (): void => {
      this.#prefetching.delete(entry);
    };
    entry.whenComplete().then(settled, settled);
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

  /**
   * Deadline inputs for the planner (issue 19): a held segment must be whole at the edge when it
   * becomes visible to the hold-x group — its production time plus x segment lengths. Needs a
   * measured per-flow backhaul rate, a size estimate and production times (HLS PDT, DASH
   * availability); without any of them the plan is the plain one.
   */
  #deadlines(track: string, byId: Map<number, SegmentRef>, x: number, nowWall: number): PrefetchDeadlines | undefined {
    const flowMbps = this.#o.flowMbps();
    const bytes = this.#approxBytes(track);
    if (flowMbps === undefined || bytes === undefined || x < 1) return undefined;
    const cache = this.#o.cache;
    const rtt = this.#o.rttMs();
    // The newest segment's length: what a raise of x would cost the receivers.
    let segmentSeconds: number | undefined;
    for (const s of byId.values()) segmentSeconds = s.durationSeconds;
    return {
      nowMs: nowWall,
      flowBps: flowMbps * 1e6,
      segmentBytes: () => bytes,
      deadlineMs: (id) => {
        const s = byId.get(id);
        return s?.availableAtMs === undefined ? undefined : segmentDeadlineMs(s.availableAtMs, x, s.durationSeconds);
      },
      // A miss that only starting late explains (a backlog) does not raise x: see planDeadlines.
      producedAtMs: (id) => byId.get(id)?.availableAtMs,
      receivedBytes: (id) => {
        const s = byId.get(id);
        return s === undefined ? undefined : cache.peek(this.#cacheKey(s.path))?.bytes;
      },
      // The entry is made when its fetch starts (the cache's coarse wall clock, ms steps).
      fetchElapsedMs: (id) => {
        const s = byId.get(id);
        const e = s === undefined ? undefined : cache.peek(this.#cacheKey(s.path));
        return e === undefined ? undefined : nowWall - e.createdAt;
      },
      recentBps: (id) => {
        const s = byId.get(id);
        const e = s === undefined ? undefined : cache.peek(this.#cacheKey(s.path));
        return e === undefined ? undefined : this.#recentBps(e, nowWall);
      },
      ...(rtt === undefined ? {} : { firstByteMs: rtt }),
      maxSplit: Math.max(1, this.#o.maxParallel),
      ...(segmentSeconds === undefined ? {} : { toleranceMs: MISS_TOLERANCE_SEGMENTS * segmentSeconds * 1000 }),
    };
  }

  /**
   * An in-flight entry's rate since the planner last looked at it (at least RECENT_WINDOW_MS
   * ago), bits/s; undefined on the first look. Kept in a WeakMap on the entry: it goes with it.
   */
  #recentBps(e: CacheEntry, nowMs: number): number | undefined {
    const p = this.#progress.get(e);
    if (p === undefined) {
      this.#progress.set(e, { atMs: nowMs, bytes: e.bytes, bps: undefined });
      return undefined;
    }
    if (nowMs - p.atMs >= RECENT_WINDOW_MS) {
      p.bps = ((e.bytes - p.bytes) * 8 * 1000) / (nowMs - p.atMs);
      p.atMs = nowMs;
      p.bytes = e.bytes;
    }
    return p.bps;
  }

  readonly #progress = new WeakMap<CacheEntry, { atMs: number; bytes: number; bps: number | undefined }>();
  /** Per track (a stream has a few), the newest segment whose tolerated miss was reported. */
  readonly #toleratedUpTo = new Map<string, number>();

  #approxBytes(track: string): number | undefined {
    const sizes = this.#sizes.get(track);
    return sizes === undefined || sizes.length === 0 ? undefined : sizes.reduce((a, b) => a + b, 0) / sizes.length;
  }

  #cacheKey(path: string): string {
    return `${this.#o.origin.name}${path}`;
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#held.clear();
    this.#heldParts.clear();
    for (const b of [...this.#blocked]) b.settle(undefined);
    this.#o.onWindow([], [...this.#byPath.keys()]);
    this.#byPath = new Map();
    this.#pollAbort?.abort('stream closed');
    // Prefetches nobody reads any more are not worth the backhaul.
    for (const e of this.#prefetching) if (e.readers === 0) e.abort.abort('stream closed');
    this.#prefetching.clear();
    for (const w of this.#sizeWaiters.splice(0)) w();
  }

  #pollAbort: AbortController | undefined;

  #poll(): Promise<void> {
    if (this.#polling !== undefined) return this.#polling;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#polling = this.#pollOnce().finally(() => {
      this.#polling = undefined;
      try {
        this.#schedule();
      } catch (e) {
        // A bug in reading the view's cadence must not stop the stream (nor escape as a
        // rejection nobody awaits): reported, and the next poll comes at the slowest pace.
        this.#o.onPlanError(e as Error);
        this.#after(MAX_BACKOFF_MS, () => void this.#poll());
      }
    });
    return this.#polling;
  }

  async #pollOnce(): Promise<void> {
    this.#lastPollAt = Date.now();
    this.#pollAbort = new AbortController();
    try {
      // LL-HLS: a blocking reload for the part the origin lists next — the stream's one poll, answered
      // as soon as that part is out; receivers' own blocking reloads never reach the origin.
      const next = this.#failures === 0 ? this.#current?.view.lowLatency?.nextPart : undefined;
      const ask = next === undefined ? this.path : `${this.path}${this.path.includes('?') ? '&' : '?'}_HLS_msn=${next.msn}&_HLS_part=${next.part}`;
      const { text, path, headers } = await this.#o.origin.fetchText(ask, AbortSignal.any([this.#pollAbort.signal, AbortSignal.timeout(timerMs(this.#o.minFetchDeadlineMs))]), { blocking: next !== undefined });
      if (this.#closed) return;
      // An upstream that is itself a holding edge: holding here as well would hold twice.
      const upstreamHold = Number(headers[ETHLE_HEADERS.holdSegments] ?? 0);
      if (upstreamHold > 0 && !this.upstreamHolds) this.#o.onWarning('the origin is an edge that already holds: this stream is served unheld here (never hold twice; make the upstream a parent)', { upstreamHold });
      this.upstreamHolds = upstreamHold > 0;
      const upstreamRtt = Number(headers[ETHLE_HEADERS.upstreamRtt]);
      this.#o.origin.upstreamRttMs = headers[ETHLE_HEADERS.upstreamRtt] !== undefined && Number.isFinite(upstreamRtt) && upstreamRtt >= 0 && upstreamRtt < 60_000 ? upstreamRtt : undefined;
      this.#unchanged = this.#current !== undefined && this.#current.text === text;
      if (this.#current !== undefined && this.#current.text === text) {
        this.#current.fetchedAtMs = this.#o.now();
      } else {
        let view: ManifestView;
        try {
          view = loadManifest(text, {
            manifestUrl: this.#o.origin.absolute(path),
            originBase: this.#o.origin.url,
            routing: 'edge',
            edgePathPrefix: this.#o.edgePathPrefix,
            nowMs: Date.now(),
            // Only the carried state (bounded HLS history), never the previous view itself: a
            // view that referenced its predecessor kept every version of the stream alive.
            previousCarry: this.#current?.view.carry,
          });
        } catch (e) {
          throw new EdgeError('ERR_EDGE_MANIFEST_UNPARSABLE', `origin manifest ${this.path} cannot be parsed: ${(e as Error).message}`, { path: this.path }, { cause: e });
        }
        const before = this.#current?.view.firstId;
        if (before !== undefined && view.firstId !== undefined && view.firstId < before) {
          this.#o.onWarning('origin manifest went backwards (media sequence / first segment decreased)', { path: this.path, from: before, to: view.firstId });
          // Ids start over: the reported-up-to marks would silence every later report.
          this.#toleratedUpTo.clear();
        }
        if (view.leftAbsolute.length > 0 && (this.#current === undefined || this.#current.view.leftAbsolute.length !== view.leftAbsolute.length)) {
          this.#o.onWarning('manifest URIs on another host stay absolute: players fetch them past the edge', { count: view.leftAbsolute.length, first: view.leftAbsolute.slice(0, 3) });
        }
        this.#current = { view, text, n: ++this.#versionN, fetchedAtMs: this.#o.now() };
        this.#held.clear();
        this.#heldParts.clear();
        this.#o.onVersion(view);
        this.#prefetchParts(view);
        this.#wake(this.#current);
      }
      this.#lastError = undefined;
      this.#failures = 0;
    } catch (e) {
      const err = isEdgeError(e) ? e : new EdgeError('ERR_EDGE_ORIGIN_UNREACHABLE', String(e));
      this.#lastError = err;
      this.#failures += 1;
      if (err.code !== 'ERR_EDGE_CLOSED' && !this.#closed) this.#o.onManifestError(err);
      return;
    } finally {
      this.#pollAbort = undefined;
    }
    // Outside the fetch's try: a planning bug must not look like an origin outage.
    this.plan();
  }

  #schedule(): void {
    if (this.#closed) return;
    const view = this.#current?.view;
    // LL-HLS with a blocking origin: the next blocking poll at once (it waits at the origin).
    // An unchanged answer means the origin did not block: back to the timed cadence, never a spin.
    if (this.#failures === 0 && !this.#unchanged && view?.lowLatency?.nextPart !== undefined) {
      this.#after(0, () => void this.#poll());
      return;
    }
    const base = Math.max(MIN_POLL_MS, view?.pollIntervalMs ?? 1000);
    if (this.#failures > 0) {
      // Back off on failures (doubling), but never past one segment duration once the stream has
      // had a version: receivers are waiting on it, and the edge must be back within a segment of
      // the origin (one poll per stream per segment is no load). A stream that never had a
      // manifest backs off to MAX_BACKOFF_MS.
      const cap = view !== undefined && view.segmentSeconds > 0 ? Math.min(MAX_BACKOFF_MS, Math.max(MIN_POLL_MS, view.segmentSeconds * 1000)) : MAX_BACKOFF_MS;
      this.#after(Math.min(cap, base * 2 ** Math.min(this.#failures, 6)), () => void this.#poll());
      return;
    }
    // DASH $Number$: new segments appear with the clock, not with MPD updates (which may come
    // every minimumUpdatePeriod, possibly much longer): plan every half segment in between polls.
    const planEvery = view === undefined || view.segmentSeconds <= 0 ? base : Math.max(MIN_POLL_MS, view.segmentSeconds * 500);
    const step = Math.min(base, planEvery);
    let pollDue = this.#lastPollAt + base;
    // A dated manifest (HLS PDT) says when the next segment will be listed: poll just after that,
    // and retry briefly if it is not there yet, so holding adds x segments and not x segments plus
    // up to half a target duration of polling lag.
    const due = view?.nextSegmentDueMs === undefined ? undefined : view.nextSegmentDueMs + DUE_SLACK_MS;
    if (due !== undefined) {
      if (due > this.#lastPollAt) pollDue = Math.min(pollDue, due);
      else if (this.#lastPollAt - due < base) pollDue = Math.min(pollDue, this.#lastPollAt + DUE_RETRY_MS);
    }
    const tick = (): void => {
      if (this.#closed) return;
      const now = Date.now();
      if (now >= pollDue - 5) {
        void this.#poll();
        return;
      }
      this.plan();
      this.#after(Math.min(step, pollDue - now), tick);
    };
    this.#after(Math.min(step, pollDue - Date.now()), tick);
  }

  /** The stream's one timer, its delay through timerMs (a manifest's durations are any float). */
  #after(ms: number, fn: () => void): void {
    this.#timer = setTimeout(fn, timerMs(ms));
    this.#timer.unref();
  }

}

/** A path without its query (segment index key). */
export function barePath(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}
