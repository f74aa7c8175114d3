import { streamIdentity, type HoldPolicy, type ManifestView, type SegmentRef, type StreamContext } from '@ethle/core';
import type { Logger } from 'pino';
import type { SegmentCache } from '../cache/SegmentCache.js';
import type { EdgeConfig } from '../config/EdgeConfig.js';
import type { Origin } from '../EdgeContext.js';
import { EdgeError } from '../errors/EdgeError.js';
import type { EdgeEvents } from '../events/EdgeEvents.js';
import { SummedWarnings } from '../log/SummedWarnings.js';
import type { EdgeMetrics } from '../metrics/EdgeMetrics.js';
import { LiveStream } from './LiveStream.js';
import { StreamPrefetcher } from './StreamPrefetcher.js';

export interface StreamRegistryOptions {
  config: EdgeConfig;
  cache: SegmentCache;
  policy: HoldPolicy;
  events: EdgeEvents;
  metrics: EdgeMetrics;
  log: Logger;
  now: () => number;
  rttFor: (origin: string) => number | undefined;
  /** A bug in a stream's poll or planning: logged with its stack and counted (EdgeContext.bug). */
  bug: (where: string, error: unknown, details?: Record<string, unknown>) => void;
}

/**
 * The active streams of the edge, bounded (`maxStreams`), and one index of every segment in
 * their windows, so a segment request finds its stream in O(1). A stream is a manifest path plus
 * the query parameters `streamQueryParams` allows (none by default): cache busters, per-viewer
 * tokens and LL-HLS directives map to the same stream and the same origin poller. Owns the
 * streams' lifecycles: created at the first manifest request, closed when idle.
 */
export class StreamRegistry {
  readonly #o: StreamRegistryOptions;
  readonly #streams = new Map<string, LiveStream>();
  /** `{origin}{path without query}` of every segment in an active window → its stream. */
  readonly #index = new Map<string, LiveStream>();
  /** `{origin}{path without query}` of every LL-HLS part an active stream lists → its stream (≤ 16 a stream). */
  readonly #parts = new Map<string, LiveStream>();
  readonly #identityParams: ReadonlySet<string>;
  /**
   * Advertised bits/s of variant media playlists (stream key), read from multivariant playlists.
   * Bounded: the oldest hints go first (a hint matters only until the variant's own manifest or
   * segments tell).
   */
  readonly #variantBitrates = new Map<string, number>();
  readonly #maxHints: number;
  /**
   * Prefetches skipped for want of room are told at every skip (a busy box: thousands); one line
   * per stream per 10 s says so, ethle_prefetch_skipped_total counts each.
   */
  readonly #budgetWarnings: SummedWarnings;

  constructor(o: StreamRegistryOptions) {
    this.#o = o;
    this.#budgetWarnings = new SummedWarnings(o.log, 10_000, o.now);
    this.#identityParams = new Set(o.config.streamQueryParams);
    this.#maxHints = 4 * o.config.maxStreams;
  }

  get size(): number {
    return this.#streams.size;
  }

  get indexSize(): number {
    return this.#index.size;
  }

  values(): IterableIterator<LiveStream> {
    return this.#streams.values();
  }

  /** The stream of a manifest request (created and started if new). Throws ERR_EDGE_OVERLOADED beyond maxStreams. */
  forManifest(origin: Origin, path: string, rawQuery: string): LiveStream {
    const identity = streamIdentity(path, rawQuery, this.#identityParams);
    const key = `${origin.cfg.name}${identity}`;
    const found = this.#streams.get(key);
    if (found !== undefined) return found;
    if (this.#streams.size >= this.#o.config.maxStreams)
      throw new EdgeError('ERR_EDGE_OVERLOADED', `${this.#o.config.maxStreams} streams active (maxStreams)`);
    const s = this.#create(origin, key, identity);
    this.#streams.set(key, s);
    this.#o.events.emit('stream-start', { stream: key });
    // 'stream active' is logged at the stream's first manifest: a made-up path never gets one.
    void s.start();
    return s;
  }

  /** The stream whose window lists this origin path (without query), and the segment. */
  segment(originName: string, path: string): { stream: LiveStream; seg: SegmentRef } | undefined {
    const stream = this.#index.get(`${originName}${path}`);
    const seg = stream?.prefetcher.segmentFor(path);
    return stream === undefined || seg === undefined ? undefined : { stream, seg };
  }

  /**
   * The stream whose current version lists this LL-HLS part (path without query), with the path
   * to fetch it by: a listed part is an object of its stream like a segment (one cached copy
   * however many receivers and tiers below ask), not an unplanned object.
   */
  part(originName: string, path: string): { stream: LiveStream; path: string } | undefined {
    const stream = this.#parts.get(`${originName}${path}`);
    const listed = stream?.prefetcher.listedPart(path);
    return stream === undefined || listed === undefined ? undefined : { stream, path: listed };
  }

  has(originName: string, path: string): boolean {
    return this.#index.has(`${originName}${path}`);
  }

  /** What the policy decides with: s_seg (measured, else advertised × l_seg), l_seg, RTT. */
  contextOf(s: LiveStream, view: ManifestView, originName: string): StreamContext {
    return {
      stream: s.key,
      origin: originName,
      segmentBytes: this.segmentBytesEstimate(s, view),
      segmentSeconds: view.segmentSeconds,
      rttMs: this.#o.rttFor(originName),
    };
  }

  /**
   * s_seg for the model: the mean of measured segment sizes once there are some, before that what
   * the manifest advertises (EXT-X-BITRATE, the multivariant's BANDWIDTH, MPD @bandwidth) times the
   * segment length; on a DASH ladder, per adaptation set the played Representation's (core
   * RenditionLadder). Undefined when the manifest says nothing.
   */
  segmentBytesEstimate(s: LiveStream, view: ManifestView): number | undefined {
    return s.prefetcher.progress.segmentBytesEstimate(
      view.bitrateHintBps ?? this.#variantBitrates.get(s.key),
      view.segmentSeconds,
      this.#o.now(),
    );
  }

  /** Remove a stream that never had a manifest (a made-up path must not leave a poller behind). */
  dropFailed(s: LiveStream): void {
    if (s.version !== undefined || this.#streams.get(s.key) !== s) return;
    this.#remove(s);
  }

  /** Close streams without receiver requests for streamIdleMs; returns how many remain. */
  sweepIdle(nowMs: number): void {
    for (const s of [...this.#streams.values()]) {
      if (nowMs - s.lastActivityMs <= this.#o.config.streamIdleMs) continue;
      this.#remove(s);
      this.#o.events.emit('stream-idle', { stream: s.key });
      this.#o.log.info({ stream: s.key }, 'stream idle');
    }
  }

  close(): void {
    for (const s of this.#streams.values()) s.close();
    this.#streams.clear();
    this.#index.clear();
    this.#parts.clear();
  }

  #remove(s: LiveStream): void {
    s.close();
    this.#streams.delete(s.key);
    this.#o.policy.forgetStream(s.key);
    this.#o.metrics.dropStream(s.key);
  }

  #create(origin: Origin, key: string, path: string): LiveStream {
    const { config, cache, policy, metrics, log, events, now } = this.#o;
    const name = origin.cfg.name;
    const planError = (error: Error): void => this.#o.bug('planner', error, { stream: key });
    const warning = (msg: string, details: Record<string, unknown>): void => log.warn({ stream: key, ...details }, msg);
    const prefetcher = new StreamPrefetcher({
      key,
      origin: origin.client,
      cache,
      now,
      maxParallel: config.maxHold,
      hold: () => policy.streamHold(key),
      startHold: () => policy.startHold(key),
      // One track's bitrate: an HLS media playlist's (a DASH MPD advertises the sum of its sets).
      bitrateHint: () => {
        const view = stream.version?.view;
        return view?.kind === 'hls-media' ? (view.bitrateHintBps ?? this.#variantBitrates.get(key)) : undefined;
      },
      flowMbps: () => policy.measuredBackhaulMbps(name),
      rttMs: () => this.#o.rttFor(name),
      minFetchDeadlineMs: config.originHeadersTimeoutMs,
      // The held parts and the few a player reads behind them (PART-HOLD-BACK is ≥ 3 parts).
      prefetchParts: policy.maxPartHold + 4,
      playedWithinMs: config.streamIdleMs,
      on: {
        lead: (lead) => metrics.lead.set({ stream: key }, lead),
        window: (added, removed) => {
          for (const p of removed) if (this.#index.get(`${name}${p}`) === stream) this.#index.delete(`${name}${p}`);
          for (const p of added) this.#index.set(`${name}${p}`, stream);
          if (added.length > 0) events.emit('segment-listed', { stream: key, origin: name, paths: added, at: now() });
        },
        parts: (added, removed) => {
          for (const p of removed) if (this.#parts.get(`${name}${p}`) === stream) this.#parts.delete(`${name}${p}`);
          for (const p of added) this.#parts.set(`${name}${p}`, stream);
        },
        needsHold: (x, reason) => policy.requireHold(key, x, reason, now()),
        burst: (ids) => {
          metrics.prefetchBursts.inc({ origin: name }, ids.length);
          log.debug({ stream: key, ids }, 'prefetch beyond x + 1: waiting for a slot would miss the deadline');
        },
        tolerated: (miss) => log.debug({ stream: key, miss }, 'a held segment is projected late within half a segment: x not raised'),
        budgetFull: (details) => {
          metrics.prefetchSkipped.inc({ origin: name, reason: 'budget' });
          this.#budgetWarnings.warn(key, { stream: key, ...details }, 'cache too small for what the planner wants: prefetching less');
        },
        planError,
      },
    });
    let announced = false;
    const stream: LiveStream = new LiveStream({
      key,
      path,
      now,
      maxBlocked: config.maxBlockedPerStream,
      prefetcher,
      poll: {
        origin: origin.client,
        edgePathPrefix: origin.prefix,
        fetchDeadlineMs: config.originHeadersTimeoutMs,
        // Half the time a stale version may be served: a restarted origin is taken before then.
        acceptBackwardsAfterMs: config.manifestStaleMs / 2,
        onError: (e) => {
          metrics.manifestErrors.inc({ origin: name, reason: e.code });
          // A bug was logged where it was caught, with its stack (once).
          if (e.code === 'ERR_EDGE_INTERNAL') return;
          // A stream that never had a manifest is a request for a path the origin doesn't have
          // (or junk): not worth a warning each, or junk requests flood the log.
          if (stream.version === undefined)
            log.debug({ stream: key, code: e.code, msg2: e.message }, 'origin manifest failed (new stream)');
          else log.warn({ stream: key, code: e.code, msg2: e.message }, 'origin manifest failed');
        },
        onWarning: warning,
      },
      onVersion: (view) => {
        if (!announced) {
          announced = true;
          log.info({ stream: key }, 'stream active');
        }
        for (const v of view.variantBitrates ?? []) this.#hint(`${name}${v.path}`, v.bps);
        // Auto: x from the first manifest's context, so the first prefetch round fetches what a
        // player shown this x starts with.
        if (view.kind !== 'hls-multivariant') policy.provisional(this.contextOf(stream, view, name));
      },
      onBug: (error, where) => this.#o.bug(where, error, { stream: key }),
    });
    return stream;
  }

  #hint(key: string, bps: number): void {
    this.#variantBitrates.delete(key);
    this.#variantBitrates.set(key, bps);
    if (this.#variantBitrates.size > this.#maxHints) this.#variantBitrates.delete(this.#variantBitrates.keys().next().value!);
  }
}
