import type { OriginFetchReport } from '../origin/OriginFetchReport.js';

export type PolicyGroup = 'hold-0' | 'hold-x';

/** Every event the edge publishes, with its payload (hls.js-style listener map). */
export interface EdgeEventMap {
  /** A stream got its first manifest request: its poller starts. */
  'stream-start': { stream: string };
  /** A stream had no receivers for streamIdleMs: poller stopped. */
  'stream-idle': { stream: string };
  /** One origin fetch finished (any outcome). */
  'origin-fetch': OriginFetchReport;
  /** A receiver session joined a policy group, or moved hold-0 → hold-x. */
  'session-group': { session: string; stream: string; from: PolicyGroup | undefined; to: PolicyGroup; ranMbps: number };
  /** A receiver handed over from another edge of the fleet (a valid session token) was adopted with its state. */
  'session-adopted': { session: string; stream: string; from: string; group: PolicyGroup | undefined; x: number; requests: number };
  /** A receiver was sent to the origin because its radio is slower than the bitrate (eq. 3). */
  redirect: { session: string; stream: string; location: string; ranMbps: number; bitrateMbps: number };
  /** The origin's manifest is broken/unreachable; the last good one is served. */
  'manifest-stale': { stream: string; ageMs: number; error: string };
  /**
   * A receiver asked for a segment: whether the edge had it whole (`hit`), was still fetching it
   * (`coalesced`: `bytesAtEdge` of it had arrived) or had not asked the origin yet (`miss`).
   */
  'segment-request': {
    origin: string;
    path: string;
    result: 'hit' | 'coalesced' | 'miss';
    bytesAtEdge: number;
    receiver?: string;
    stream?: string;
  };
  /** A player's CMCD `nor` named an object no stream's planner covers: the edge prefetched it. */
  'prefetch-hint': { origin: string; path: string; from: string };
  /**
   * A receiver got a manifest: its session (the CMCD sid or the edge's token), the stream, and
   * what the edge decided for it — x held (0: none), its policy group.
   */
  'manifest-request': { session: string; stream: string; hold: number; group: PolicyGroup | undefined };
  /** Segments (origin paths without query) appeared in a stream's window: the edge saw them listed at `at`. */
  'segment-listed': { stream: string; origin: string; paths: string[]; at: number };
  /** The hold x of a stream changed (auto mode), with the backhaul rate (Mbit/s) it was decided on. */
  'hold-change': { stream: string; hold: number; reason: string; backhaulMbps: number };
  /** The parts held of a low-latency stream changed (holdParts 'auto'), with the model's inputs. */
  'part-hold-change': {
    stream: string;
    from: number;
    to: number;
    reason: string;
    rttMs: number | undefined;
    bitrateMbps: number | undefined;
  };
  /** Something failed that the edge handled (never thrown to the process). */
  error: { where: string; error: Error };
}

type Listener = (payload: never) => void;

/**
 * Typed emitter. A listener that throws becomes an 'error' event instead of a crash. Each event's
 * listeners are an array replaced, never changed, when one is added or removed: `emit` (per
 * manifest and segment request) walks the array it finds, with no copy, and a listener added or
 * removed meanwhile takes effect from the next emit (as with Node's EventEmitter).
 */
export class EdgeEvents {
  readonly #listeners = new Map<keyof EdgeEventMap, readonly Listener[]>();

  on<K extends keyof EdgeEventMap>(event: K, listener: (payload: EdgeEventMap[K]) => void): () => void {
    this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), listener as Listener]);
    return () => this.#off(event, listener as Listener);
  }

  once<K extends keyof EdgeEventMap>(event: K, listener: (payload: EdgeEventMap[K]) => void): void {
    const off = this.on(event, (payload) => {
      off();
      listener(payload);
    });
  }

  emit<K extends keyof EdgeEventMap>(event: K, payload: EdgeEventMap[K]): void {
    const listeners = this.#listeners.get(event);
    if (listeners === undefined) return;
    for (const l of listeners) {
      try {
        (l as (p: EdgeEventMap[K]) => void)(payload);
      } catch (error) {
        if (event !== 'error') this.emit('error', { where: `listener of ${event}`, error: error as Error });
      }
    }
  }

  removeAll(): void {
    this.#listeners.clear();
  }

  #off(event: keyof EdgeEventMap, listener: Listener): void {
    const now = this.#listeners.get(event);
    if (now === undefined) return;
    // The last one added first, as EventEmitter's off: the same listener added twice goes once per off.
    const i = now.lastIndexOf(listener);
    if (i < 0) return;
    const left = now.slice(0, i).concat(now.slice(i + 1));
    if (left.length === 0) this.#listeners.delete(event);
    else this.#listeners.set(event, left);
  }
}
