import { deltaMediaPlaylist, timerMs, type HeldManifest, type ManifestView } from '@ethle/core';
import { EdgeError } from '../errors/EdgeError.js';
import { ManifestPoller, type LoadedVersion, type ManifestPollerOptions, type PollBugWhere } from './ManifestPoller.js';
import type { StreamPrefetcher } from './StreamPrefetcher.js';
import { NODE_TIMERS, type Timers } from './Timers.js';

export interface LiveStreamOptions {
  /** Metric/event label: `{origin}{path}`. */
  key: string;
  /** Origin-relative manifest path (+ the identity query). */
  path: string;
  /** The edge's wall clock, ms. */
  now: () => number;
  timers?: Timers;
  /** Blocking reloads parked at once at most (config.maxBlockedPerStream). */
  maxBlocked: number;
  /** Where the stream's versions come from: its poller (the stream fills in what a version sets off). */
  poll: Omit<ManifestPollerOptions, 'path' | 'onVersion' | 'onSame' | 'onPlan' | 'onBug'>;
  /** The stream's prefetch: told of every version, asked to plan after every poll. */
  prefetcher: StreamPrefetcher;
  /** A new origin version was loaded (the registry reads bitrate hints, the policy its context). */
  onVersion: (view: ManifestView) => void;
  /**
   * A bug, reported and never taken for an origin outage: in what a version sets off, in planning
   * or in judging a parked request (`planner`), or in the poll itself (`manifest poll`).
   */
  onBug: (e: Error, where: PollBugWhere) => void;
}

/** One origin manifest version as the stream keeps it. */
export interface Version {
  view: ManifestView;
  text: string;
  n: number;
  /** When the origin last sent this text (the edge's clock). */
  fetchedAtMs: number;
}

/** A held text and its bytes, as receivers are sent it. `fresh` = rewritten by this call. */
export type HeldBody = HeldManifest & { body: Buffer; fresh: boolean };

/** A receiver's blocking reload waiting for a version that satisfies it. */
interface Blocked {
  satisfied: (v: Version) => boolean;
  settle: (v: Version | undefined) => void;
  timer: unknown;
}

/**
 * One active live stream at the edge: its origin versions (brought by its one ManifestPoller),
 * the held texts of the current version per x (and per N parts), and the receivers' blocking
 * reloads parked until a version satisfies them. Prefetch is its StreamPrefetcher's.
 */
export class LiveStream {
  readonly key: string;
  readonly path: string;
  readonly prefetcher: StreamPrefetcher;
  lastActivityMs: number;
  readonly #o: LiveStreamOptions;
  readonly #timers: Timers;
  readonly #poller: ManifestPoller;
  #current: Version | undefined;
  #versionN = 0;
  #closed = false;
  /** Held manifests of the current version by x, and by parts held (LL). Cleared on every new version. */
  readonly #held = new Map<number, HeldBody>();
  readonly #heldParts = new Map<number, HeldBody>();
  /** Delta updates (`_HLS_skip`) of held texts: made once per held text and skip kind. */
  readonly #deltas = new WeakMap<HeldBody, Map<string, Buffer>>();
  /** Receivers' blocking reloads parked until a version satisfies them (bounded: maxBlocked). */
  readonly #blocked = new Set<Blocked>();

  constructor(o: LiveStreamOptions) {
    this.#o = o;
    this.key = o.key;
    this.path = o.path;
    this.prefetcher = o.prefetcher;
    this.#timers = o.timers ?? NODE_TIMERS;
    this.lastActivityMs = o.now();
    this.#poller = new ManifestPoller({
      ...o.poll,
      path: o.path,
      onVersion: (loaded) => this.#install(loaded),
      onSame: () => {
        if (this.#current !== undefined) this.#current.fetchedAtMs = this.#o.now();
      },
      onPlan: () => this.prefetcher.plan(),
      onBug: o.onBug,
    });
  }

  get version(): Version | undefined {
    return this.#current;
  }

  get lastError(): EdgeError | undefined {
    return this.#poller.lastError;
  }

  /** When the origin poll in flight started, while the origin has not answered it. */
  get originWaitingSinceMs(): number | undefined {
    return this.#poller.waitingSinceMs;
  }

  /** The upstream's manifest is already held (X-Ethle-Hold-Segments > 0): this edge does not hold it again. */
  get upstreamHolds(): boolean {
    return this.#poller.upstreamHolds;
  }

  /** Start polling now (the first manifest request: prefetch starts before any segment request). */
  start(): Promise<void> {
    return this.#poller.poll();
  }

  /** The current version, fetching one first if there is none yet. Throws the fetch error. */
  async ready(): Promise<Version> {
    if (this.#current === undefined) await this.#poller.poll();
    if (this.#current === undefined)
      throw this.#poller.lastError ?? new EdgeError('ERR_EDGE_ORIGIN_UNREACHABLE', `no manifest for ${this.path}`);
    return this.#current;
  }

  /**
   * Held manifest for x, rewritten once per origin version × x and kept as a Buffer (the hot path
   * sends the same bytes to every receiver of the group). Texts with a session token (multivariant
   * playlists, fetched once per receiver) are not cached.
   */
  held(version: Version, x: number, token: string | undefined): HeldBody {
    return this.#cached(this.#held, version, x, token === undefined, () => version.view.hold(x, token, this.#o.now()));
  }

  /**
   * The manifest with the newest n parts (LL-HLS) or chunks (LL-DASH) held, LL features kept:
   * rewritten once per origin version × n, like `held`. Undefined for a manifest without parts.
   */
  heldParts(version: Version, n: number): HeldBody | undefined {
    const holdParts = version.view.holdParts;
    if (holdParts === undefined) return undefined;
    return this.#cached(this.#heldParts, version, n, true, () => holdParts(n, undefined, this.#o.now()));
  }

  /** The Playlist Delta Update of a held LL-HLS text (`_HLS_skip`), made once per held text × kind. */
  delta(held: HeldBody, skip: 'YES' | 'v2'): Buffer {
    let m = this.#deltas.get(held);
    if (m === undefined) this.#deltas.set(held, (m = new Map()));
    let b = m.get(skip);
    if (b === undefined) m.set(skip, (b = Buffer.from(deltaMediaPlaylist(held.text, { skip }).text, 'utf8')));
    return b;
  }

  /** Blocking reloads parked now. */
  get blockedCount(): number {
    return this.#blocked.size;
  }

  /**
   * Park a receiver's blocking reload until a version satisfies it (resolved with that version,
   * right after the edge's own poll brings it), or `timeoutMs` passes / the stream closes
   * (undefined). Throws ERR_EDGE_BLOCKED_FULL when maxBlocked are parked already. However many
   * are parked, the origin sees the stream's one poll: parking starts nothing.
   */
  waitFor(satisfied: (v: Version) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<Version | undefined> {
    if (this.#closed || signal?.aborted === true) return Promise.resolve(undefined);
    if (this.#blocked.size >= this.#o.maxBlocked) {
      throw new EdgeError(
        'ERR_EDGE_BLOCKED_FULL',
        `${this.#o.maxBlocked} blocking reloads already wait on ${this.key} (maxBlockedPerStream)`,
        { stream: this.key, max: this.#o.maxBlocked },
      );
    }
    return new Promise((resolve) => {
      const b: Blocked = {
        satisfied,
        settle: (v) => {
          this.#timers.clearTimeout(b.timer);
          this.#blocked.delete(b);
          resolve(v);
        },
        timer: this.#timers.setTimeout(() => b.settle(undefined), timerMs(timeoutMs)),
      };
      this.#blocked.add(b);
      // The receiver left: its place is free at once, not at the deadline.
      signal?.addEventListener('abort', () => b.settle(undefined), { once: true });
    });
  }

  close(): void {
    this.#closed = true;
    this.#poller.close();
    this.#held.clear();
    this.#heldParts.clear();
    for (const b of [...this.#blocked]) b.settle(undefined);
    this.prefetcher.close();
  }

  /** A held text of the current version from its cache (made again once a time-dependent one is stale), else rewritten now. */
  #cached(cache: Map<number, HeldBody>, version: Version, k: number, cacheable: boolean, hold: () => HeldManifest): HeldBody {
    const keep = cacheable && version === this.#current;
    const hit = keep ? cache.get(k) : undefined;
    // A text that depends on the time (DASH S@r=-1 at the live edge) is made again once stale.
    if (hit !== undefined && (hit.validUntilMs === undefined || this.#o.now() < hit.validUntilMs)) return hit;
    const h = hold();
    const entry = { ...h, body: Buffer.from(h.text, 'utf8'), fresh: false };
    if (keep) cache.set(k, entry);
    return { ...entry, fresh: true };
  }

  /** A new origin version: current from now on; the registry, the prefetch and the parked reloads hear of it, each on its own. */
  #install(loaded: LoadedVersion): void {
    const v: Version = { view: loaded.view, text: loaded.text, n: ++this.#versionN, fetchedAtMs: this.#o.now() };
    this.#current = v;
    this.#held.clear();
    this.#heldParts.clear();
    this.#guard(() => this.#o.onVersion(v.view));
    this.#guard(() => this.prefetcher.onVersion(v.view, loaded.wentBackwards));
    this.#wake(v);
  }

  #wake(v: Version): void {
    for (const b of [...this.#blocked]) {
      let ok: boolean;
      try {
        ok = b.satisfied(v);
      } catch (e) {
        // A bug in judging a request: answer it with what there is rather than leave it parked.
        this.#o.onBug(e as Error, 'planner');
        ok = true;
      }
      if (ok) b.settle(v);
    }
  }

  #guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.#o.onBug(e as Error, 'planner');
    }
  }
}
