import { performance } from 'node:perf_hooks';
import { Pool, buildConnector, errors as undiciErrors } from 'undici';
import type { Dispatcher } from 'undici';
import type { SegmentCache } from '../cache/SegmentCache.js';
import type { CacheEntry, EntryHeaders } from '../cache/CacheEntry.js';
import { EdgeError } from '../errors/EdgeError.js';
import { FetchScheduler, type FetchPriority } from './FetchScheduler.js';
import { RttEstimator } from './RttEstimator.js';

export type FetchKind = 'manifest' | 'segment' | 'prefetch';
export type FetchOutcome = 'ok' | 'timeout' | 'status' | 'truncated' | 'unreachable' | 'too_large' | 'closed';

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
}

export interface OriginClientOptions {
  name: string;
  url: string;
  /** Concurrent origin fetches (each on its own TCP connection). */
  connections: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  cache: SegmentCache;
  onFetch: (report: OriginFetchReport) => void;
}

/** Headers of an origin segment response worth replaying to receivers. */
const KEPT_HEADERS = ['content-type', 'x-ethle-production-start', 'x-ethle-production-end', 'last-modified', 'etag'];
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const NO_STORE = /no-store|no-cache|private|max-age=0(?!\d)/i;

function outcomeOf(e: EdgeError): FetchOutcome {
  switch (e.code) {
    case 'ERR_EDGE_ORIGIN_TIMEOUT': return 'timeout';
    case 'ERR_EDGE_ORIGIN_STATUS': return 'status';
    case 'ERR_EDGE_ORIGIN_TRUNCATED': return 'truncated';
    case 'ERR_EDGE_ORIGIN_TOO_LARGE': return 'too_large';
    case 'ERR_EDGE_CLOSED': return 'closed';
    default: return 'unreachable';
  }
}

/** Map an undici/socket error to the edge's catalogue. `inBody` = headers had arrived. */
function toEdgeError(e: unknown, path: string, inBody: boolean): EdgeError {
  if (e instanceof EdgeError) return e;
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
 * really are parallel TCP connections, as the paper's x connections are), a priority scheduler
 * for segment fetches, and the edge's own RTT measurement from connect times and TTFB.
 */
export class OriginClient {
  readonly name: string;
  readonly url: string;
  readonly rtt = new RttEstimator();
  readonly #pool: Pool;
  readonly #scheduler: FetchScheduler;
  readonly #o: OriginClientOptions;
  readonly #basePath: string;

  constructor(o: OriginClientOptions) {
    this.#o = o;
    this.name = o.name;
    this.url = o.url;
    const u = new URL(o.url);
    this.#basePath = u.pathname === '/' ? '' : u.pathname;
    const connect = buildConnector({});
    this.#pool = new Pool(u.origin, {
      // Segments use `connections`; manifests get two more so a poll never waits behind bulk.
      connections: o.connections + 2,
      pipelining: 1,
      headersTimeout: o.headersTimeoutMs,
      bodyTimeout: o.bodyTimeoutMs,
      connect: (opts, cb) => {
        const t0 = performance.now();
        connect(opts, (err, socket) => {
          if (err === null) this.rtt.add('connect', performance.now() - t0, Date.now());
          cb(err, socket as never);
        });
      },
    });
    this.#scheduler = new FetchScheduler(o.connections);
  }

  /** Full origin URL of an edge-relative origin path (for redirects). */
  absolute(path: string): string {
    return `${new URL(this.url).origin}${this.#basePath}${path}`;
  }

  /** Fetch a manifest as text (not scheduled behind segments; manifests are small and urgent). */
  async fetchText(path: string): Promise<{ text: string; headers: EntryHeaders }> {
    const t0 = performance.now();
    let ttfb: number | undefined;
    let status: number | undefined;
    let bytes = 0;
    let inBody = false;
    try {
      const res = await this.#request(path);
      ttfb = performance.now() - t0;
      this.rtt.add('ttfb', ttfb, Date.now());
      status = res.statusCode;
      if (status !== 200) {
        await res.body.dump();
        throw new EdgeError('ERR_EDGE_ORIGIN_STATUS', `origin answered ${status} for ${path}`, { path, status });
      }
      inBody = true;
      const expected = contentLength(res.headers);
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
      return { text: Buffer.concat(chunks).toString('utf8'), headers: keptHeaders(res.headers) };
    } catch (e) {
      const err = toEdgeError(e, path, inBody);
      this.#report(path, 'manifest', outcomeOf(err), status, bytes, ttfb, t0);
      throw err;
    }
  }

  /**
   * Fetch a segment into a pending cache entry through the priority scheduler. Never rejects:
   * failures go into the entry (readers see them) and into the report.
   */
  fetchInto(path: string, entry: CacheEntry, priority: FetchPriority): void {
    this.#scheduler.enqueue(entry.key, priority, () => this.#fetchInto(path, entry, priority === 'player' ? 'segment' : 'prefetch'));
  }

  /**
   * GET the origin's base URL: keeps a pooled connection open (the server's keep-alive timeout
   * would close an idle one) and adds a TTFB sample to the RTT estimate. Any status will do; a
   * failure is only a missing sample. Not HEAD: undici closes the connection after a HEAD.
   */
  async probe(): Promise<void> {
    const t0 = performance.now();
    try {
      const res = await this.#pool.request({ path: this.#basePath === '' ? '/' : `${this.#basePath}/`, method: 'GET' });
      this.rtt.add('ttfb', performance.now() - t0, Date.now());
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

  async close(): Promise<void> {
    this.#scheduler.close();
    await this.#pool.destroy();
  }

  async #fetchInto(path: string, entry: CacheEntry, kind: FetchKind): Promise<void> {
    const t0 = performance.now();
    let ttfb: number | undefined;
    let status: number | undefined;
    let inBody = false;
    try {
      const res = await this.#request(path);
      ttfb = performance.now() - t0;
      this.rtt.add('ttfb', ttfb, Date.now());
      status = res.statusCode;
      if (status !== 200) {
        await res.body.dump();
        throw new EdgeError('ERR_EDGE_ORIGIN_STATUS', `origin answered ${status} for ${path}`, { path, status });
      }
      const expected = contentLength(res.headers);
      // The origin says not to store it (e.g. a stats or admin endpoint): coalesce, don't keep.
      const storable = !NO_STORE.test(String(res.headers['cache-control'] ?? ''));
      if (expected !== undefined && storable) this.#o.cache.admit(entry, expected);
      entry.setHeaders(keptHeaders(res.headers), expected);
      inBody = true;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (expected !== undefined && entry.bytes + chunk.length > expected) {
          res.body.destroy();
          throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `origin sent more than Content-Length for ${path}`, { path });
        }
        entry.push(chunk);
      }
      if (expected !== undefined && entry.bytes !== expected) {
        throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `segment ${path}: ${entry.bytes} of ${expected} bytes`, { path, bytes: entry.bytes, expected });
      }
      if (expected === undefined && storable) this.#o.cache.admit(entry, entry.bytes);
      entry.end();
      // Not admitted (cache full): it was served through to its readers; drop it now.
      if (!entry.admitted) this.#o.cache.release(entry);
      this.#report(path, kind, 'ok', status, entry.bytes, ttfb, t0);
    } catch (e) {
      const err = toEdgeError(e, path, inBody);
      const bytes = entry.bytes;
      entry.fail(err);
      this.#o.cache.release(entry);
      this.#report(path, kind, outcomeOf(err), status, bytes, ttfb, t0);
    }
  }

  #request(path: string): Promise<Dispatcher.ResponseData> {
    return this.#pool.request({ path: `${this.#basePath}${path}`, method: 'GET' });
  }

  #report(path: string, kind: FetchKind, outcome: FetchOutcome, status: number | undefined, bytes: number, ttfbMs: number | undefined, t0: number): void {
    this.#o.onFetch({ origin: this.name, path, kind, outcome, status, bytes, ttfbMs, totalMs: performance.now() - t0 });
  }
}

function contentLength(headers: Dispatcher.ResponseData['headers']): number | undefined {
  const v = headers['content-length'];
  if (typeof v !== 'string') return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function keptHeaders(headers: Dispatcher.ResponseData['headers']): EntryHeaders {
  const out: EntryHeaders = {};
  for (const h of KEPT_HEADERS) {
    const v = headers[h];
    if (typeof v === 'string') out[h] = v;
  }
  return out;
}
