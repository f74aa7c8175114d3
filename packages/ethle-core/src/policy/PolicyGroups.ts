import type { RadioEstimate } from './RadioEstimate.js';
import type { NotedEstimate } from './shouldRedirect.js';

/** The paper's two policy groups of a stream's receivers (Section III-C). */
export type PolicyGroup = 'hold-0' | 'hold-x';

interface Session {
  stream: string;
  /** When it was first seen, and whether it has been seen again a reload later (a player). */
  firstSeenMs: number;
  confirmed: boolean;
  /** Undefined until the policy has evidence to place it (auto without context yet). */
  group: PolicyGroup | undefined;
  lastSeenMs: number;
  /**
   * Manifest requests seen; the radio measurements (not defaults) of the redirect window, oldest
   * first, each with when it was noted; and the latest measurement as it came (for the handover
   * token, and to tell a measurement seen again from a new one).
   */
  requests: number;
  estimates: NotedEstimate[];
  last: RadioEstimate | undefined;
  /** The x this receiver was served at another edge before it moved here (handover): never served less. */
  floorX: number;
}

/** A session's state as another edge of the fleet handed it over (SessionClaims, verified). */
export interface AdoptedSession {
  group: PolicyGroup | undefined;
  requests: number;
  /** The last radio measurement there, if any. */
  estimate: RadioEstimate | undefined;
  /** The x it was served there. */
  x: number;
}

export interface GroupAssignment {
  group: PolicyGroup;
  /** The group before this evaluation (undefined for a new session). */
  from: PolicyGroup | undefined;
}

/** How stale a session's place in the last-seen order may get before it is moved (ms). */
const REORDER_MS = 1000;

/**
 * A session seen again this long after its first request is a player's (ms): players reload a
 * live playlist every part or segment, a flood of made-up session ids sends one request each.
 */
export const CONFIRM_AFTER_MS = 500;

/**
 * Radio measurements kept per session, at least (a redirect's `consecutive` count, and a little
 * more) and at most: the window (`redirectSustainMs`) is kept in time, at most one measurement per
 * slot of a thirtieth of it (WINDOW_SLOTS), so it fits within the most.
 */
const KEEP_ESTIMATES_MIN = 4;
const KEEP_ESTIMATES_MAX = 64;
/** The window in slots: of the measurements noted in one slot (windowMs / this) the newest is kept. */
const WINDOW_SLOTS = 30;

/**
 * Policy groups per stream (paper Section III-C): a receiver session joins hold-0 when eq. 1
 * holds for it, else hold-x; a hold-0 session whose radio worsens moves to hold-x; a hold-x
 * session never moves back (it would skip x segments). Each session also keeps its request count
 * and its last radio measurements, the evidence a redirect needs (shouldRedirect).
 *
 * Sessions cost nothing to create (a token, a CMCD sid, an IP), so the table is bounded by
 * design, with a policy against floods: a session is *unconfirmed* until it is seen again at
 * least CONFIRM_AFTER_MS after its first request (or is handed over from another edge). At most
 * a quarter of `maxSessions` are unconfirmed (the oldest of them goes first), so made-up session
 * ids churn among themselves and push out a player's session only when confirmed ones fill more
 * than three quarters of the table (then the least recently seen goes). Receiver counts for
 * operators (`confirmedCounts`) count confirmed sessions only: a flood of 100,000 ids made
 * `ethle_receivers` say 100,000 and pushed every real viewer out. Expiry in O(expired) — each
 * map's order is last-seen order — and per-stream counts kept as sessions come and go, never
 * recounted by scanning.
 */
export class PolicyGroups {
  /** `${stream}\n${session}` → session, least recently seen first: unconfirmed, and confirmed. */
  readonly #unconfirmed = new Map<string, Session>();
  readonly #confirmed = new Map<string, Session>();
  readonly #byStream = new Map<
    string,
    { keys: Set<string>; counts: Record<PolicyGroup, number>; confirmed: Record<PolicyGroup, number> }
  >();
  readonly #idleMs: number;
  readonly #max: number;
  readonly #maxUnconfirmed: number;
  readonly #windowMs: number;
  readonly #slotMs: number;

  /**
   * `windowMs`: how far back a session's radio measurements are kept (the redirect's window,
   * shouldRedirect's `sustainMs`; validated by the caller).
   */
  constructor(idleMs: number, maxSessions = 100_000, windowMs = 0) {
    this.#idleMs = idleMs;
    this.#max = maxSessions;
    this.#maxUnconfirmed = Math.max(1, Math.floor(maxSessions / 4));
    this.#windowMs = windowMs;
    this.#slotMs = windowMs / WINDOW_SLOTS;
  }

  get size(): number {
    return this.#unconfirmed.size + this.#confirmed.size;
  }

  /** Sessions not confirmed yet (seen once, or only within CONFIRM_AFTER_MS of their first request). */
  get unconfirmed(): number {
    return this.#unconfirmed.size;
  }

  /** Evaluate one request of `session` on `stream`. */
  assign(stream: string, session: string, eq1Holds: boolean, nowMs: number): GroupAssignment {
    const s = this.#touch(stream, session, nowMs);
    const c = this.#byStream.get(stream)!.counts;
    const from = s.group;
    const cc = this.#byStream.get(stream)!.confirmed;
    if (s.group === undefined) {
      s.group = eq1Holds ? 'hold-0' : 'hold-x';
      c[s.group] += 1;
      if (s.confirmed) cc[s.group] += 1;
    } else if (s.group === 'hold-0' && !eq1Holds) {
      s.group = 'hold-x';
      c['hold-0'] -= 1;
      c['hold-x'] += 1;
      if (s.confirmed) {
        cc['hold-0'] -= 1;
        cc['hold-x'] += 1;
      }
    }
    return { group: s.group, from };
  }

  /**
   * One manifest request of `session` with the radio estimate the edge has for it: counted, and
   * the estimate kept, noted at `nowMs`, when it is a measurement (not the default) that is new.
   * Kept are the measurements reaching back the window from the latest (one more than needed:
   * the window opens with a measurement at least windowMs old), never fewer than
   * KEEP_ESTIMATES_MIN nor more than KEEP_ESTIMATES_MAX. One noted in the same slot (a thirtieth
   * of the window, 1 s of 30) as the last kept replaces it: each rests on seconds of responses
   * (the edge's mean over its last few, a player's estimate), so two that close say nearly the
   * same, and a receiver reloading fast (or an RNI value at every request) must not cost a long
   * list. Slots are fixed in time, so measurements every 0.9 s do not replace one another forever.
   */
  note(stream: string, session: string, estimate: RadioEstimate, nowMs: number): { requests: number; estimates: readonly NotedEstimate[] } {
    const s = this.#touch(stream, session, nowMs);
    s.requests += 1;
    // A new measurement, not the same one seen again on the next playlist reload: the value or
    // what it rests on (bytes measured, segments downloaded, the player's buffer) has changed.
    if (estimate.source !== 'default' && (s.last === undefined || sameMeasurement(s.last, estimate) === false)) {
      s.last = estimate;
      const e: NotedEstimate = { bps: estimate.bps, source: estimate.source, atMs: nowMs };
      const list = s.estimates;
      const prev = list[list.length - 1];
      const slot = this.#slotMs;
      if (prev !== undefined && slot > 0 && Math.floor(prev.atMs / slot) === Math.floor(nowMs / slot)) list[list.length - 1] = e;
      else list.push(e);
      // Older than the window's opening measurement, or past the most: forgotten.
      while (list.length > KEEP_ESTIMATES_MIN && (list.length > KEEP_ESTIMATES_MAX || nowMs - list[1]!.atMs >= this.#windowMs))
        list.shift();
    }
    return { requests: s.requests, estimates: s.estimates };
  }

  /**
   * A receiver that another edge served arrives here with its state (handover): filed as if this
   * edge had seen its requests — its group (hold-x stays hold-x: the monotone rule holds across
   * edges), its request count and last measurement (no first-request treatment again), and the
   * x it was served as a floor. Only for a session this edge does not know: what it saw itself is
   * newer than any token. Returns whether it was adopted.
   */
  adopt(stream: string, session: string, a: AdoptedSession, nowMs: number): boolean {
    if (this.#get(`${stream}\n${session}`) !== undefined) return false;
    const s = this.#touch(stream, session, nowMs);
    s.requests = a.requests;
    s.floorX = a.x;
    if (a.estimate !== undefined) {
      // Measured at the other edge: here it counts from its arrival.
      s.last = a.estimate;
      s.estimates.push({ bps: a.estimate.bps, source: a.estimate.source, atMs: nowMs });
    }
    if (a.group !== undefined) {
      s.group = a.group;
      this.#byStream.get(stream)!.counts[a.group] += 1;
    }
    // A receiver another edge of the fleet had seen: a player, not a made-up id.
    this.#confirm(`${stream}\n${session}`, s);
    return true;
  }

  /** What a known session carries to another edge (its token's state), or undefined. */
  stateOf(
    stream: string,
    session: string,
  ): { group: PolicyGroup | undefined; requests: number; estimate: RadioEstimate | undefined; floorX: number } | undefined {
    const s = this.#get(`${stream}\n${session}`);
    return s === undefined ? undefined : { group: s.group, requests: s.requests, estimate: s.last, floorX: s.floorX };
  }

  /** The x floor of a session handed over from another edge (0 for one that began here). */
  floorOf(stream: string, session: string): number {
    return this.#get(`${stream}\n${session}`)?.floorX ?? 0;
  }

  /** The group of a known session (no evaluation). */
  groupOf(stream: string, session: string): PolicyGroup | undefined {
    return this.#get(`${stream}\n${session}`)?.group;
  }

  /** Active sessions per group of one stream, confirmed or not (what the hold policy acts on). */
  counts(stream: string): Record<PolicyGroup, number> {
    const c = this.#byStream.get(stream)?.counts;
    return { 'hold-0': c?.['hold-0'] ?? 0, 'hold-x': c?.['hold-x'] ?? 0 };
  }

  /** Confirmed sessions per group of one stream: the receivers an operator is shown. */
  confirmedCounts(stream: string): Record<PolicyGroup, number> {
    const c = this.#byStream.get(stream)?.confirmed;
    return { 'hold-0': c?.['hold-0'] ?? 0, 'hold-x': c?.['hold-x'] ?? 0 };
  }

  /** Forget sessions not seen for idleMs. */
  sweep(nowMs: number): void {
    for (const map of [this.#unconfirmed, this.#confirmed]) {
      for (const [k, s] of map) {
        if (nowMs - s.lastSeenMs <= this.#idleMs) break;
        this.#remove(k);
      }
    }
  }

  /** Forget every session of a stream gone idle. */
  dropStream(stream: string): void {
    const b = this.#byStream.get(stream);
    if (b === undefined) return;
    for (const k of [...b.keys]) this.#remove(k);
  }

  #get(key: string): Session | undefined {
    return this.#confirmed.get(key) ?? this.#unconfirmed.get(key);
  }

  /** The session, created if new, moved to the end of the last-seen order; confirmed when seen again late enough. */
  #touch(stream: string, session: string, nowMs: number): Session {
    const key = `${stream}\n${session}`;
    let s = this.#get(key);
    if (s !== undefined) {
      if (!s.confirmed && nowMs - s.firstSeenMs >= CONFIRM_AFTER_MS) this.#confirm(key, s);
      // Re-inserted (moved to the end of the last-seen order) at most once a second: a player
      // reloading its playlist every half segment must not cost a map delete + insert each time.
      // Expiry can then be up to a second late, which is nothing against sessionIdleMs.
      else if (nowMs - s.lastSeenMs > REORDER_MS) {
        const map = s.confirmed ? this.#confirmed : this.#unconfirmed;
        map.delete(key);
        map.set(key, s);
      }
      s.lastSeenMs = nowMs;
      return s;
    }
    s = {
      stream,
      firstSeenMs: nowMs,
      confirmed: false,
      group: undefined,
      lastSeenMs: nowMs,
      requests: 0,
      estimates: [],
      last: undefined,
      floorX: 0,
    };
    // Room first: the oldest unconfirmed session, and a confirmed one only past maxSessions.
    if (this.#unconfirmed.size >= this.#maxUnconfirmed) this.#remove(this.#unconfirmed.keys().next().value!);
    else if (this.size >= this.#max) this.#remove(this.#confirmed.keys().next().value!);
    this.#unconfirmed.set(key, s);
    let b = this.#byStream.get(stream);
    if (b === undefined)
      this.#byStream.set(stream, (b = { keys: new Set(), counts: { 'hold-0': 0, 'hold-x': 0 }, confirmed: { 'hold-0': 0, 'hold-x': 0 } }));
    b.keys.add(key);
    return s;
  }

  /** An unconfirmed session becomes a confirmed one (last in the confirmed last-seen order). */
  #confirm(key: string, s: Session): void {
    if (s.confirmed) return;
    s.confirmed = true;
    this.#unconfirmed.delete(key);
    this.#confirmed.set(key, s);
    if (s.group !== undefined) this.#byStream.get(s.stream)!.confirmed[s.group] += 1;
  }

  #remove(key: string): void {
    const s = this.#get(key);
    if (s === undefined) return;
    (s.confirmed ? this.#confirmed : this.#unconfirmed).delete(key);
    const b = this.#byStream.get(s.stream)!;
    b.keys.delete(key);
    if (s.group !== undefined) {
      b.counts[s.group] -= 1;
      if (s.confirmed) b.confirmed[s.group] -= 1;
    }
    if (b.keys.size === 0) this.#byStream.delete(s.stream);
  }
}

/**
 * Whether two estimates are one measurement seen twice. The edge's own measurement and CMCD say
 * what they rest on (bytes measured, segments downloaded, the player's buffer); an RNI value is
 * the radio network's current view, evidence again at every request.
 */
function sameMeasurement(a: RadioEstimate, b: RadioEstimate): boolean {
  if (a.source === 'rni' && b.source === 'rni') return false;
  return (
    a.source === b.source &&
    a.bps === b.bps &&
    a.evidence.measuredBytes === b.evidence.measuredBytes &&
    a.evidence.segmentsDownloaded === b.evidence.segmentsDownloaded &&
    a.evidence.blMs === b.evidence.blMs
  );
}
