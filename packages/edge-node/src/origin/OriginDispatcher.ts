import { performance } from 'node:perf_hooks';
import { Pool, buildConnector, errors as undiciErrors, interceptors } from 'undici';
import type { Dispatcher } from 'undici';
import { EdgeError } from '../errors/EdgeError.js';
import { MAX_REDIRECT_BODY_BYTES, MAX_REDIRECTS, REDIRECT_STATUSES, sameOriginRedirects } from './sameOriginRedirects.js';

/**
 * How long an idle origin connection is kept at most: a few of the longest common segment
 * periods. An origin's shorter Keep-Alive hint is taken (it will close first); a longer one is
 * not, so the idle connections a busy moment opened (up to `connections`) are the edge's for this
 * long, not for whatever the origin allows (`ethle-origin` says 75 s; undici follows up to 600 s).
 */
export const ORIGIN_KEEP_ALIVE_MS = 30_000;

export interface OriginDispatcherOptions {
  /** The configured origin URL; its path is the base every request path is under. */
  url: string;
  /** Pooled connections (pipelining 1: each one request at a time). */
  connections: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** A connection was opened to the origin after `ms` (TCP, and TLS if any). */
  onConnect: (ms: number, socket: object) => void;
  /** How long an idle connection is kept at most (default ORIGIN_KEEP_ALIVE_MS). */
  keepAliveMs?: number;
}

/** A GET's request options beyond the path. */
export interface GetOptions {
  signal?: AbortSignal | undefined;
  headers?: Record<string, string> | undefined;
}

/**
 * The connections to one configured origin: an undici Pool (pipelining 1, so parallel fetches
 * really are parallel TCP connections, as the paper's x connections are), composed with undici's
 * redirect interceptor inside the same-origin guard. Paths are origin-relative (the configured
 * URL's path is put in front). A refused redirect costs no connection: its short body is read and
 * the connection kept (sameOriginRedirects bounds it).
 */
export class OriginDispatcher {
  /** The origin's `scheme://host:port`. */
  readonly origin: string;
  /** The configured URL's path ('' for the root). */
  readonly basePath: string;
  readonly #pool: Pool;
  readonly #following: Dispatcher;

  constructor(o: OriginDispatcherOptions) {
    const u = new URL(o.url);
    this.origin = u.origin;
    this.basePath = u.pathname === '/' ? '' : u.pathname;
    const connect = buildConnector({});
    this.#pool = new Pool(u.origin, {
      connections: o.connections,
      pipelining: 1,
      // Segment fetches come one per segment period: undici's 4 s default closes connections
      // between 4–10 s segments, and every fetch then pays a handshake and a slow start that a
      // kept connection does not (not even to an origin that keeps its window). An origin's
      // Keep-Alive hint takes precedence when shorter (Node's server sends 5 s; nginx by default
      // sends none) and is capped at ours when longer: the connections a burst opened (an LL
      // stream's parallel part fetches, a dozen) would otherwise stay as long as the origin says
      // (75 s from ethle-origin, up to undici's 600 s) after their last use.
      keepAliveTimeout: o.keepAliveMs ?? ORIGIN_KEEP_ALIVE_MS,
      keepAliveMaxTimeout: o.keepAliveMs ?? ORIGIN_KEEP_ALIVE_MS,
      headersTimeout: o.headersTimeoutMs,
      bodyTimeout: o.bodyTimeoutMs,
      connect: (opts, cb) => {
        const t0 = performance.now();
        connect(opts, (err, socket) => {
          if (err === null && socket !== null && typeof socket === 'object') o.onConnect(performance.now() - t0, socket);
          cb(err, socket as never);
        });
      },
    });
    // compose() wraps in order: the guard sees every hop's response before the redirect
    // interceptor around it follows one.
    this.#following = this.#pool.compose(
      sameOriginRedirects({ origin: this.origin, basePath: this.basePath }),
      interceptors.redirect({ maxRedirections: MAX_REDIRECTS }),
    );
  }

  /** Full origin URL of an origin-relative path. */
  absolute(path: string): string {
    return `${this.origin}${this.basePath}${path}`;
  }

  /**
   * GET `path`, following redirects that stay on this origin under its base path (a CDN's path
   * rewrite, a trailing slash). A redirect to another host, a loop or a fourth redirect fails
   * with ERR_EDGE_ORIGIN_REDIRECT: the edge fetches only from the origins it is configured for,
   * and a player sent there would bypass the edge. `path` in the result is where the response
   * finally came from (relative URIs in a manifest resolve against it).
   */
  async get(path: string, o: GetOptions = {}): Promise<{ res: Dispatcher.ResponseData; path: string }> {
    let res: Dispatcher.ResponseData;
    try {
      // `origin` lets the redirect interceptor resolve relative Locations and keep its history.
      res = await this.#following.request({
        origin: this.origin,
        path: `${this.basePath}${path}`,
        method: 'GET',
        signal: o.signal,
        headers: o.headers,
      });
    } catch (e) {
      // undici's loop check fires before the hop limit would: the same refusal.
      if (e instanceof undiciErrors.InvalidArgumentError && /redirect loop/i.test(e.message)) {
        throw new EdgeError('ERR_EDGE_ORIGIN_REDIRECT', `origin redirected ${path} in a loop`, { path }, { cause: e });
      }
      throw e;
    }
    // Still a redirect: the interceptor stopped following at MAX_REDIRECTS.
    if (REDIRECT_STATUSES.has(res.statusCode)) {
      // Read to its end, the connection stays pooled; a larger body is cut (the guard's bound too).
      await res.body.dump({ limit: MAX_REDIRECT_BODY_BYTES });
      const location = res.headers['location'];
      throw new EdgeError(
        'ERR_EDGE_ORIGIN_REDIRECT',
        `origin redirected ${path} to ${String(location).slice(0, 200)} (too many redirects)`,
        { path, status: res.statusCode, location },
      );
    }
    return { res, path: this.#finalPath(path, res) };
  }

  /** GET `path` as it is, redirects not followed (byte ranges, the keep-alive probe). */
  request(path: string, o: GetOptions = {}): Promise<Dispatcher.ResponseData> {
    return this.#pool.request({ path: `${this.basePath}${path}`, method: 'GET', signal: o.signal, headers: o.headers });
  }

  destroy(): Promise<void> {
    return this.#pool.destroy();
  }

  /** The redirect interceptor lists every URL a request went to in its context's `history`. */
  #finalPath(asked: string, res: Dispatcher.ResponseData): string {
    const history = (res.context as { history?: readonly URL[] } | undefined)?.history;
    const last = history !== undefined && history.length > 1 ? history[history.length - 1] : undefined;
    // Checked at every hop by the guard: on this origin, under the base path.
    return last === undefined ? asked : `${last.pathname.slice(this.basePath.length)}${last.search}`;
  }
}
