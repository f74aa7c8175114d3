import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { clientKey } from './clientKey.js';

interface Connection {
  raw: Socket;
  client: string;
  /** Responses started on this connection and not yet closed (flushed to the kernel, or aborted). */
  active: number;
}

/** The connection a response started on (set as it starts, read and cleared on its 'close'). */
const CONNECTION = Symbol('ethle.connection');
type TrackedResponse = ServerResponse & { [CONNECTION]?: Connection | undefined };

export interface DrainResult {
  drainedMs: number;
  /** Connections still carrying a response when the drain time ran out, cut. */
  cut: number;
}

/**
 * The receiver connections of one edge server: how many are open, per client (clientKey) and in
 * all; a per-client limit so one client cannot take every slot of the global `maxConnections`
 * (its connections beyond the limit are closed at once, `onRefused('per_client')`); and a drain
 * that stops accepting and lets responses finish.
 *
 * Node's own `closeIdleConnections()` (which `server.close()` calls) counts a connection as idle
 * once its response has been *ended*, and an ended response can still have megabytes queued in
 * user space for a slow reader (serveEntry hands a cached segment over in one write): such
 * readers were cut mid-segment on every close. Here a connection is busy from its request until
 * its response's 'close' (after 'finish': every byte handed to the kernel), and the server's
 * `closeIdleConnections` is replaced by one that closes only idle connections — whoever calls
 * `server.close()` (the drain, node:cluster disconnecting a worker).
 *
 * Bounded: one entry per open connection (≤ maxConnections) and per client with a connection.
 */
export class ReceiverConnections {
  readonly #byRaw = new Map<Socket, Connection>();
  readonly #perClient = new Map<string, number>();
  readonly #server: Server;
  readonly #maxPerClient: number;
  readonly #onRefused: (client: string) => void;
  #draining = false;
  /** Every response's 'close' listener, one for all (hot path: no closure, no once-wrapper per request). */
  readonly #responseClosed: (this: TrackedResponse) => void;

  constructor(server: Server, o: { maxPerClient: number; onRefused: (client: string) => void }) {
    this.#server = server;
    const closed = (res: TrackedResponse): void => {
      const c = res[CONNECTION];
      if (c === undefined) return;
      res[CONNECTION] = undefined;
      c.active -= 1;
      if (this.#draining && c.active === 0) c.raw.destroy();
    };
    this.#responseClosed = function (this: TrackedResponse) {
      closed(this);
    };
    this.#maxPerClient = o.maxPerClient;
    this.#onRefused = o.onRefused;
    // TLS: 'connection' is the TCP socket, before the handshake: a refusal costs no handshake.
    server.on('connection', (s: Socket) => this.#onConnection(s));
    server.closeIdleConnections = () => this.#closeIdle();
  }

  /** Connections open now. */
  get size(): number {
    return this.#byRaw.size;
  }

  /** Clients (clientKey) with at least one connection open. */
  get clients(): number {
    return this.#perClient.size;
  }

  /**
   * Stop accepting; close idle connections now and each busy one as its last response closes
   * (responses started meanwhile say `connection: close`); after `maxMs`, cut what is left.
   * Resolves when every connection is gone.
   */
  drain(maxMs: number): Promise<DrainResult> {
    const t0 = Date.now();
    this.#draining = true;
    return new Promise((resolve) => {
      let cut = 0;
      const timer = setTimeout(() => {
        for (const [raw, c] of this.#byRaw) {
          if (c.active > 0) cut += 1;
          raw.destroy();
        }
      }, maxMs);
      // Calls closeIdleConnections (ours), then waits for every connection to close.
      this.#server.close(() => {
        clearTimeout(timer);
        resolve({ drainedMs: Date.now() - t0, cut });
      });
    });
  }

  /** Called by `server.close()`: the server is closing, so busy connections close once idle too. */
  #closeIdle(): void {
    this.#draining = true;
    for (const [raw, c] of this.#byRaw) if (c.active === 0) raw.destroy();
  }

  #onConnection(raw: Socket): void {
    const client = clientKey(raw.remoteAddress);
    const n = this.#perClient.get(client) ?? 0;
    if (this.#draining) {
      raw.destroy();
      return;
    }
    if (n >= this.#maxPerClient) {
      raw.destroy();
      this.#onRefused(client);
      return;
    }
    this.#perClient.set(client, n + 1);
    this.#byRaw.set(raw, { raw, client, active: 0 });
    raw.once('close', () => {
      this.#byRaw.delete(raw);
      const left = (this.#perClient.get(client) ?? 1) - 1;
      if (left <= 0) this.#perClient.delete(client);
      else this.#perClient.set(client, left);
    });
  }

  /**
   * A request arrived: its connection is busy until its response closes. Called by the server's
   * one 'request' listener before the router (which may answer synchronously).
   */
  track(req: IncomingMessage, res: TrackedResponse): void {
    // TLS: the request's socket wraps the TCP one (Node keeps it as `_parent`).
    const raw = ((req.socket as Socket & { _parent?: Socket })._parent ?? req.socket) as Socket;
    const c = this.#byRaw.get(raw);
    if (c === undefined) return;
    c.active += 1;
    if (this.#draining) res.shouldKeepAlive = false;
    res[CONNECTION] = c;
    res.on('close', this.#responseClosed);
  }
}
