import { ETHLE_HEADERS, isStorable as storableRule, timerMs } from '@ethle/core';
import diagnostics from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { Pool, buildConnector, errors as undiciErrors } from 'undici';
import type { Dispatcher } from 'undici';
import type { SegmentCache } from '../cache/SegmentCache.js';
import type { CacheEntry, EntryHeaders } from '../cache/CacheEntry.js';
import { EdgeError } from '../errors/EdgeError.js';
import { FetchScheduler, type FetchPriority } from './FetchScheduler.js';
import { FlowMeter, type FlowSpan } from './FlowMeter.js';
import { RangeAssembler } from './RangeAssembler.js';
import { RttEstimator } from './RttEstimator.js';

export type FetchKind = 'manifest' | 'segment' | 'prefetch';
export type FetchOutcome = 'ok' | 'timeout' | 'status' | 'truncated' | 'unreachable' | 'too_large' | 'closed' | 'cancelled' | 'cache_full' | 'redirect' | 'inconsistent' | 'overloaded' | 'internal';

/** What one origin fetch did; feeds metrics, events and the throughput check of the model. */
export interface OriginFetchReport {
  origin: string;
  path: string;
  kind: FetchKind;
  outcome: FetchOutcome;
  status: number | undefined;
  bytes: number;
  /** From sending the request to the first response byte (ms). */
  ttfbMs: number | undefined;
  /** From sending the request to the last byte (ms). */
  totalMs: number;
  /** Concurrent byte ranges the object came in (1 = one request): its rate is not one flow's. */
  parts: number;
  /**
   * Segments only: time-weighted mean number of segment flows open to this origin while this one
   * ran, its own included (1 = it had the backhaul to itself). See FlowMeter.
   */
  meanFlows?: number;
  /**
   * Single-flow segment fetches only: bytes the connection that carried the request had received
   * before it (0: a new connection). Undefined when the edge could not see the connection.
   */
  connectionBytesBefore?: number;
  /**
   * Single-flow segment fetches on a connection used before: the longest idle gap it had since it
   * last carried a segment, this request's included, ms. A sender restarts slow start at a send
   * after a gap past the RTO; a manifest in between (one small response, a round trip long)
   * neither opens the window nor hides such a gap.
   */
  connectionIdleMs?: number;
  /**
   * Single-flow segment fetches: the object's first `burstBytes` (1 MiB, or half a smaller
   * object) arrived `burstMs` after the request went out. How a window opens shows in these
   * bytes; a large object's whole time is the bottleneck's, whatever the window did.
   */
  burstBytes?: number;
  burstMs?: number;
}

/** Fetch one segment as this many concurrent byte ranges, sized from an estimate of its length. */
export interface SplitFetch {
  parts: number;
  approxBytes: number;
}

/** How one segment fetch is scheduled and bounded. */
export interface SegmentFetchOptions {
  priority: FetchPriority;
  /** Fairness group in the origin's scheduler (the stream's key; unplanned objects share one). */
  group: string;
  /**
   * The whole fetch — queue wait excluded — must end within this (ms): undici's body timeout is
   * an idle timer, and an origin trickling 1 KB/s never trips it.
   */
  deadlineMs: number;
  split?: SplitFetch;
}

/** Below this many bytes per part a range split costs more round trips than it saves. */
const MIN_PART_BYTES = 256 * 1024;

/**
 * An unplanned object (no window lists it: an init segment, a key, a query only one receiver
 * sends) is cached up to this size; a larger one (by its Content-Length, or once one of unknown
 * length grows past it) streams through (CacheEntry.passThrough) instead of becoming a private
 * full copy per request.
 */
export const MAX_UNPLANNED_CACHED_BYTES = 1024 * 1024;

/** A pass-through object is read from the origin at most this far ahead of its fastest reader. */
export const PASS_THROUGH_WINDOW = 256 * 1024;


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
  onFetch: (report: OriginFetchReport) => void;
  /** An object is streamed through without a whole copy (CacheEntry.passThrough). */
  onPassThrough?: () => void;
  /** A bug caught at a fetch's boundary (the fetch failed with ERR_EDGE_INTERNAL): log and count it. */
  onBug?: (where: string, error: unknown) => void;
}

/** The two ways a segment fetch is aborted: nobody waits for it, or it ran past its deadline. */
interface FetchSignal {
  cancel: AbortSignal;
  deadline: AbortSignal;
  any: AbortSignal;
}

/** The head of a segment fetch timed for how fast its window opened (see burstBytes). */
export const BURST_BYTES = 1024 * 1024;

/** How long an idle origin connection is kept: a few of the longest common segment periods. */
export const ORIGIN_KEEP_ALIVE_MS = 30_000;

/** undici publishes every HTTP/1.1 request's socket here, as its headers go out. */
const SEND_HEADERS = 'undici:client:sendHeaders';

/** A single-flow segment fetch waiting to learn which connection carries it. */
interface ConnectionProbe {
  /** When the request was made (performance.now ms), and when its first burstBytes were in. */
  t0: number;
  burstBytes: number | undefined;
  burstAtMs: number | undefined;
  bytesBefore: number | undefined;
  idleMs: number | undefined;
  socket: object | undefined;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;

/** Headers of an origin segment response worth replaying to receivers. */
const KEPT_HEADERS = ['content-type', ETHLE_HEADERS.productionStart, ETHLE_HEADERS.productionEnd, 'last-modified', 'etag', ETHLE_HEADERS.holdSegments, ETHLE_HEADERS.role, ETHLE_HEADERS.upstreamRtt];
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

function outcomeOf(e: EdgeError): FetchOutcome {
  switch (e.code) {
    case 'ERR_EDGE_ORIGIN_TIMEOUT': return 'timeout';
    case 'ERR_EDGE_ORIGIN_STATUS': return 'status';
    case 'ERR_EDGE_ORIGIN_TRUNCATED': return 'truncated';
    case 'ERR_EDGE_ORIGIN_TOO_LARGE': return 'too_large';
    case 'ERR_EDGE_CLOSED': return 'closed';
    case 'ERR_EDGE_CANCELLED': return 'cancelled';
    case 'ERR_EDGE_CACHE_FULL': return 'cache_full';
    case 'ERR_EDGE_ORIGIN_REDIRECT': return 'redirect';
    case 'ERR_EDGE_ORIGIN_INCONSISTENT': return 'inconsistent';
    case 'ERR_EDGE_OVERLOADED': return 'overloaded';
    case 'ERR_EDGE_INTERNAL': return 'internal';
    default: return 'unreachable';
  }
}

/** A bug caught at a fetch's boundary: reported (logged, counted) once, and the fetch's error. */
function internalError(e: unknown, path: string, onBug: ((where: string, error: unknown) => void) | undefined): EdgeError {
  onBug?.('origin fetch', e);
  return new EdgeError('ERR_EDGE_INTERNAL', `fetch of ${path} failed inside the edge: ${(e as Error)?.message ?? String(e)}`, { path }, { cause: e });
}

/** Map an undici/socket error to the edge's catalogue. `inBody` = headers had arrived. */
function toEdgeError(e: unknown, path: string, inBody: boolean, signal?: FetchSignal, onBug?: (where: string, error: unknown) => void): EdgeError {
  if (e instanceof EdgeError) return e;
  if (signal?.deadline.aborted) return new EdgeError('ERR_EDGE_ORIGIN_TIMEOUT', `origin fetch of ${path} missed its deadline`, { path, deadline: true }, { cause: e });
  if (signal?.cancel.aborted) return new EdgeError('ERR_EDGE_CANCELLED', `fetch of ${path} cancelled: ${String(signal.cancel.reason)}`, { path }, { cause: e });
  // A bug of the edge's own (undici reports network trouble with its own error classes): said as one.
  if (e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError) return internalError(e, path, onBug);
  const code = (e as { code?: string } | null)?.code;
  if (e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.BodyTimeoutError || e instanceof undiciErrors.ConnectTimeoutError) {
    return new EdgeError('ERR_EDGE_ORIGIN_TIMEOUT', `origin timed out on ${path}`, { path, undici: code }, { cause: e });
  }
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') {
    return new EdgeError('ERR_EDGE_CLOSED', `edge closed during ${path}`, { path }, { cause: e });
  }
  if (inBody) {
    return new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `origin body of ${path} broke off`, { path, undici: code }, { cause: e });
  }
  return new EdgeError('ERR_EDGE_ORIGIN_UNREACHABLE', `origin unreachable for ${path}`, { path, cause: code }, { cause: e });
}

/**
 * All traffic to one configured origin: a connection pool (pipelining 1, so parallel fetches
 * really are parallel TCP connections, as the paper's x connections are), a fair, bounded
 * scheduler for segment fetches, and the edge's own RTT measurement from connect times and TTFB.
 * Every segment fetch has an owner that can stop it: the entry's AbortController (nobody waits any
 * more) and a deadline. Fetching only: what is kept is the cache's decision (admit).
 */
export class OriginClient {
  readonly name: string;
  readonly url: string;
  readonly rtt = new RttEstimator();
  /** The RTT a parent upstream reports beyond itself (X-Ethle-Upstream-Rtt-Ms), ms; undefined: none. */
  upstreamRttMs: number | undefined;
  readonly flows = new FlowMeter(() => performance.now());
  readonly #pool: Pool;
  readonly #scheduler: FetchScheduler;
  readonly #o: OriginClientOptions;
  readonly #basePath: string;
  readonly #origin: string;
  /**
   * The origin answered a byte range with the whole object: splitting a fetch there only sends
   * the object several times. Learnt once, kept for the client's life.
   */
  #rangesIgnored = false;
  /**
   * Single-flow segment fetches in flight, by the path sent (at most the scheduler's running
   * fetches; each fetch removes its own). undici's request result does not say which pooled
   * connection carried it; its diagnostics channel does, as the headers are written.
   */
  readonly #probes = new Map<string, ConnectionProbe>();
  /**
   * Per pooled connection: when it last carried data and its longest gap since its last segment
   * (performance.now ms). Weak: a closed connection's entry goes with it.
   */
  readonly #activity = new WeakMap<object, { lastMs: number; maxGapMs: number }>();
  /**
   * This pool's connections: the channel is process-wide, and another client of the same origin
   * (a second edge in one process) may fetch the same path at once.
   */
  readonly #sockets = new WeakSet<object>();
  readonly #onSendHeaders = (message: unknown): void => {
    const { request, socket } = message as { request?: { path?: unknown }; socket?: { bytesRead?: unknown } };
    if (typeof request?.path !== 'string' || typeof socket !== 'object' || socket === null || !this.#sockets.has(socket)) return;
    const now = performance.now();
    const a = this.#activity.get(socket);
    if (a !== undefined) a.maxGapMs = Math.max(a.maxGapMs, now - a.lastMs);
    const probe = this.#probes.get(request.path);
    // The first request only: a redirect's second hop is on a connection the first one warmed.
    if (probe !== undefined && probe.socket === undefined && typeof socket.bytesRead === 'number') {
      Object.assign(probe, { bytesBefore: socket.bytesRead, idleMs: a?.maxGapMs, socket });
    }
    // A probed fetch marks its end itself (#fetchInto's finally); anything else (a manifest: one
    // small response) is taken to end a round trip after it went out.
    const lastMs = probe !== undefined ? now : now + (this.rtt.estimateMs(Date.now()) ?? 0);
    if (a === undefined) this.#activity.set(socket, { lastMs, maxGapMs: 0 });
    else a.lastMs = Math.max(a.lastMs, lastMs);
  };

  constructor(o: OriginClientOptions) {
    this.#o = o;
    this.name = o.name;
    this.url = o.url;
    const u = new URL(o.url);
    this.#origin = u.origin;
    this.#basePath = u.pathname === '/' ? '' : u.pathname;
    const connect = buildConnector({});
    this.#pool = new Pool(u.origin, {
      // Segments use `connections` (twice: a fetch split into ranges takes several), manifests
      // get two more so a poll never waits behind bulk.
      connections: o.connections * 2 + 2,
      pipelining: 1,
      // Segment fetches come one per segment period: undici's 4 s default closes connections
      // between 4–10 s segments, and every fetch then pays a handshake and a slow start that a
      // kept connection does not (not even to an origin that keeps its window). An origin's
      // Keep-Alive hint takes precedence (Node's server sends 5 s; nginx by default sends none).
      keepAliveTimeout: ORIGIN_KEEP_ALIVE_MS,
      headersTimeout: o.headersTimeoutMs,
      bodyTimeout: o.bodyTimeoutMs,
      connect: (opts, cb) => {
        const t0 = performance.now();
        connect(opts, (err, socket) => {
          if (err === null) {
            this.rtt.add('connect', performance.now() - t0, Date.now());
            if (socket !== null && typeof socket === 'object') this.#sockets.add(socket);
          }
          cb(err, socket as never);
        });
      },
    });
    this.#scheduler = new FetchScheduler({ limit: o.connections, groupLimit: o.connectionsPerStream, maxQueued: o.maxQueued, onError: (e) => o.onBug?.('origin fetch', e) });
    diagnostics.subscribe(SEND_HEADERS, this.#onSendHeaders);
  }

  /** Full origin URL of an edge-relative origin path (for redirects). */
  absolute(path: string): string {
    return `${this.#origin}${this.#basePath}${path}`;
  }

  /**
   * Fetch a manifest as text (not scheduled behind segments; manifests are small and urgent).
   * Follows redirects within this origin; `path` is where the text finally came from (relative
   * URIs in it resolve against that).
   */
  async fetchText(path: string, signal?: AbortSignal, o?: { blocking?: boolean }): Promise<{ text: string; headers: EntryHeaders; path: string }> {
    const t0 = performance.now();
    let ttfb: number | undefined;
    let status: number | undefined;
    let bytes = 0;
    let inBody = false;
    try {
      const { res, path: finalPath } = await this.#requestFollowing(path, signal, undefined);
      ttfb = performance.now() - t0;
      // A blocking playlist reload waits at the origin for the next part: its first byte says
      // nothing about the round trip.
      if (o?.blocking !== true) this.rtt.add('ttfb', ttfb, Date.now());
      status = res.statusCode;
      if (status !== 200) {
        await res.body.dump();
        throw statusError(path, status, res.headers);
      }
      inBody = true;
      const expected = contentLength(res.headers);
      if (expected !== undefined && expected > MAX_MANIFEST_BYTES) {
        res.body.destroy();
        throw new EdgeError('ERR_EDGE_ORIGIN_TOO_LARGE', `manifest ${path} exceeds ${MAX_MANIFEST_BYTES} bytes`, { path });
      }
      const chunks: Buffer[] = [];
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > MAX_MANIFEST_BYTES) {
          res.body.destroy();
          throw new EdgeError('ERR_EDGE_ORIGIN_TOO_LARGE', `manifest ${path} exceeds ${MAX_MANIFEST_BYTES} bytes`, { path });
        }
        chunks.push(chunk);
      }
      if (expected !== undefined && bytes !== expected) {
        throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `manifest ${path}: ${bytes} of ${expected} bytes`, { path, bytes, expected });
      }
      this.#report(path, 'manifest', 'ok', status, bytes, ttfb, t0);
      this.lastAnswerMs = Date.now();
      return { text: Buffer.concat(chunks).toString('utf8'), headers: keptHeaders(res.headers), path: finalPath };
    } catch (e) {
      // The caller's signal: a timeout is the origin's, anything else (the stream closed while its
      // blocking reload waited at the origin) a cancellation — not an unreachable origin.
      const aborted = signal?.aborted === true && !(e instanceof EdgeError);
      const timedOut = aborted && (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError';
      const err = !aborted ? toEdgeError(e, path, inBody)
        : timedOut ? new EdgeError('ERR_EDGE_ORIGIN_TIMEOUT', `origin manifest ${path} timed out`, { path }, { cause: e })
        : new EdgeError('ERR_EDGE_CANCELLED', `manifest fetch of ${path} cancelled: ${String(signal.reason)}`, { path }, { cause: e });
      this.#report(path, 'manifest', outcomeOf(err), status, bytes, ttfb, t0);
      throw err;
    }
  }

  /**
   * Fetch a segment into a pending cache entry through the scheduler. Never rejects: failures go
   * into the entry (readers see them) and into the report. A full queue fails the entry at once
   * (ERR_EDGE_OVERLOADED).
   */
  fetchInto(path: string, entry: CacheEntry, o: SegmentFetchOptions): void {
    const kind = o.priority === 'player' ? 'segment' : 'prefetch';
    // Parts wait in the assembler for the ones before them: a split object must fit the budget
    // whole (one that cannot streams through, unsplit).
    const split = this.#rangesIgnored || (o.split !== undefined && o.split.approxBytes * 2 > this.#o.cache.maxBytes) ? undefined : o.split;
    const parts = split === undefined ? 1 : Math.min(split.parts, Math.floor(split.approxBytes / MIN_PART_BYTES));
    const queued = this.#scheduler.enqueue(entry.key, o.group, o.priority, () => {
      // Cancelled while queued (its receiver left): no request at all.
      if (entry.abort.signal.aborted) {
        entry.fail(new EdgeError('ERR_EDGE_CANCELLED', `fetch of ${path} cancelled before it started`, { path }));
        this.#o.cache.release(entry);
        return Promise.resolve();
      }
      try {
        const deadline = AbortSignal.timeout(timerMs(o.deadlineMs));
        const signal: FetchSignal = { cancel: entry.abort.signal, deadline, any: AbortSignal.any([entry.abort.signal, deadline]) };
        return parts >= 2 ? this.#fetchRanges(path, entry, kind, parts, split!.approxBytes, signal) : this.#fetchInto(path, entry, kind, signal);
      } catch (e) {
        // A bug before the fetch could start (it ran from another fetch's completion, where a
        // throw reached nobody and ended the process): this fetch fails, its readers are told.
        this.#fail(path, entry, kind, internalError(e, path, this.#o.onBug), undefined, undefined, performance.now(), parts);
        return Promise.resolve();
      }
    });
    if (!queued) {
      entry.fail(new EdgeError('ERR_EDGE_OVERLOADED', `origin ${this.name}: fetch queue full`, { path }));
      this.#o.cache.release(entry);
      this.#report(path, kind, 'overloaded', undefined, 0, undefined, performance.now());
    }
  }

  /**
   * GET the origin's base URL: keeps a pooled connection open (the server's keep-alive timeout
   * would close an idle one) and adds a TTFB sample to the RTT estimate. Any status will do; a
   * failure is only a missing sample. Not HEAD: undici closes the connection after a HEAD.
   */
  async probe(): Promise<void> {
    const t0 = performance.now();
    try {
      const res = await this.#pool.request({ path: this.#basePath === '' ? '/' : `${this.#basePath}/`, method: 'GET', signal: AbortSignal.timeout(timerMs(this.#o.headersTimeoutMs)) });
      this.rtt.add('ttfb', performance.now() - t0, Date.now());
      this.lastAnswerMs = Date.now();
      // A large index page is not worth reading: dropping the connection is cheaper.
      await res.body.dump({ limit: 65_536 });
    } catch {
      // Unreachable now: the next manifest fetch reports it where it matters.
    }
  }

  /** When the origin last answered anything (epoch ms; 0 = never): readiness. */
  lastAnswerMs = 0;

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
    diagnostics.unsubscribe(SEND_HEADERS, this.#onSendHeaders);
    this.#scheduler.close();
    await this.#pool.destroy();
  }

  async #fetchInto(path: string, entry: CacheEntry, kind: FetchKind, signal: FetchSignal): Promise<void> {
    const t0 = performance.now();
    const span = this.flows.start(1);
    // Two fetches of one path at once (not coalesced: a cache entry replaced): the later probe
    // replaces the earlier in the map, and the earlier fetch reports no connection.
    const sent = `${this.#basePath}${path}`;
    const probe: ConnectionProbe = { t0, burstBytes: undefined, burstAtMs: undefined, bytesBefore: undefined, idleMs: undefined, socket: undefined };
    this.#probes.set(sent, probe);
    let ttfb: number | undefined;
    let status: number | undefined;
    let inBody = false;
    try {
      const { res } = await this.#requestFollowing(path, signal.any, undefined);
      ttfb = performance.now() - t0;
      this.rtt.add('ttfb', ttfb, Date.now());
      status = res.statusCode;
      if (status !== 200) {
        await res.body.dump();
        throw statusError(path, status, res.headers);
      }
      inBody = true;
      await this.#readWhole(path, entry, res, kind, signal.any, probe);
      this.#report(path, kind, 'ok', status, entry.bytes, ttfb, t0, 1, span, probe);
    } catch (e) {
      this.#fail(path, entry, kind, toEdgeError(e, path, inBody, signal, this.#o.onBug), status, ttfb, t0, 1, span);
    } finally {
      if (probe.socket !== undefined) this.#activity.set(probe.socket, { lastMs: performance.now(), maxGapMs: 0 });
      if (this.#probes.get(sent) === probe) this.#probes.delete(sent);
    }
  }

  /**
   * Reserve cache room for a response of `size` bytes. A prefetch nobody reads yet that does not
   * fit without evicting segments receivers still need is dropped before its body crosses the
   * backhaul; anything a receiver waits for is served through even if it cannot be kept.
   */
  async #admit(path: string, entry: CacheEntry, size: number, kind: FetchKind, signal: AbortSignal): Promise<void> {
    const forReceiver = kind !== 'prefetch' || entry.readers > 0;
    // A receiver waits: what does not fit now is served through. A prefetch waits for the room
    // that receivers reading cached entries hold, and is dropped only if nothing would free it.
    if (forReceiver) {
      this.#o.cache.admit(entry, size, true);
      return;
    }
    if ((await this.#o.cache.admitWhenRead(entry, size, signal)) || entry.readers > 0) return;
    throw new EdgeError('ERR_EDGE_CACHE_FULL', `prefetch of ${path} (${size} bytes) does not fit the cache`, { path, size });
  }

  /**
   * Room for the next `n` bytes of an entry the cache did not admit (its bytes count as transit
   * in the byte budget): a pass-through entry first waits until its readers have taken what it
   * holds, then any such entry until the budget has room. Not reading on meanwhile holds the
   * origin connection back (TCP flow control): the origin waits instead of the edge's memory
   * growing. Admitted entries have their room reserved already: nothing to wait for.
   */
  async #room(entry: CacheEntry, n: number, kind: FetchKind, signal: AbortSignal): Promise<void> {
    if (entry.admitted) return;
    // Growing past what it may be kept as (an unplanned object of unknown length past the size
    // an unplanned object is cached up to; any object past the whole budget): stream it through.
    if (!entry.passThrough && entry.bytes + n > (entry.cancelWhenOrphaned ? MAX_UNPLANNED_CACHED_BYTES : this.#o.cache.maxBytes)) {
      entry.passThrough = true;
      this.#o.onPassThrough?.();
    }
    if (entry.passThrough) {
      // Kept for nobody (a prefetch, a receiver gone before the headers): not worth the backhaul.
      if (entry.readers === 0) throw new EdgeError('ERR_EDGE_CACHE_FULL', `${entry.key} streams through and nobody reads it`, { key: entry.key });
      await entry.whenConsumed(PASS_THROUGH_WINDOW, signal);
      // Kept whole for receivers that may still join, as long as the budget has room for it.
      if (this.#o.cache.budget.free < n) entry.seal();
    }
    await this.#o.cache.hold(entry, n, kind !== 'prefetch' || entry.readers > 0, signal);
  }

  /** A 200 response's body into the entry, checked against its Content-Length, then ended. */
  async #readWhole(path: string, entry: CacheEntry, res: Dispatcher.ResponseData, kind: FetchKind, signal: AbortSignal, probe?: ConnectionProbe): Promise<void> {
    const expected = contentLength(res.headers);
    const storable = isStorable(res.headers);
    // An unplanned object too large (or of unknown length) to cache streams through its readers;
    // so does one the cache did not take that could never be held whole within the budget.
    const unplannedLarge = entry.cancelWhenOrphaned && expected !== undefined && expected > MAX_UNPLANNED_CACHED_BYTES;
    if (!unplannedLarge && expected !== undefined && storable) await this.#admit(path, entry, expected, kind, signal);
    if (!entry.admitted && (unplannedLarge || (expected !== undefined && expected > this.#o.cache.maxBytes))) {
      entry.passThrough = true;
      this.#o.onPassThrough?.();
    }
    entry.setHeaders(keptHeaders(res.headers), expected);
    const burst = Math.min(BURST_BYTES, Math.floor((expected ?? 2 * BURST_BYTES) / 2));
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      if (expected !== undefined && entry.bytes + chunk.length > expected) {
        res.body.destroy();
        throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `origin sent more than Content-Length for ${path}`, { path });
      }
      if (!entry.admitted) await this.#room(entry, chunk.length, kind, signal);
      entry.push(chunk);
      if (probe !== undefined && probe.burstAtMs === undefined && entry.bytes >= burst) Object.assign(probe, { burstBytes: burst, burstAtMs: performance.now() });
    }
    this.#finish(path, entry, expected, storable, kind);
  }

  #finish(path: string, entry: CacheEntry, expected: number | undefined, storable: boolean, kind: FetchKind): void {
    if (expected !== undefined && entry.bytes !== expected) {
      throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `segment ${path}: ${entry.bytes} of ${expected} bytes`, { path, bytes: entry.bytes, expected });
    }
    // Whole and held as transit already: cached if it fits now, else served and let go.
    if (expected === undefined && storable && !entry.passThrough) this.#o.cache.admit(entry, entry.bytes, kind !== 'prefetch' || entry.readers > 0);
    entry.end();
    // Not admitted (cache full, or not storable): it was served through to its readers; drop it now.
    if (!entry.admitted) this.#o.cache.release(entry);
  }

  #fail(path: string, entry: CacheEntry, kind: FetchKind, err: EdgeError, status: number | undefined, ttfb: number | undefined, t0: number, parts: number, span?: FlowSpan): void {
    const bytes = entry.bytes;
    entry.fail(err);
    this.#o.cache.release(entry);
    this.#report(path, kind, outcomeOf(err), status, bytes, ttfb, t0, parts, span);
  }

  /**
   * One segment as `parts` concurrent byte ranges on as many connections: each range is in slow
   * start on its own, so together they open `parts` windows at once — the paper's parallel
   * connections applied inside the segment a receiver is (about to be) waiting for, when the edge
   * has no lead yet. The last range is open-ended (the estimate may be short); ranges past the
   * real end come back 416 and count as empty. An origin that ignores Range answers part 0 with
   * the whole object (200): that response is used and the other parts are dropped. Every part
   * must name the same object version (total length, ETag, Last-Modified) as part 0: an object
   * replaced between the requests is never stitched together from two versions.
   */
  async #fetchRanges(path: string, entry: CacheEntry, kind: FetchKind, parts: number, approxBytes: number, signal: FetchSignal): Promise<void> {
    const t0 = performance.now();
    // Counted as `parts` flows throughout, even when an origin that ignores Range sends the whole
    // object on one: that one start-segment fetch then looks like a burst and is not a sample.
    const span = this.flows.start(parts);
    const size = Math.ceil(approxBytes / parts);
    const aborts = Array.from({ length: parts }, () => new AbortController());
    const full = `${this.#basePath}${path}`;
    const pending = aborts.map((ac, i) =>
      this.#pool.request({
        path: full,
        method: 'GET',
        signal: AbortSignal.any([ac.signal, signal.any]),
        headers: { range: i === parts - 1 ? `bytes=${i * size}-` : `bytes=${i * size}-${(i + 1) * size - 1}` },
      }),
    );
    for (const p of pending) p.catch(() => undefined); // each is awaited below; none may go unhandled
    const abortFrom = (from: number) => {
      for (let i = from; i < parts; i++) aborts[i]!.abort();
    };
    let ttfb: number | undefined;
    let status: number | undefined;
    let inBody = false;
    try {
      const first = await pending[0]!;
      ttfb = performance.now() - t0;
      this.rtt.add('ttfb', ttfb, Date.now());
      status = first.statusCode;
      if (status === 200) {
        abortFrom(1);
        this.#rangesIgnored = true;
        inBody = true;
        await this.#readWhole(path, entry, first, kind, signal.any);
        this.#report(path, kind, 'ok', status, entry.bytes, ttfb, t0, 1, span);
        return;
      }
      const r0 = status === 206 ? contentRange(first.headers) : undefined;
      if (r0 === undefined || r0.start !== 0) {
        await first.body.dump();
        throw statusError(path, status, first.headers, ' to a byte range');
      }
      const total = r0.total;
      if (total > this.#o.cache.maxBytes) {
        await first.body.dump();
        throw new EdgeError('ERR_EDGE_CACHE_FULL', `${path} (${total} bytes) is larger than the byte budget: not fetched in parts`, { path, size: total });
      }
      const version = validators(first.headers);
      const storable = isStorable(first.headers);
      if (storable) await this.#admit(path, entry, total, kind, signal.any);
      entry.setHeaders(keptHeaders(first.headers), total);
      inBody = true;
      const asm = new RangeAssembler(parts, (c) => entry.push(c));
      const read = async (i: number, res: Dispatcher.ResponseData, want: number): Promise<void> => {
        let got = 0;
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          got += chunk.length;
          if (got > want) throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `origin sent more than range ${i} of ${path}`, { path });
          // Not admitted: a later part's bytes wait in the assembler, and count in the budget there.
          if (!entry.admitted) await this.#room(entry, chunk.length, kind, signal.any);
          asm.chunk(i, chunk);
        }
        if (got !== want) throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `range ${i} of ${path}: ${got} of ${want} bytes`, { path, bytes: got, expected: want });
        asm.end(i);
      };
      const tasks = [read(0, first, r0.end - r0.start + 1)];
      for (let i = 1; i < parts; i++) {
        const start = i * size;
        tasks.push(
          pending[i]!.then(async (res) => {
            if (res.statusCode === 416 && start >= total) {
              await res.body.dump();
              asm.end(i); // past the real end: nothing in this range
              return;
            }
            const r = res.statusCode === 206 ? contentRange(res.headers) : undefined;
            if (r === undefined || r.start !== start || r.total !== total) {
              await res.body.dump();
              throw new EdgeError('ERR_EDGE_ORIGIN_STATUS', `origin answered ${res.statusCode} to range ${i} of ${path}`, { path, status: res.statusCode });
            }
            if (validators(res.headers) !== version) {
              await res.body.dump();
              throw new EdgeError('ERR_EDGE_ORIGIN_INCONSISTENT', `range ${i} of ${path} is from another version of the object`, { path, part: i });
            }
            await read(i, res, r.end - r.start + 1);
          }),
        );
      }
      try {
        await Promise.all(tasks);
      } catch (e) {
        abortFrom(0);
        await Promise.allSettled(tasks);
        throw e;
      }
      if (!asm.complete) throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `segment ${path}: ranges incomplete`, { path });
      this.#finish(path, entry, total, storable, kind);
      this.#report(path, kind, 'ok', status, entry.bytes, ttfb, t0, parts, span);
    } catch (e) {
      abortFrom(0);
      this.#fail(path, entry, kind, toEdgeError(e, path, inBody, signal, this.#o.onBug), status, ttfb, t0, parts, span);
    }
  }

  /**
   * GET `path`, following redirects that stay on this origin (a CDN's path rewrite, a trailing
   * slash). A redirect to another host is refused: the edge fetches only from the origins it is
   * configured for, and a player sent there would bypass the edge.
   */
  async #requestFollowing(path: string, signal: AbortSignal | undefined, headers: Record<string, string> | undefined): Promise<{ res: Dispatcher.ResponseData; path: string }> {
    let current = path;
    for (let hop = 0; ; hop++) {
      const res = await this.#pool.request({ path: `${this.#basePath}${current}`, method: 'GET', signal, headers });
      if (!REDIRECTS.has(res.statusCode)) return { res, path: current };
      await res.body.dump();
      const location = res.headers['location'];
      const next = typeof location === 'string' ? this.#sameOriginPath(location, current) : undefined;
      if (next === undefined || hop >= MAX_REDIRECTS) {
        throw new EdgeError('ERR_EDGE_ORIGIN_REDIRECT', `origin redirected ${path} to ${String(location).slice(0, 200)}${next === undefined ? ' (not this origin)' : ' (too many redirects)'}`, { path, status: res.statusCode, location });
      }
      current = next;
    }
  }

  /** The origin-relative path of a redirect target, if it is on this origin under its base path. */
  #sameOriginPath(location: string, from: string): string | undefined {
    let u: URL;
    try {
      u = new URL(location, this.absolute(from));
    } catch {
      return undefined;
    }
    if (u.origin !== this.#origin || !u.pathname.startsWith(`${this.#basePath}/`)) return undefined;
    return `${u.pathname.slice(this.#basePath.length)}${u.search}`;
  }

  #report(path: string, kind: FetchKind, outcome: FetchOutcome, status: number | undefined, bytes: number, ttfbMs: number | undefined, t0: number, parts = 1, span?: FlowSpan, probe?: ConnectionProbe): void {
    const meanFlows = span?.close();
    this.#o.onFetch({
      origin: this.name, path, kind, outcome, status, bytes, ttfbMs, totalMs: performance.now() - t0, parts,
      ...(meanFlows === undefined ? {} : { meanFlows }),
      ...(probe?.bytesBefore === undefined ? {} : { connectionBytesBefore: probe.bytesBefore }),
      ...(probe?.idleMs === undefined ? {} : { connectionIdleMs: probe.idleMs }),
      ...(probe?.burstAtMs === undefined ? {} : { burstBytes: probe.burstBytes, burstMs: probe.burstAtMs - probe.t0 }),
    });
  }
}

/** A non-200 origin answer as an error that keeps the status and the origin's Retry-After. */
function statusError(path: string, status: number, headers: Dispatcher.ResponseData['headers'], what = ''): EdgeError {
  const retryAfter = headers['retry-after'];
  return new EdgeError('ERR_EDGE_ORIGIN_STATUS', `origin answered ${status}${what} for ${path}`, {
    path,
    status,
    ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
  });
}

/** Whether a response may be kept: the core's rule (isStorable), the one the service worker applies too. */
function isStorable(headers: Dispatcher.ResponseData['headers']): boolean {
  const h = (name: string): string | undefined => (headers[name] === undefined ? undefined : String(headers[name]));
  return storableRule({ cacheControl: h('cache-control'), contentLength: h('content-length'), transferEncoding: h('transfer-encoding') });
}

/** The version of an object as its validators name it (parts of one fetch must agree). */
function validators(headers: Dispatcher.ResponseData['headers']): string {
  return `${String(headers['etag'] ?? '')}|${String(headers['last-modified'] ?? '')}`;
}

function contentLength(headers: Dispatcher.ResponseData['headers']): number | undefined {
  const v = headers['content-length'];
  if (typeof v !== 'string') return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** `Content-Range: bytes a-b/total` of a 206, or undefined. */
function contentRange(headers: Dispatcher.ResponseData['headers']): { start: number; end: number; total: number } | undefined {
  const v = headers['content-range'];
  const m = typeof v === 'string' ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(v.trim()) : null;
  if (m === null) return undefined;
  const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return Number.isSafeInteger(total) && start <= end && end < total ? { start, end, total } : undefined;
}

function keptHeaders(headers: Dispatcher.ResponseData['headers']): EntryHeaders {
  const out: EntryHeaders = {};
  for (const h of KEPT_HEADERS) {
    const v = headers[h];
    if (typeof v === 'string') out[h] = v;
  }
  return out;
}
