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
  /** Concurrent byte ranges the object came in (1 = one request): its rate is not one flow's. */
  parts: number;
  /**
   * Segments only: time-weighted mean number of segment flows open to this origin while this one
   * ran, its own included (1 = it had the backhaul to itself). See FlowMeter.
   */
  meanFlows?: number;
}

/** Fetch one segment as this many concurrent byte ranges, sized from an estimate of its length. */
export interface SplitFetch {
  parts: number;
  approxBytes: number;
}

/** Below this many bytes per part a range split costs more round trips than it saves. */
const MIN_PART_BYTES = 256 * 1024;

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
  readonly flows = new FlowMeter(() => performance.now());
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
      // Segments use `connections` (twice: a fetch split into ranges takes several), manifests
      // get two more so a poll never waits behind bulk.
      connections: o.connections * 2 + 2,
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
  fetchInto(path: string, entry: CacheEntry, priority: FetchPriority, split?: SplitFetch): void {
    const kind = priority === 'player' ? 'segment' : 'prefetch';
    const parts = split === undefined ? 1 : Math.min(split.parts, Math.floor(split.approxBytes / MIN_PART_BYTES));
    this.#scheduler.enqueue(entry.key, priority, () =>
      parts >= 2 ? this.#fetchRanges(path, entry, kind, parts, split!.approxBytes) : this.#fetchInto(path, entry, kind),
    );
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
    const span = this.flows.start(1);
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
      inBody = true;
      await this.#readWhole(path, entry, res);
      this.#report(path, kind, 'ok', status, entry.bytes, ttfb, t0, 1, span);
    } catch (e) {
      this.#fail(path, entry, kind, toEdgeError(e, path, inBody), status, ttfb, t0, 1, span);
    }
  }

  /** A 200 response's body into the entry, checked against its Content-Length, then ended. */
  async #readWhole(path: string, entry: CacheEntry, res: Dispatcher.ResponseData): Promise<void> {
    const expected = contentLength(res.headers);
    // The origin says not to store it (e.g. a stats or admin endpoint): coalesce, don't keep.
    const storable = !NO_STORE.test(String(res.headers['cache-control'] ?? ''));
    if (expected !== undefined && storable) this.#o.cache.admit(entry, expected);
    entry.setHeaders(keptHeaders(res.headers), expected);
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      if (expected !== undefined && entry.bytes + chunk.length > expected) {
        res.body.destroy();
        throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `origin sent more than Content-Length for ${path}`, { path });
      }
      entry.push(chunk);
    }
    this.#finish(path, entry, expected, storable);
  }

  #finish(path: string, entry: CacheEntry, expected: number | undefined, storable: boolean): void {
    if (expected !== undefined && entry.bytes !== expected) {
      throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `segment ${path}: ${entry.bytes} of ${expected} bytes`, { path, bytes: entry.bytes, expected });
    }
    if (expected === undefined && storable) this.#o.cache.admit(entry, entry.bytes);
    entry.end();
    // Not admitted (cache full): it was served through to its readers; drop it now.
    if (!entry.admitted) this.#o.cache.release(entry);
  }

  #fail(path: string, entry: CacheEntry, kind: FetchKind, err: EdgeError, status: number | undefined, ttfb: number | undefined, t0: number, parts: number, span: FlowSpan): void {
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
   * the whole object (200): that response is used and the other parts are dropped.
   */
  async #fetchRanges(path: string, entry: CacheEntry, kind: FetchKind, parts: number, approxBytes: number): Promise<void> {
    const t0 = performance.now();
    // Counted as `parts` flows throughout, even when an origin that ignores Range sends the whole
    // object on one: that one start-segment fetch then looks like a burst and is not a sample.
    const span = this.flows.start(parts);
    const size = Math.ceil(approxBytes / parts);
    const aborts = Array.from({ length: parts }, () => new AbortController());
    const full = `${this.#basePath}${path}`;
    const pending = aborts.map((ac, i) =>
      this.#pool.request({ path: full, method: 'GET', signal: ac.signal, headers: { range: i === parts - 1 ? `bytes=${i * size}-` : `bytes=${i * size}-${(i + 1) * size - 1}` } }),
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
        inBody = true;
        await this.#readWhole(path, entry, first);
        this.#report(path, kind, 'ok', status, entry.bytes, ttfb, t0, 1, span);
        return;
      }
      const r0 = status === 206 ? contentRange(first.headers) : undefined;
      if (r0 === undefined || r0.start !== 0) {
        await first.body.dump();
        throw new EdgeError('ERR_EDGE_ORIGIN_STATUS', `origin answered ${status} to a byte range of ${path}`, { path, status });
      }
      const total = r0.total;
      const storable = !NO_STORE.test(String(first.headers['cache-control'] ?? ''));
      if (storable) this.#o.cache.admit(entry, total);
      entry.setHeaders(keptHeaders(first.headers), total);
      inBody = true;
      const asm = new RangeAssembler(parts, (c) => entry.push(c));
      const read = async (i: number, res: Dispatcher.ResponseData, want: number): Promise<void> => {
        let got = 0;
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          got += chunk.length;
          if (got > want) throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `origin sent more than range ${i} of ${path}`, { path });
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
      this.#finish(path, entry, total, storable);
      this.#report(path, kind, 'ok', status, entry.bytes, ttfb, t0, parts, span);
    } catch (e) {
      abortFrom(0);
      this.#fail(path, entry, kind, toEdgeError(e, path, inBody), status, ttfb, t0, parts, span);
    }
  }

  #request(path: string): Promise<Dispatcher.ResponseData> {
    return this.#pool.request({ path: `${this.#basePath}${path}`, method: 'GET' });
  }

  #report(path: string, kind: FetchKind, outcome: FetchOutcome, status: number | undefined, bytes: number, ttfbMs: number | undefined, t0: number, parts = 1, span?: FlowSpan): void {
    const meanFlows = span?.close();
    this.#o.onFetch({ origin: this.name, path, kind, outcome, status, bytes, ttfbMs, totalMs: performance.now() - t0, parts, ...(meanFlows === undefined ? {} : { meanFlows }) });
  }
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
