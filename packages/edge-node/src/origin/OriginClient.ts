import { timerMs } from '@ethle/core';
import { performance } from 'node:perf_hooks';
import { CacheFill } from '../cache/CacheFill.js';
import type { CacheEntry } from '../cache/CacheEntry.js';
import type { SegmentCache } from '../cache/SegmentCache.js';
import { EdgeError, isEdgeError } from '../errors/EdgeError.js';
import { ConnectionWatch } from './ConnectionWatch.js';
import { FetchMeasure, type FetchSink } from './FetchMeasure.js';
import { FetchScheduler } from './FetchScheduler.js';
import { fetchSignal } from './FetchSignal.js';
import { fetchManifestText, type ManifestFetchOptions, type ManifestText } from './fetchManifestText.js';
import { fetchRanges } from './fetchRanges.js';
import { fetchWhole } from './fetchWhole.js';
import { FlowMeter } from './FlowMeter.js';
import { OriginDispatcher } from './OriginDispatcher.js';
import type { FetchKind } from './OriginFetchReport.js';
import type { OriginTransport } from './OriginTransport.js';
import { planSplit } from './planSplit.js';
import { RttEstimator } from './RttEstimator.js';
import type { SegmentFetchOptions } from './SegmentFetchOptions.js';
import { internalError, type OnBug } from './toEdgeError.js';

export interface OriginClientOptions {
  name: string;
  url: string;
  /** Concurrent segment fetches to this origin, all streams together. */
  connections: number;
  /** Concurrent segment fetches of one stream (its x + 1). */
  connectionsPerStream: number;
  /** Segment fetches waiting at most before the edge answers 503. */
  maxQueued: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  cache: SegmentCache;
  onFetch: FetchSink;
  /** An object is streamed through without a whole copy (CacheEntry.passThrough). */
  onPassThrough?: () => void;
  /** A bug caught at a fetch's boundary (the fetch failed with ERR_EDGE_INTERNAL): log and count it. */
  onBug?: OnBug;
}

/**
 * All traffic to one configured origin, composed: its connections (OriginDispatcher: a pool with
 * same-origin redirects), a fair, bounded scheduler for segment fetches, the edge's own RTT
 * measurement from connect times and TTFB, and which connection carried each segment
 * (ConnectionWatch). Every segment fetch has an owner that can stop it: the entry's
 * AbortController (nobody waits any more) and its limits (FetchSignal: idle, rate, an outer
 * deadline). Fetching only: what is kept is the cache's decision (CacheFill).
 */
export class OriginClient {
  readonly name: string;
  readonly url: string;
  readonly rtt = new RttEstimator();
  /** The RTT a parent upstream reports beyond itself (X-Ethle-Upstream-Rtt-Ms), ms; undefined: none. */
  upstreamRttMs: number | undefined;
  readonly flows = new FlowMeter(() => performance.now());
  /** When the origin last answered anything (epoch ms; 0 = never): readiness. */
  lastAnswerMs = 0;
  readonly #o: OriginClientOptions;
  readonly #dispatcher: OriginDispatcher;
  readonly #connections: ConnectionWatch;
  readonly #scheduler: FetchScheduler;
  readonly #transport: OriginTransport;
  /**
   * The origin answered a byte range with the whole object: splitting a fetch there only sends
   * the object several times. Learnt once, kept for the client's life.
   */
  #rangesIgnored = false;

  constructor(o: OriginClientOptions) {
    this.#o = o;
    this.name = o.name;
    this.url = o.url;
    this.#connections = new ConnectionWatch(() => this.rtt.estimateMs(Date.now()));
    this.#dispatcher = new OriginDispatcher({
      url: o.url,
      // Segments use `connections` (twice: a fetch split into ranges takes several), manifests
      // get two more so a poll never waits behind bulk.
      connections: o.connections * 2 + 2,
      headersTimeoutMs: o.headersTimeoutMs,
      bodyTimeoutMs: o.bodyTimeoutMs,
      onConnect: (ms, socket) => {
        this.rtt.add('connect', ms, Date.now());
        this.#connections.add(socket);
      },
    });
    this.#scheduler = new FetchScheduler({
      limit: o.connections,
      groupLimit: o.connectionsPerStream,
      maxQueued: o.maxQueued,
      onError: (e) => o.onBug?.('origin fetch', e),
    });
    this.#transport = {
      name: o.name,
      dispatcher: this.#dispatcher,
      rtt: this.rtt,
      flows: this.flows,
      connections: this.#connections,
      sink: o.onFetch,
      onBug: o.onBug,
      rangesIgnored: () => {
        this.#rangesIgnored = true;
      },
    };
  }

  /** Full origin URL of an edge-relative origin path (for redirects). */
  absolute(path: string): string {
    return this.#dispatcher.absolute(path);
  }

  /**
   * Fetch a manifest as text (not scheduled behind segments; manifests are small and urgent).
   * Follows redirects within this origin; `path` is where the text finally came from (relative
   * URIs in it resolve against that). Rejects only with the edge's errors: a bug on the way is
   * ERR_EDGE_INTERNAL, reported to onBug once (as 'manifest fetch'), like a segment fetch's.
   */
  async fetchText(path: string, signal?: AbortSignal, o?: Omit<ManifestFetchOptions, 'signal'>): Promise<ManifestText> {
    let got: ManifestText;
    try {
      got = await fetchManifestText(this.#transport, path, { signal, blocking: o?.blocking });
    } catch (e) {
      // fetchManifestText maps what it catches (and reports its own bugs); what escapes it raw
      // is a bug in its report: the fetch's boundary is here.
      throw isEdgeError(e) ? e : internalError(e, path, this.#o.onBug, 'manifest fetch');
    }
    this.lastAnswerMs = Date.now();
    return got;
  }

  /**
   * Fetch a segment into a pending cache entry through the scheduler. Never rejects: failures go
   * into the entry (readers see them) and into the report. A full queue fails the entry at once
   * (ERR_EDGE_OVERLOADED).
   */
  fetchInto(path: string, entry: CacheEntry, o: SegmentFetchOptions): void {
    const kind: FetchKind = o.priority === 'player' ? 'segment' : 'prefetch';
    const { cache } = this.#o;
    const parts = planSplit({ split: o.split, rangesIgnored: this.#rangesIgnored, maxBytes: cache.maxBytes });
    const queued = this.#scheduler.enqueue(entry.key, o.group, o.priority, () => {
      // Cancelled while queued (its receiver left): no request at all, and nothing to report.
      if (entry.abort.signal.aborted) {
        entry.fail(new EdgeError('ERR_EDGE_CANCELLED', `fetch of ${path} cancelled before it started`, { path }));
        cache.release(entry);
        return Promise.resolve();
      }
      let stop: (() => void) | undefined;
      try {
        const signal = fetchSignal(entry.abort.signal, o.limits);
        stop = () => signal.close();
        const fill = new CacheFill({
          cache,
          entry,
          path,
          prefetch: kind === 'prefetch',
          wait: { signal: signal.any, pause: () => signal.pauseDeadline() },
          onPassThrough: this.#o.onPassThrough,
        });
        const f = { path, kind, fill, signal };
        const run =
          parts >= 2 ? fetchRanges(this.#transport, f, { parts, approxBytes: o.split!.approxBytes }) : fetchWhole(this.#transport, f);
        // Neither rejects; over either way, the fetch's clock stops.
        return run.finally(stop);
      } catch (e) {
        stop?.();
        // A bug before the fetch could start (it ran from another fetch's completion, where a
        // throw reached nobody and ended the process): this fetch fails, its readers are told.
        this.#failUnstarted(path, entry, kind, internalError(e, path, this.#o.onBug), parts);
        return Promise.resolve();
      }
    });
    if (!queued)
      this.#failUnstarted(path, entry, kind, new EdgeError('ERR_EDGE_OVERLOADED', `origin ${this.name}: fetch queue full`, { path }), 1);
  }

  /**
   * GET the origin's base URL: keeps a pooled connection open (the server's keep-alive timeout
   * would close an idle one) and adds a TTFB sample to the RTT estimate. Any status will do; a
   * failure is only a missing sample. Not HEAD: undici closes the connection after a HEAD.
   */
  async probe(): Promise<void> {
    const t0 = performance.now();
    try {
      const res = await this.#dispatcher.request('/', { signal: AbortSignal.timeout(timerMs(this.#o.headersTimeoutMs)) });
      this.rtt.add('ttfb', performance.now() - t0, Date.now());
      this.lastAnswerMs = Date.now();
      // A large index page is not worth reading: dropping the connection is cheaper.
      await res.body.dump({ limit: 65_536 });
    } catch {
      // Unreachable now: the next manifest fetch reports it where it matters.
    }
  }

  /** A player now waits for a queued prefetch: serve it before other bulk. */
  promote(key: string): void {
    this.#scheduler.promote(key);
  }

  get activeFetches(): number {
    return this.#scheduler.running;
  }

  get queuedFetches(): number {
    return this.#scheduler.queued;
  }

  async close(): Promise<void> {
    this.#connections.close();
    this.#scheduler.close();
    await this.#dispatcher.destroy();
  }

  /** A fetch that never reached the origin: its readers are told, the cache lets go, it is reported. */
  #failUnstarted(path: string, entry: CacheEntry, kind: FetchKind, err: EdgeError, parts: number): void {
    const bytes = entry.bytes;
    entry.fail(err);
    this.#o.cache.release(entry);
    new FetchMeasure({ origin: this.name, path, kind, sink: this.#o.onFetch, parts }).failed(err, bytes);
  }
}
