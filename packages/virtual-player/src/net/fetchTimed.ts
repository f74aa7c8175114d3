import type { ConnectionPool } from './createConnectionPool.js';
import { VirtualPlayerError, VirtualPlayerErrorCodes } from '../VirtualPlayerError.js';

export interface TimedResponse {
  /** The URL that answered (after redirects): relative URIs resolve against it, as in a browser. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body when `keepBody`, else empty (segments are counted, not kept). */
  body: Buffer;
  bytes: number;
  /** Request sent, first body byte, last body byte, ms on the player's clock. */
  requestStart: number;
  firstByte: number;
  lastByte: number;
  /** The pool's connection that carried the final hop, and how many requests it had finished before. */
  connection: number;
  previousRequests: number;
}

export interface FetchTimedOptions {
  keepBody: boolean;
  signal: AbortSignal;
  now: () => number;
  /** No first byte within this (hls.js `maxTimeToFirstByteMs`): an ERR_VPLAYER_HTTP with `timeout: true`. */
  firstByteTimeoutMs?: number;
}

const MAX_REDIRECTS = 5;

/**
 * One GET over the player's own connection pool (real kernel sockets, undici), timed like the
 * probe's loaders time a request. Follows redirects; any non-2xx is an ERR_VPLAYER_HTTP. The
 * connection goes back to the pool once the body is read, as a browser's socket does.
 */
export async function fetchTimed(pool: ConnectionPool, url: string, o: FetchTimedOptions): Promise<TimedResponse> {
  const requestStart = o.now();
  let current = url;
  const timeoutAbort = new AbortController();
  const onAbort = () => timeoutAbort.abort(o.signal.reason);
  o.signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer =
    o.firstByteTimeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          timeoutAbort.abort(new Error('first byte timeout'));
        }, o.firstByteTimeoutMs);
  try {
    for (let hop = 0; ; hop++) {
      const u = new URL(current);
      const lease = await pool.acquire(u.origin, timeoutAbort.signal);
      let ok = false;
      try {
        const res = await lease.dispatcher.request({
          origin: u.origin,
          path: u.pathname + u.search,
          method: 'GET',
          signal: timeoutAbort.signal,
        });
        if (res.statusCode >= 300 && res.statusCode < 400 && typeof res.headers.location === 'string' && hop < MAX_REDIRECTS) {
          await res.body.dump();
          ok = true;
          current = new URL(res.headers.location, current).href;
          continue;
        }
        if (res.statusCode < 200 || res.statusCode >= 300) {
          const text = (await res.body.text()).slice(0, 200).trim();
          ok = true;
          throw new VirtualPlayerError(
            VirtualPlayerErrorCodes.HTTP,
            `GET ${current} answered ${res.statusCode}${text ? `: ${text}` : ''}`,
            { url: current, status: res.statusCode },
          );
        }
        const chunks: Buffer[] = [];
        let bytes = 0;
        let firstByte = 0;
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          if (firstByte === 0) {
            firstByte = o.now();
            if (timer) clearTimeout(timer);
          }
          bytes += chunk.length;
          if (o.keepBody) chunks.push(chunk);
        }
        const lastByte = o.now();
        ok = true;
        return {
          url: current,
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks),
          bytes,
          requestStart,
          firstByte: firstByte || lastByte,
          lastByte,
          connection: lease.connection,
          previousRequests: lease.previousRequests,
        };
      } finally {
        lease.release(ok);
      }
    }
  } catch (e) {
    if (e instanceof VirtualPlayerError) throw e;
    if (o.signal.aborted) throw e;
    throw new VirtualPlayerError(
      VirtualPlayerErrorCodes.HTTP,
      `GET ${current} failed: ${timedOut ? `no first byte within ${o.firstByteTimeoutMs} ms` : (e as Error).message}`,
      { url: current, timeout: timedOut },
    );
  } finally {
    if (timer) clearTimeout(timer);
    o.signal.removeEventListener('abort', onAbort);
  }
}

/** A header as one string (the first when repeated). */
export function header(h: TimedResponse['headers'], name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}
