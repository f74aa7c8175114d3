import {
  barePath,
  chooseRadioEstimate,
  ETHLE_EXPOSED_HEADERS,
  ETHLE_HEADERS,
  HOLD_POLICY_DEFAULTS,
  createHoldPolicy,
  isManifestPath,
  loadManifest,
  planPrefetch,
  prefetchRetryMs,
  STREAM_DEFAULTS,
  StreamProgress,
  streamIdentity,
  type HoldPolicy,
  type ManifestView,
  type SegmentRef,
  type TimelineSnapshot,
} from '@ethle/core';
import { segmentSizePlugin, storablePlugin } from './segmentPlugins.js';
import { SegmentStore, type StoredSegment } from './SegmentStore.js';
import { SwTimeline } from './SwTimeline.js';

export interface SwEdgeConfig {
  /** Origins (scheme://host:port) whose manifests and segments the worker handles. */
  origins: string[];
  /** x, or `auto` from the context the page sends (probe RTT and throughput). */
  hold: number | 'auto';
  /** Page-measured context for `auto`. */
  context?: { rttMs: number; ranMbps: number };
  /** Operator cap on x (and parallel fetches). Default: the core's HOLD_POLICY_DEFAULTS. */
  maxHold?: number;
  /** Query parameters that name a different stream (the Node edge's `streamQueryParams`). Default: none. */
  streamQueryParams?: string[];
}

/** One playlist the worker follows: the core's per-stream layer, as the Node edge mounts it. */
interface SwStream {
  /** `{origin}{path}{identity params}` (core streamIdentity), as the Node edge keys a stream. */
  key: string;
  /** The origin (scheme://host:port) its segment paths are relative to. */
  origin: string;
  progress: StreamProgress;
  view: ManifestView | undefined;
  /** The x its last manifest response was held by. */
  served: number;
  lastRequestMs: number;
}

export interface FetchRecord {
  url: string;
  reason: 'request' | 'prefetch';
  startedAt: number;
  ms: number;
  bytes: number;
}

/** What the worker reports to pages (postMessage). */
export interface SwEdgeState {
  enabled: boolean;
  /** The x the latest manifest response was held by (one stream: its x). */
  hold: number;
  /** The x each stream's latest manifest response was held by. */
  holds: Record<string, number>;
  /** The playlists the worker follows (keys: origin + path, per-request query left out). */
  streams: string[];
  /** Segment paths of those playlists' current windows: the only URLs the worker answers from its store. */
  known: number;
  lead: Record<string, number>;
  store: { urls: string[]; bytes: number; inFlight: number };
  fetches: FetchRecord[];
  /** Planner failures (a bug, not an origin fault), newest last. */
  errors: string[];
  /** The latest stream's segments, as the Node edge's GET /_ethle/timeline gives them. */
  timeline: TimelineSnapshot;
}

const EXPOSE = `Date, Content-Length, ${ETHLE_EXPOSED_HEADERS}`;
// Not 'date': a stored segment is served long after the origin dated it, and a player (dash.js,
// the QoE probe) that syncs its clock to Date would drift back by the time it sat in the store.
const KEEP_HEADERS = ['content-type', ETHLE_HEADERS.productionStart, ETHLE_HEADERS.productionEnd];
const MAX_FETCH_LOG = 200;
const MAX_ERRORS = 10;

/** Which handler answers a request; undefined: not the worker's (the browser's network does it). */
export type SwRoute = 'manifest' | 'segment' | undefined;

/**
 * The ETHLE edge inside a service worker: the same per-stream layer as the Node edge, from the
 * same core pieces — a stream's identity (streamIdentity), its window, sizes and planner input
 * (StreamProgress), x per stream (HoldPolicy), the plan (planPrefetch), what may be kept
 * (isStorable, as a Workbox plugin) — with the core's defaults. The worker owns only fetch and the
 * store. Manifest URIs are left as the origin wrote them: the worker sees every request of the
 * pages it controls, so nothing needs routing back.
 */
export class SwEdge {
  #config: SwEdgeConfig | undefined;
  readonly store: SegmentStore;
  readonly timeline = new SwTimeline();
  readonly #streams = new Map<string, SwStream>();
  /** `{origin}{segment path without query}` of every followed window → its stream. */
  readonly #index = new Map<string, SwStream>();
  #identityParams: ReadonlySet<string> = new Set();
  #fetches: FetchRecord[] = [];
  #errors: string[] = [];
  #lastServed = 0;
  /** The core's hold policy (createHoldPolicy: fixed or auto), the same one the Node edge mounts; rebuilt on configure(). */
  #policy: HoldPolicy | undefined;
  readonly #now: () => number;

  constructor(
    private readonly fetchFn: typeof fetch,
    o: { now?: () => number; maxStoreBytes?: number } = {},
  ) {
    this.#now = o.now ?? Date.now;
    this.store = new SegmentStore({ now: this.#now, ...(o.maxStoreBytes === undefined ? {} : { maxBytes: o.maxStoreBytes }) });
  }

  configure(c: SwEdgeConfig | undefined): void {
    this.#config = c;
    this.#identityParams = new Set(c?.streamQueryParams ?? STREAM_DEFAULTS.streamQueryParams);
    this.#policy =
      c === undefined
        ? undefined
        : createHoldPolicy({
            hold: c.hold,
            maxHold: c.maxHold ?? HOLD_POLICY_DEFAULTS.maxHold,
            initialWindow: HOLD_POLICY_DEFAULTS.initialWindow,
            defaultRanMbps: c.context?.ranMbps ?? HOLD_POLICY_DEFAULTS.defaultRanMbps,
            // The page is the receiver: a worker cannot send it elsewhere, it can only not hold.
            ranFailAction: 'pass-through',
          });
  }

  /** Does the worker handle this origin? (Only configured origins; never an open proxy.) */
  handles(url: URL): boolean {
    return this.#config !== undefined && this.#config.origins.includes(url.origin);
  }

  /**
   * Manifests of the configured origins, and the segments those manifests list. Nothing else: an
   * origin's other paths (dash.js's UTCTiming `/time`, init segments, stats) are not segments and
   * must not be stored or replayed.
   */
  route(url: URL): SwRoute {
    if (!this.handles(url)) return undefined;
    if (isManifestPath(url.pathname)) return 'manifest';
    return this.#index.has(url.origin + url.pathname) ? 'segment' : undefined;
  }

  /**
   * The x the page is served for this stream: the core's HoldPolicy with the page's measured
   * context (probe RTT and throughput) and this stream's own segment sizes — the same decision the
   * Node edge makes for the same inputs.
   */
  #serve(stream: SwStream, view: ManifestView, nowMs: number): number {
    const policy = this.#policy!;
    const segmentBytes = stream.progress.segmentBytesEstimate(view.bitrateHintBps, view.segmentSeconds, nowMs);
    const ctx = {
      stream: stream.key,
      origin: stream.origin,
      segmentBytes,
      segmentSeconds: view.segmentSeconds,
      rttMs: this.#config?.context?.rttMs,
    };
    // The page's own measured throughput is the worker's only radio figure (its default estimate).
    const radio = chooseRadioEstimate({
      segmentBytes: segmentBytes ?? 1,
      segmentsDownloaded: 0,
      defaultBps: policy.config.defaultRanMbps * 1e6,
    });
    const d = policy.receiver(ctx, 'page', radio, nowMs);
    return d === undefined ? policy.streamHold(stream.key) : d.kind === 'hold' ? d.x : 0;
  }

  async manifest(request: Request): Promise<Response> {
    const origin = await this.fetchFn(request.url, { mode: 'cors', cache: 'no-store' });
    if (!origin.ok) return origin;
    const text = await origin.text();
    const url = new URL(request.url);
    // Players add per-request query data (CMCD, LL-HLS delivery directives): one stream per playlist, not per request.
    const key = url.origin + streamIdentity(url.pathname, url.search.slice(1), this.#identityParams);
    const now = this.#now();
    this.#sweep(now);
    let stream = this.#streams.get(key);
    // The core's loader, as the Node edge uses it; URIs stay as the origin wrote them (the worker
    // sees every request of its pages). A version it cannot parse is passed through untouched.
    let view: ManifestView;
    try {
      view = loadManifest(text, {
        manifestUrl: key,
        originBase: url.origin,
        routing: 'none',
        edgePathPrefix: '',
        nowMs: now,
        previousCarry: stream?.view?.carry,
      });
    } catch {
      return this.#respond(text, origin, 0, 0);
    }
    if (view.kind === 'hls-multivariant') return this.#respond(text, origin, 0, 0);
    stream ??= { key, origin: url.origin, progress: new StreamProgress(), view: undefined, served: 0, lastRequestMs: now };
    this.#streams.set(key, stream);
    stream.view = view;
    stream.progress.setLadder(view.ladder);
    stream.lastRequestMs = now;
    const segments = view.segments(now);
    const { added, removed } = stream.progress.setWindow(segments);
    for (const p of removed) if (this.#index.get(url.origin + p) === stream) this.#index.delete(url.origin + p);
    for (const p of added) this.#index.set(url.origin + p, stream);
    this.timeline.listed(
      key,
      segments.map((s) => ({ url: url.origin + s.path, path: barePath(s.path), track: s.track, id: s.id, durationS: s.durationSeconds })),
      now,
    );
    const x = this.#serve(stream, view, now);
    stream.served = x;
    this.#lastServed = x;
    const held = view.hold(x, undefined, now);
    this.#plan(stream);
    return this.#respond(held.text, origin, held.holdSegments, held.holdSeconds, held.lowLatencyLostSeconds);
  }

  /** Answers a segment of a known manifest (see route()) from the store, fetching it once. */
  async segment(request: Request): Promise<Response> {
    const u = new URL(request.url);
    const stream = this.#index.get(u.origin + u.pathname);
    const seg = stream?.progress.segmentFor(u.pathname);
    if (stream === undefined || seg === undefined) return this.fetchFn(request); // not (or no longer) a listed segment: not ours to store
    stream.lastRequestMs = this.#now();
    if (stream.progress.noteRequest(seg, stream.lastRequestMs)) this.#plan(stream);
    // Any query a player adds (CMCD, a cache buster) names the same segment: the listed URL, fetched once.
    const url = stream.origin + seg.path;
    this.timeline.requested(
      url,
      this.#local(stream, seg) === 'complete' ? 'hit' : this.#local(stream, seg) === 'pending' ? 'coalesced' : 'miss',
      this.#now(),
    );
    let s: StoredSegment;
    try {
      s = await this.store.load(url, () => this.#fetchSegment(url, 'request', stream, seg));
    } catch (e) {
      if (e instanceof Response) return e; // the origin's own error response, passed through
      throw e;
    }
    // No Date: see KEEP_HEADERS.
    const headers = new Headers(s.headers);
    headers.set('access-control-expose-headers', EXPOSE);
    headers.set(ETHLE_HEADERS.cache, 'sw');
    return new Response(s.body.slice(0), { status: 200, headers });
  }

  /**
   * Prefetch what the core planner says, per track: the stream's x ahead of the most advanced
   * request (the stream's x also for a page served 0, as the Node edge keeps it). Planned again
   * when a fetch completes. A planner failure is a bug: kept for the page's state, never thrown
   * into a response.
   */
  #plan(stream: SwStream): void {
    try {
      const policy = this.#policy;
      if (policy === undefined || this.#streams.get(stream.key) !== stream) return;
      const limits = { hold: policy.streamHold(stream.key), startHold: policy.startHold(stream.key), maxHold: policy.config.maxHold };
      // On a DASH ladder, per adaptation set only what the page plays (core RenditionLadder).
      for (const track of stream.progress.plannedTracks(this.#now())) {
        const input = stream.progress.plannerInput(track, (s) => this.#local(stream, s), limits);
        for (const id of planPrefetch(input).fetch) {
          const s = stream.progress.segment(track, id)!;
          const url = stream.origin + s.path;
          if (this.store.droppedWithin(url, prefetchRetryMs(s))) continue;
          void this.store
            .load(url, () => this.#fetchSegment(url, 'prefetch', stream, s))
            .then(
              () => this.#plan(stream),
              () => undefined, // in the fetch log; the planner retries after prefetchRetryMs
            );
        }
      }
    } catch (e) {
      this.#errors.push(String(e));
      if (this.#errors.length > MAX_ERRORS) this.#errors.shift();
    }
  }

  state(): SwEdgeState {
    const lead: Record<string, number> = {};
    const holds: Record<string, number> = {};
    for (const [key, s] of this.#streams) {
      holds[key] = s.served;
      for (const track of s.progress.tracks()) {
        const l = s.progress.trackLead(track, { has: (id) => this.#local(s, s.progress.segment(track, id)) === 'complete' });
        if (l !== undefined) lead[`${key} ${track}`] = l;
      }
    }
    return {
      enabled: this.#config !== undefined,
      hold: this.#lastServed,
      holds,
      streams: [...this.#streams.keys()],
      known: this.#index.size,
      lead,
      store: { urls: this.store.urls(), bytes: this.store.bytes, inFlight: this.store.inFlightCount },
      fetches: this.#fetches.slice(-50),
      errors: [...this.#errors],
      timeline: this.timeline.snapshot(this.#lastServed, this.#now()),
    };
  }

  #local(stream: SwStream, s: SegmentRef | undefined): 'complete' | 'pending' | undefined {
    if (s === undefined) return undefined;
    const url = stream.origin + s.path;
    return this.store.get(url) !== undefined ? 'complete' : this.store.pending(url) !== undefined ? 'pending' : undefined;
  }

  /** One origin fetch of a listed segment, through the plugins that note its size and say whether it may be kept. */
  async #fetchSegment(url: string, reason: FetchRecord['reason'], stream: SwStream, seg: SegmentRef): Promise<StoredSegment> {
    const startedAt = this.#now();
    const t0 = performance.now();
    this.timeline.fetchStarted(url, reason === 'prefetch' ? 'prefetch' : 'segment', startedAt);
    const request = new Request(url, { mode: 'cors' });
    let response: Response;
    let keep: boolean;
    let body: ArrayBuffer;
    try {
      response = await this.fetchFn(request);
      if (!response.ok) throw response;
      response = await segmentSizePlugin(stream.progress.sizes, seg.track).fetchDidSucceed({ request, response });
      keep = (await storablePlugin.cacheWillUpdate({ request, response })) !== null;
      body = await response.arrayBuffer();
    } catch (e) {
      this.timeline.fetchEnded(url, e instanceof Response ? `status ${e.status}` : 'failed', this.#now(), { start: null, end: null });
      throw e;
    }
    const ms = performance.now() - t0;
    this.timeline.fetchEnded(url, 'ok', this.#now(), {
      start: response.headers.get(ETHLE_HEADERS.productionStart),
      end: response.headers.get(ETHLE_HEADERS.productionEnd),
    });
    this.#fetches.push({ url, reason, startedAt, ms, bytes: body.byteLength });
    if (this.#fetches.length > MAX_FETCH_LOG) this.#fetches.splice(0, MAX_FETCH_LOG / 2);
    const headers: [string, string][] = [];
    for (const h of KEEP_HEADERS) {
      const v = response.headers.get(h);
      if (v !== null) headers.push([h, v]);
    }
    return { body, headers, fetchMs: ms, keep };
  }

  /** Streams nobody asked anything of for STREAM_DEFAULTS.idleMs go, with their x and window. */
  #sweep(nowMs: number): void {
    for (const s of this.#streams.values()) {
      if (nowMs - s.lastRequestMs <= STREAM_DEFAULTS.idleMs) continue;
      this.#streams.delete(s.key);
      this.#policy?.forgetStream(s.key);
      for (const p of s.progress.paths()) if (this.#index.get(s.origin + p) === s) this.#index.delete(s.origin + p);
    }
  }

  #respond(text: string, origin: Response, segments: number, seconds: number, lowLatencyLost?: number): Response {
    const headers = new Headers({
      'content-type': origin.headers.get('content-type') ?? 'text/plain',
      'cache-control': 'no-store',
      [ETHLE_HEADERS.holdSegments]: String(segments),
      [ETHLE_HEADERS.holdSeconds]: String(seconds),
      'access-control-expose-headers': EXPOSE,
    });
    // LL-HLS held in whole segments: the players' fallback, included in the hold seconds (as the Node edge says it).
    if (lowLatencyLost !== undefined) headers.set(ETHLE_HEADERS.lowLatencyLost, String(lowLatencyLost));
    const date = origin.headers.get('date');
    if (date) headers.set('date', date);
    return new Response(text, { status: 200, headers });
  }
}
