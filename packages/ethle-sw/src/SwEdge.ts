import { chooseRadioEstimate, ETHLE_EXPOSED_HEADERS, ETHLE_HEADERS, HoldPolicy, loadManifest, planPrefetch, type ManifestView } from '@ethle/core';
import type { TimelineSnapshot } from '@ethle/core';
import { SegmentStore, type StoredSegment } from './SegmentStore.js';
import { SwTimeline } from './SwTimeline.js';

export interface SwEdgeConfig {
  /** Origins (scheme://host:port) whose manifests and segments the worker handles. */
  origins: string[];
  /** x, or `auto` from the context the page sends (probe RTT and throughput). */
  hold: number | 'auto';
  /** Page-measured context for `auto`. */
  context?: { rttMs: number; ranMbps: number };
  /** Operator cap on x (and parallel fetches). */
  maxHold?: number;
}

interface Stream {
  key: string;
  origin: string;
  /** The segment URLs of the latest view that this stream put in the worker's index. */
  urls: Set<string>;
  view: ManifestView | undefined;
  /** track → produced ids (ascending) and their URLs (DASH tracks are period/representation). */
  tracks: Map<string, { ids: number[]; url: Map<number, string> }>;
  mostAdvanced: Map<string, number>;
  /**
   * Sizes of this stream's fetched segments per track (bytes, newest last): s_seg is what one
   * segment period costs the backhaul, the per-track means added up (DASH video + audio), as at
   * the Node edge.
   */
  sizes: Map<string, number[]>;
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
  hold: number;
  /** The playlists the worker follows (keys: URL without per-request query). */
  streams: string[];
  /** Segment URLs of those playlists' current views: the only URLs the worker answers from its store. */
  known: number;
  lead: Record<string, number>;
  store: { urls: string[]; bytes: number; inFlight: number };
  fetches: FetchRecord[];
  /** The latest stream's segments, as the Node edge's GET /_ethle/timeline gives them. */
  timeline: TimelineSnapshot;
}

const EXPOSE = `Date, Content-Length, ${ETHLE_EXPOSED_HEADERS}`;
// Not 'date': a stored segment is served long after the origin dated it, and a player (dash.js,
// the QoE probe) that syncs its clock to Date would drift back by the time it sat in the store.
const KEEP_HEADERS = ['content-type', ETHLE_HEADERS.productionStart, ETHLE_HEADERS.productionEnd];
const MANIFEST_RE = /\.(m3u8|mpd)$/;
const NO_STORE_RE = /(^|[\s,])no-store([\s,;]|$)/i;

/** Which handler answers a request; undefined: not the worker's (the browser's network does it). */
export type SwRoute = 'manifest' | 'segment' | undefined;

/**
 * The ETHLE edge inside a service worker: the same decisions as the Node edge, from the same core
 * functions (holdMediaPlaylist / holdMpd, planPrefetch, modelHold); the worker owns only fetch and
 * the store. Manifest URIs are left as the origin wrote them: the worker sees every request of the
 * pages it controls, so nothing needs routing back.
 */
export class SwEdge {
  #config: SwEdgeConfig | undefined;
  readonly store = new SegmentStore();
  readonly timeline = new SwTimeline();
  #streams = new Map<string, Stream>();
  #byUrl = new Map<string, { stream: Stream; track: string; id: number }>();
  #fetches: FetchRecord[] = [];
  #x = 0;
  /** The core's hold policy, the same one the Node edge mounts; rebuilt on configure(). */
  #policy: HoldPolicy | undefined;

  constructor(private readonly fetchFn: typeof fetch) {}

  configure(c: SwEdgeConfig | undefined): void {
    this.#config = c;
    this.#policy =
      c === undefined
        ? undefined
        : new HoldPolicy({
            hold: c.hold,
            maxHold: c.maxHold ?? 4,
            initialWindow: 10,
            defaultRanMbps: c.context?.ranMbps ?? 100,
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
    if (MANIFEST_RE.test(url.pathname)) return 'manifest';
    return this.#byUrl.has(withoutCmcd(url.href)) ? 'segment' : undefined;
  }

  /**
   * x for the page's stream, from the core's HoldPolicy with the page's measured context (probe
   * RTT and throughput) and this stream's own segment sizes — the same decision the Node edge
   * makes for the same inputs.
   */
  hold(stream: Stream, nowMs: number): number {
    const policy = this.#policy!;
    const view = stream.view;
    if (view === undefined) return policy.streamHold(stream.key);
    let measured: number | undefined;
    for (const list of stream.sizes.values()) measured = (measured ?? 0) + list.reduce((a, b) => a + b, 0) / list.length;
    const hinted = view.bitrateHintBps === undefined ? undefined : (view.bitrateHintBps * view.segmentSeconds) / 8;
    const ctx = { stream: stream.key, origin: stream.origin, segmentBytes: measured ?? hinted, segmentSeconds: view.segmentSeconds, rttMs: this.#config?.context?.rttMs };
    // The page's own measured throughput is the worker's only radio figure (its default estimate).
    const radio = chooseRadioEstimate({ segmentBytes: ctx.segmentBytes ?? 1, segmentsDownloaded: 0, defaultBps: (this.#config?.context?.ranMbps ?? policy.config.defaultRanMbps) * 1e6 });
    const d = policy.receiver(ctx, 'page', radio, nowMs);
    return d === undefined ? policy.streamHold(stream.key) : d.kind === 'hold' ? d.x : 0;
  }

  async manifest(request: Request): Promise<Response> {
    const origin = await this.fetchFn(request.url, { mode: 'cors', cache: 'no-store' });
    if (!origin.ok) return origin;
    const text = await origin.text();
    // Players add per-request query data (CMCD, LL-HLS delivery directives): one stream per playlist, not per request.
    const key = playlistKey(request.url);
    const originBase = new URL(key).origin;
    const now = Date.now();
    let stream = this.#streams.get(key);
    // The core's loader, as the Node edge uses it; URIs stay as the origin wrote them (the worker
    // sees every request of its pages). A version it cannot parse is passed through untouched.
    let view: ManifestView;
    try {
      view = loadManifest(text, { manifestUrl: key, originBase, routing: 'none', edgePathPrefix: '', nowMs: now, previousCarry: stream?.view?.carry });
    } catch {
      return this.#respond(text, origin, 0, 0);
    }
    if (view.kind === 'hls-multivariant') return this.#respond(text, origin, 0, 0);
    stream ??= { key, origin: originBase, urls: new Set(), view: undefined, tracks: new Map(), mostAdvanced: new Map(), sizes: new Map() };
    stream.view = view;
    stream.tracks.clear();
    const listed: Parameters<SwTimeline['listed']>[1] = [];
    for (const seg of view.segments(now)) {
      let t = stream.tracks.get(seg.track);
      if (!t) stream.tracks.set(seg.track, (t = { ids: [], url: new Map() }));
      t.ids.push(seg.id);
      t.url.set(seg.id, originBase + seg.path);
      listed.push({ url: withoutCmcd(originBase + seg.path), path: seg.path.split('?')[0]!, track: seg.track, id: seg.id, durationS: seg.durationSeconds });
    }
    this.timeline.listed(key, listed, now);
    this.#x = this.hold(stream, now);
    const held = view.hold(this.#x, undefined, now);
    this.#streams.set(key, stream);
    this.#index(stream);
    this.plan(stream);
    return this.#respond(held.text, origin, held.holdSegments, held.holdSeconds);
  }

  /** Answers a segment of a known manifest (see route()) from the store, fetching it once. */
  async segment(request: Request): Promise<Response> {
    // CMCD (query mode) varies per request; the segment is the same: key and fetch without it.
    const url = withoutCmcd(request.url);
    const known = this.#byUrl.get(url);
    if (!known) return this.fetchFn(request); // not (or no longer) a listed segment: not ours to store
    const prev = known.stream.mostAdvanced.get(known.track);
    if (prev === undefined || known.id > prev) known.stream.mostAdvanced.set(known.track, known.id);
    this.plan(known.stream);
    this.timeline.requested(url, this.store.get(url) !== undefined ? 'hit' : this.store.pending(url) !== undefined ? 'coalesced' : 'miss', Date.now());
    let s: StoredSegment;
    try {
      s = await this.store.load(url, () => this.#fetchSegment(url, 'request', known.stream, known.track));
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

  /** Prefetch what the core planner says, per track: x ahead of the most advanced request. */
  plan(stream: Stream): void {
    const x = this.#x;
    for (const [track, t] of stream.tracks) {
      const urlOf = (id: number) => t.url.get(id) ?? '';
      const { fetch } = planPrefetch({
        produced: t.ids,
        mostAdvanced: stream.mostAdvanced.get(track),
        cached: { has: (id) => this.store.get(urlOf(id)) !== undefined },
        inFlight: { has: (id) => this.store.pending(urlOf(id)) !== undefined },
        inFlightCount: this.store.inFlightCount,
        hold: x,
        maxParallel: Math.max(1, x) + 1,
      });
      for (const id of fetch) {
        const u = urlOf(id);
        if (u) void this.store.load(u, () => this.#fetchSegment(u, 'prefetch', stream, track)).catch(() => undefined);
      }
    }
  }

  state(): SwEdgeState {
    const lead: Record<string, number> = {};
    for (const [key, s] of this.#streams) {
      for (const [track, t] of s.tracks) {
        const m = s.mostAdvanced.get(track);
        if (m === undefined) continue;
        let l = 0;
        while (this.store.get(t.url.get(m + l + 1) ?? '') !== undefined) l += 1;
        lead[`${key} ${track}`] = l;
      }
    }
    return {
      enabled: this.#config !== undefined,
      hold: this.#x,
      streams: [...this.#streams.keys()],
      known: this.#byUrl.size,
      lead,
      store: { urls: this.store.urls(), bytes: this.store.bytes, inFlight: this.store.inFlightCount },
      fetches: this.#fetches.slice(-50),
      timeline: this.timeline.snapshot(this.#x, Date.now()),
    };
  }

  async #fetchSegment(url: string, reason: FetchRecord['reason'], stream: Stream, track: string): Promise<StoredSegment> {
    const startedAt = Date.now();
    const t0 = performance.now();
    this.timeline.fetchStarted(url, reason === 'prefetch' ? 'prefetch' : 'segment', startedAt);
    let r: Response;
    let body: ArrayBuffer;
    try {
      r = await this.fetchFn(url, { mode: 'cors' });
      if (!r.ok) throw r;
      body = await r.arrayBuffer();
    } catch (e) {
      this.timeline.fetchEnded(url, e instanceof Response ? `status ${e.status}` : 'failed', Date.now(), { start: null, end: null });
      throw e;
    }
    const ms = performance.now() - t0;
    this.timeline.fetchEnded(url, 'ok', Date.now(), { start: r.headers.get(ETHLE_HEADERS.productionStart), end: r.headers.get(ETHLE_HEADERS.productionEnd) });
    let sizes = stream.sizes.get(track);
    if (sizes === undefined) stream.sizes.set(track, (sizes = []));
    sizes.push(body.byteLength);
    if (sizes.length > 8) sizes.shift();
    this.#fetches.push({ url, reason, startedAt, ms, bytes: body.byteLength });
    if (this.#fetches.length > 200) this.#fetches.splice(0, 100);
    const headers: [string, string][] = [];
    for (const h of KEEP_HEADERS) {
      const v = r.headers.get(h);
      if (v !== null) headers.push([h, v]);
    }
    // The origin's no-store (as the Node edge honours it): serve this response, keep nothing.
    return { body, headers, fetchMs: ms, keep: !NO_STORE_RE.test(r.headers.get('cache-control') ?? '') };
  }

  /** Points the stream's current segment URLs at it, and forgets the ones its window dropped. */
  #index(stream: Stream): void {
    const now = new Set<string>();
    for (const [track, t] of stream.tracks) {
      for (const id of t.ids) {
        const u = t.url.get(id)!;
        now.add(u);
        this.#byUrl.set(u, { stream, track, id });
      }
    }
    for (const u of stream.urls) if (!now.has(u) && this.#byUrl.get(u)?.stream === stream) this.#byUrl.delete(u);
    stream.urls = now;
  }

  #respond(text: string, origin: Response, segments: number, seconds: number): Response {
    const headers = new Headers({
      'content-type': origin.headers.get('content-type') ?? 'text/plain',
      'cache-control': 'no-store',
      [ETHLE_HEADERS.holdSegments]: String(segments),
      [ETHLE_HEADERS.holdSeconds]: String(seconds),
      'access-control-expose-headers': EXPOSE,
    });
    const date = origin.headers.get('date');
    if (date) headers.set('date', date);
    return new Response(text, { status: 200, headers });
  }
}

/**
 * A playlist's key: its URL without the query data players add per request (CMCD, LL-HLS
 * `_HLS_msn`/`_HLS_part`/`_HLS_skip`). Anything else in the query names a different playlist.
 */
export function playlistKey(url: string): string {
  if (!url.includes('?')) return url;
  const u = new URL(url);
  const drop: string[] = [];
  u.searchParams.forEach((_v, k) => void ((k === 'CMCD' || k.startsWith('_HLS_')) && drop.push(k)));
  for (const k of drop) u.searchParams.delete(k);
  return u.toString();
}

/** The URL without CMCD query data (the key of a segment in the store). */
export function withoutCmcd(url: string): string {
  if (!url.includes('CMCD=')) return url;
  const u = new URL(url);
  u.searchParams.delete('CMCD');
  return u.toString();
}
