import { ETHLE_HEADERS, loadManifest, nextPollAt, POLL_TIMING, timerMs, type ManifestView, type NextPoll } from '@ethle/core';
import { EdgeError, isEdgeError } from '../errors/EdgeError.js';
import type { OriginClient } from '../origin/OriginClient.js';
import { isOwnBug } from '../origin/toEdgeError.js';
import { NODE_TIMERS, type Timers } from './Timers.js';

/** Where a poller caught a bug (the `where` label of ethle_internal_errors_total). */
export type PollBugWhere = 'planner' | 'manifest poll';

/** One origin manifest version, parsed. */
export interface LoadedVersion {
  view: ManifestView;
  text: string;
  /** The first segment's sequence number went down (the origin started over). */
  wentBackwards: boolean;
}

export interface ManifestPollerOptions {
  /** Origin-relative manifest path (+ the stream's identity query). */
  path: string;
  origin: Pick<OriginClient, 'url' | 'absolute' | 'fetchText' | 'upstreamRttMs'>;
  /** Path prefix of this origin on the edge ('' with one origin): where held URIs point. */
  edgePathPrefix: string;
  /** How long one poll may take (ms); a blocking LL-HLS poll included. */
  fetchDeadlineMs: number;
  /**
   * A version whose first segment comes before the current one's is not taken (players would see
   * the playlist go back) until the origin has answered so for this long: then it restarted.
   * Default 6 s (half the default manifestStaleMs).
   */
  acceptBackwardsAfterMs?: number;
  /** Wall clock, epoch ms (a manifest's program date-times are wall time). Default Date.now. */
  now?: () => number;
  timers?: Timers;
  /** A new origin version. Outside the poll's error path: what it throws goes to onBug. */
  onVersion: (loaded: LoadedVersion) => void;
  /** The origin answered with the text it sent last time. */
  onSame: () => void;
  /** After every successful poll, and between polls when the schedule says (planEveryMs). */
  onPlan: () => void;
  /** The poll failed: the origin is unreachable, answered an error, or sent what cannot be parsed. */
  onError: (e: EdgeError) => void;
  /** Something about the origin's manifest worth an operator's attention (not an error). */
  onWarning: (message: string, details: Record<string, unknown>) => void;
  /**
   * A bug, reported and never taken for an origin outage: in a hook (`planner`: what a version
   * sets off), or in the poll itself or its schedule (`manifest poll`; that poll fails with
   * ERR_EDGE_INTERNAL).
   */
  onBug: (e: Error, where: PollBugWhere) => void;
}

/**
 * A stream's one poller of its origin manifest, however many receivers (emulated multicast): the
 * timer, the backoff and the LL-HLS blocking poll, paced by the core's nextPollAt. Only the fetch
 * and the core's loadManifest are inside the poll's error path; the hooks run after it, each on
 * its own, so a bug in what a version sets off is reported as a bug, not as an origin outage.
 */
export class ManifestPoller {
  readonly #o: ManifestPollerOptions;
  readonly #now: () => number;
  readonly #timers: Timers;
  readonly #acceptBackwardsAfterMs: number;
  #view: ManifestView | undefined;
  #text: string | undefined;
  #lastError: EdgeError | undefined;
  #failures = 0;
  #lastPollAtMs = 0;
  /** Since when the origin's answers have gone backwards, while they do. */
  #backwardsSinceMs: number | undefined;
  /** The last poll brought the same text again. */
  #unchanged = false;
  #upstreamHolds = false;
  #timer: unknown;
  #polling: Promise<void> | undefined;
  #abort: AbortController | undefined;
  #closed = false;

  constructor(o: ManifestPollerOptions) {
    this.#o = o;
    this.#now = o.now ?? Date.now;
    this.#timers = o.timers ?? NODE_TIMERS;
    this.#acceptBackwardsAfterMs = o.acceptBackwardsAfterMs ?? 6_000;
  }

  /** Why the last poll failed; undefined once one succeeded. */
  get lastError(): EdgeError | undefined {
    return this.#lastError;
  }

  /** The upstream's manifest is already held (X-Ethle-Hold-Segments > 0): this edge must not hold it again. */
  get upstreamHolds(): boolean {
    return this.#upstreamHolds;
  }

  /** When the poll in flight started (the origin has not answered it yet), else undefined. */
  get waitingSinceMs(): number | undefined {
    return this.#polling === undefined ? undefined : this.#lastPollAtMs;
  }

  /** Poll now (or join the poll under way); resolves when it is done, never rejects. */
  poll(): Promise<void> {
    if (this.#polling !== undefined) return this.#polling;
    this.#clearTimer();
    this.#polling = this.#pollOnce().finally(() => {
      this.#polling = undefined;
      this.#schedule();
    });
    return this.#polling;
  }

  close(): void {
    this.#closed = true;
    this.#clearTimer();
    this.#abort?.abort('stream closed');
  }

  async #pollOnce(): Promise<void> {
    this.#lastPollAtMs = this.#now();
    const abort = (this.#abort = new AbortController());
    let loaded: LoadedVersion | undefined;
    try {
      // LL-HLS: a blocking reload for the part the origin lists next — the stream's one poll,
      // answered as soon as that part is out; receivers' own blocking reloads never reach the origin.
      const next = this.#failures === 0 ? this.#view?.lowLatency?.nextPart : undefined;
      const path = this.#o.path;
      const ask = next === undefined ? path : `${path}${path.includes('?') ? '&' : '?'}_HLS_msn=${next.msn}&_HLS_part=${next.part}`;
      const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(timerMs(this.#o.fetchDeadlineMs))]);
      const got = await this.#o.origin.fetchText(ask, signal, { blocking: next !== undefined });
      if (this.#closed) return;
      this.#readUpstream(got.headers);
      this.#unchanged = this.#text !== undefined && this.#text === got.text;
      if (!this.#unchanged) loaded = this.#load(got.text, got.path);
      this.#checkBackwards(loaded);
      this.#lastError = undefined;
      this.#failures = 0;
    } catch (e) {
      // The origin client rejects only with the edge's errors: anything else was thrown by the
      // poll's own code (a bug), reported once and failing this poll as one.
      const err = isEdgeError(e) ? e : this.#bugError(e);
      this.#lastError = err;
      this.#failures += 1;
      if (err.code !== 'ERR_EDGE_CLOSED' && !this.#closed) this.#hook(() => this.#o.onError(err));
      return;
    } finally {
      this.#abort = undefined;
    }
    if (loaded === undefined) this.#hook(this.#o.onSame);
    else this.#install(loaded);
    this.#hook(this.#o.onPlan);
  }

  /** The core's loader on one origin text: the only parsing in the error path (a version that cannot be parsed never replaces a good one). */
  #load(text: string, path: string): LoadedVersion {
    let view: ManifestView;
    try {
      view = loadManifest(text, {
        manifestUrl: this.#o.origin.absolute(path),
        originBase: this.#o.origin.url,
        routing: 'edge',
        edgePathPrefix: this.#o.edgePathPrefix,
        nowMs: this.#now(),
        // Only the carried state (bounded HLS history), never the previous view itself: a view
        // that referenced its predecessor kept every version of the stream alive.
        previousCarry: this.#view?.carry,
      });
    } catch (e) {
      // The core refuses bad input with a coded error; a TypeError from inside it is its bug.
      if (isOwnBug(e)) throw e;
      throw new EdgeError(
        'ERR_EDGE_MANIFEST_UNPARSABLE',
        `origin manifest ${this.#o.path} cannot be parsed: ${(e as Error).message}`,
        { path: this.#o.path },
        { cause: e },
      );
    }
    const before = this.#view?.firstId;
    return { view, text, wentBackwards: before !== undefined && view.firstId !== undefined && view.firstId < before };
  }

  /**
   * A version that goes backwards is an error (the last version stays, marked stale) until the
   * origin has answered so for acceptBackwardsAfterMs; a forward one in between starts over. An
   * origin behind a balancer with one lagging node sends such versions now and then; passed on,
   * they make players jump back or stall.
   */
  #checkBackwards(loaded: LoadedVersion | undefined): void {
    if (loaded === undefined) return;
    if (!loaded.wentBackwards) {
      this.#backwardsSinceMs = undefined;
      return;
    }
    const since = (this.#backwardsSinceMs ??= this.#now());
    if (this.#now() - since >= this.#acceptBackwardsAfterMs) return;
    throw new EdgeError(
      'ERR_EDGE_ORIGIN_INCONSISTENT',
      `origin manifest went backwards (first segment ${this.#view?.firstId} → ${loaded.view.firstId}): the last version is served until the origin has answered so for ${this.#acceptBackwardsAfterMs} ms`,
      { path: this.#o.path, from: this.#view?.firstId, to: loaded.view.firstId },
    );
  }

  #install(loaded: LoadedVersion): void {
    const { view } = loaded;
    const previous = this.#view;
    this.#view = view;
    this.#text = loaded.text;
    if (loaded.wentBackwards) {
      this.#backwardsSinceMs = undefined;
      this.#hook(() =>
        this.#o.onWarning('origin manifest went backwards and stayed so: taken as a restart of the stream', {
          path: this.#o.path,
          from: previous?.firstId,
          to: view.firstId,
          afterMs: this.#acceptBackwardsAfterMs,
        }),
      );
    }
    if (view.leftAbsolute.length > 0 && previous?.leftAbsolute.length !== view.leftAbsolute.length) {
      this.#hook(() =>
        this.#o.onWarning('manifest URIs on another host stay absolute: players fetch them past the edge', {
          count: view.leftAbsolute.length,
          first: view.leftAbsolute.slice(0, 3),
        }),
      );
    }
    this.#hook(() => this.#o.onVersion(loaded));
  }

  /** An upstream that is itself a holding edge (holding here as well would hold twice), and the RTT it reports beyond itself. */
  #readUpstream(headers: Record<string, string | undefined>): void {
    const upstreamHold = Number(headers[ETHLE_HEADERS.holdSegments] ?? 0);
    if (upstreamHold > 0 && !this.#upstreamHolds)
      this.#hook(() =>
        this.#o.onWarning(
          'the origin is an edge that already holds: this stream is served unheld here (never hold twice; make the upstream a parent)',
          { upstreamHold },
        ),
      );
    this.#upstreamHolds = upstreamHold > 0;
    const raw = headers[ETHLE_HEADERS.upstreamRtt];
    const rtt = Number(raw);
    this.#o.origin.upstreamRttMs = raw !== undefined && Number.isFinite(rtt) && rtt >= 0 && rtt < 60_000 ? rtt : undefined;
  }

  #schedule(): void {
    if (this.#closed) return;
    let next: NextPoll;
    try {
      next = nextPollAt({
        nowMs: this.#now(),
        lastPollAtMs: this.#lastPollAtMs,
        failures: this.#failures,
        unchanged: this.#unchanged,
        view: this.#view,
      });
    } catch (e) {
      // A bug in reading the view's cadence must not stop the stream (nor escape as a rejection
      // nobody awaits): reported, and the next poll comes at the slowest pace.
      this.#o.onBug(asError(e), 'manifest poll');
      next = { atMs: this.#now() + POLL_TIMING.maxBackoffMs, reason: 'backoff' };
    }
    this.#wait(next);
  }

  /** Until the poll is due: a plan every planEveryMs (if the schedule asks for them), then the poll. */
  #wait(next: NextPoll): void {
    const left = next.atMs - this.#now();
    if (next.planEveryMs === undefined) return this.#after(left, () => void this.poll());
    this.#after(Math.min(next.planEveryMs, left), () => {
      if (this.#closed) return;
      if (this.#now() >= next.atMs - POLL_TIMING.earlyMs) return void this.poll();
      this.#hook(this.#o.onPlan);
      this.#wait(next);
    });
  }

  /** The poller's one timer, its delay through timerMs (a manifest's durations are any float). */
  #after(ms: number, fn: () => void): void {
    this.#timer = this.#timers.setTimeout(fn, timerMs(ms));
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #hook(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.#o.onBug(asError(e), 'planner');
    }
  }

  /** A bug in the poll's own code: reported, and the poll's error (ERR_EDGE_INTERNAL, as a fetch's bug is). */
  #bugError(e: unknown): EdgeError {
    this.#o.onBug(asError(e), 'manifest poll');
    return new EdgeError(
      'ERR_EDGE_INTERNAL',
      `poll of ${this.#o.path} failed inside the edge: ${asError(e).message}`,
      { path: this.#o.path },
      { cause: e },
    );
  }
}

/** What was thrown, as an Error (a throw of a string or an object still has a message). */
function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
