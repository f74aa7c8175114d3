import { Client, type Dispatcher } from 'undici';

/** One connection lent to one request; `release(true)` once its body is read, `release(false)` when the request failed. */
export interface Lease {
  readonly dispatcher: Dispatcher;
  /** The connection's number in this pool, from 1 (recorded per request: which flow carried it). */
  readonly connection: number;
  /** Requests this connection had finished before this one: 0 means a fresh TCP flow (slow start). */
  readonly previousRequests: number;
  /** Not ok: the connection is closed and leaves the pool (a browser drops a socket whose request failed or was cancelled). */
  release(ok: boolean): void;
}

export interface ConnectionPool {
  /** Waits for a connection to `origin` when all `maxPerOrigin` are busy; rejects when `signal` aborts. */
  acquire(origin: string, signal: AbortSignal): Promise<Lease>;
  /** Connections kept for `origin` now, busy or idle (at most maxPerOrigin). */
  connections(origin: string): number;
  destroy(): Promise<void>;
}

export interface ConnectionPoolOptions {
  /** Browsers open at most 6 HTTP/1.1 connections per host. */
  maxPerOrigin: number;
  keepAliveTimeoutMs: number;
  /** Distinct origins kept; past it the least recently used origin whose connections are all idle is closed. */
  maxOrigins: number;
  localAddress?: string;
}

interface Conn {
  readonly id: number;
  readonly client: Client;
  busy: boolean;
  finished: number;
  /** When it last went idle (a pool-wide sequence number, not a time). */
  releasedAt: number;
  /** Its socket closed while a request was on it: dropped when that request releases it. */
  closed: boolean;
}

interface OriginConns {
  readonly origin: string;
  conns: Conn[];
  waiters: Array<(c: Conn) => void>;
  lastUse: number;
}

/**
 * A per-origin connection pool that reuses connections as Chromium's socket pool does, not as
 * undici's Pool does. undici lends the first idle connection in creation order; Chromium
 * (TransportClientSocketPool::AssignIdleSocketToRequest) lends the idle socket that was used most
 * recently, and a never-used one only when no used one is idle. Over a long-RTT path that choice
 * is the difference between a segment on a warm flow and one in slow start, so a virtual
 * receiver that is to stall when hls.js stalls has to make the same choice.
 */
export function createConnectionPool(o: ConnectionPoolOptions): ConnectionPool {
  const origins = new Map<string, OriginConns>();
  let seq = 0;
  let nextId = 1;

  function pick(oc: OriginConns): Conn | undefined {
    let best: Conn | undefined;
    for (const c of oc.conns) {
      if (c.busy) continue;
      if (c.finished > 0) {
        if (!best || best.finished === 0 || c.releasedAt > best.releasedAt) best = c;
      } else if (!best) best = c;
    }
    if (best) return best;
    if (oc.conns.length < o.maxPerOrigin) {
      const c: Conn = {
        id: nextId++,
        client: new Client(oc.origin, {
          keepAliveTimeout: o.keepAliveTimeoutMs,
          ...(o.localAddress ? { localAddress: o.localAddress } : {}),
        }),
        busy: false,
        finished: 0,
        releasedAt: 0,
        closed: false,
      };
      // A closed connection (the server's or undici's keep-alive timeout) would reconnect inside
      // the same Client as a fresh flow: like a browser discarding a dead idle socket, it leaves
      // the pool when idle, and a busy one's request fails and is dropped by release(false).
      c.client.on('disconnect', () => {
        if (c.busy) {
          c.closed = true;
          return;
        }
        drop(oc, c);
      });
      oc.conns.push(c);
      return c;
    }
    return undefined;
  }

  function drop(oc: OriginConns, c: Conn): void {
    const i = oc.conns.indexOf(c);
    if (i >= 0) oc.conns.splice(i, 1);
    void c.client.destroy().catch(() => undefined);
  }

  function lease(oc: OriginConns, c: Conn): Lease {
    c.busy = true;
    let released = false;
    return {
      dispatcher: c.client,
      connection: c.id,
      previousRequests: c.finished,
      release(ok) {
        if (released) return;
        released = true;
        if (!ok || c.closed) {
          drop(oc, c);
          // The freed slot goes to the first waiter, as a fresh connection.
          const fresh = oc.waiters.length > 0 ? pick(oc) : undefined;
          if (fresh) oc.waiters.shift()!(fresh);
          return;
        }
        c.finished += 1;
        c.releasedAt = ++seq;
        const next = oc.waiters.shift();
        if (next) next(c);
        else c.busy = false;
      },
    };
  }

  function trimOrigins(): void {
    if (origins.size <= o.maxOrigins) return;
    const idle = [...origins.entries()]
      .filter(([, oc]) => oc.conns.every((c) => !c.busy) && oc.waiters.length === 0)
      .sort((a, b) => a[1].lastUse - b[1].lastUse);
    for (const [key, oc] of idle) {
      if (origins.size <= o.maxOrigins) break;
      origins.delete(key);
      for (const c of oc.conns) void c.client.close().catch(() => undefined);
    }
  }

  return {
    acquire(origin, signal) {
      let oc = origins.get(origin);
      if (!oc) {
        oc = { origin, conns: [], waiters: [], lastUse: 0 };
        origins.set(origin, oc);
        trimOrigins();
      }
      oc.lastUse = ++seq;
      const here = oc;
      const c = pick(here);
      if (c) return Promise.resolve(lease(here, c));
      if (signal.aborted) return Promise.reject(signal.reason);
      return new Promise<Lease>((resolve, reject) => {
        const waiter = (conn: Conn) => {
          signal.removeEventListener('abort', onAbort);
          resolve(lease(here, conn));
        };
        const onAbort = () => {
          const i = here.waiters.indexOf(waiter);
          if (i >= 0) here.waiters.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        here.waiters.push(waiter);
      });
    },
    connections(origin) {
      return origins.get(origin)?.conns.length ?? 0;
    },
    async destroy() {
      const all = [...origins.values()].flatMap((oc) => oc.conns);
      origins.clear();
      await Promise.all(all.map((c) => c.client.destroy().catch(() => undefined)));
    },
  };
}
