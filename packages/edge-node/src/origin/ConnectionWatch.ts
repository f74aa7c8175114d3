import diagnostics from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

/** undici publishes every HTTP/1.1 request's socket here, as its headers go out. */
const SEND_HEADERS = 'undici:client:sendHeaders';

/** The head of a segment fetch timed for how fast its window opened (see burstBytes). */
export const BURST_BYTES = 1024 * 1024;

/** What a single-flow segment fetch learns of the connection that carried it, and of its head. */
export interface ConnectionProbe {
  /** When the request was made (performance.now ms), and when its first burstBytes were in. */
  t0: number;
  burstBytes: number | undefined;
  burstAtMs: number | undefined;
  /** Bytes the connection had received before this request (0: a new connection). */
  bytesBefore: number | undefined;
  /** The connection's longest idle gap since it last carried a segment, this request's included. */
  idleMs: number | undefined;
  socket: object | undefined;
}

/**
 * Which pooled connection carries each single-flow segment fetch, and how long that connection
 * had been idle: undici's request result does not say which connection carried it; its
 * diagnostics channel does, as the headers are written. One per origin client, subscribed from
 * construction until close().
 */
export class ConnectionWatch {
  /**
   * Single-flow segment fetches in flight, by the path sent (at most the scheduler's running
   * fetches; each fetch removes its own).
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
  /** The RTT estimate now (ms), for how long a manifest keeps its connection busy. */
  readonly #rttMs: () => number | undefined;

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
    // A probed fetch marks its end itself (done()); anything else (a manifest: one small
    // response) is taken to end a round trip after it went out.
    const lastMs = probe !== undefined ? now : now + (this.#rttMs() ?? 0);
    if (a === undefined) this.#activity.set(socket, { lastMs, maxGapMs: 0 });
    else a.lastMs = Math.max(a.lastMs, lastMs);
  };

  constructor(rttMs: () => number | undefined) {
    this.#rttMs = rttMs;
    diagnostics.subscribe(SEND_HEADERS, this.#onSendHeaders);
  }

  /** A connection of this client's pool opened. */
  add(socket: object): void {
    this.#sockets.add(socket);
  }

  /**
   * Watch the request about to be sent for `sent` (the path on the wire), made at `t0`
   * (performance.now ms). Two fetches of one path at once (not coalesced: a cache entry
   * replaced): the later probe replaces the earlier, and the earlier reports no connection.
   */
  watch(sent: string, t0: number): ConnectionProbe {
    const probe: ConnectionProbe = {
      t0,
      burstBytes: undefined,
      burstAtMs: undefined,
      bytesBefore: undefined,
      idleMs: undefined,
      socket: undefined,
    };
    this.#probes.set(sent, probe);
    return probe;
  }

  /** The fetch of `sent` is over: its connection carried a segment just now. */
  done(sent: string, probe: ConnectionProbe): void {
    if (probe.socket !== undefined) this.#activity.set(probe.socket, { lastMs: performance.now(), maxGapMs: 0 });
    if (this.#probes.get(sent) === probe) this.#probes.delete(sent);
  }

  close(): void {
    diagnostics.unsubscribe(SEND_HEADERS, this.#onSendHeaders);
  }
}
