import type { EdgeEvents, PolicyGroup } from '../events/EdgeEvents.js';

/** What the edge did for one receiver session on one stream (its CMCD sid, as the QoE probe's session id). */
export interface SessionFact {
  session: string;
  stream: string;
  /** x the edge declared to it on its latest manifest (0: nothing held). */
  hold: number;
  group: PolicyGroup | undefined;
  /** Sent to the origin (eq. 3: its radio slower than the stream), with the evidence. */
  redirect: { atMs: number; location: string; ranMbps: number; bitrateMbps: number } | undefined;
  manifests: number;
  /** Its segment requests by what the edge's cache had: whole, in flight, nothing. */
  hits: number;
  coalesced: number;
  misses: number;
  firstAtMs: number;
  lastAtMs: number;
}

/** GET /_ethle/sessions/{id} and ?since=: the facts, for an operator or a collector to join. */
export const SESSIONS_PATH = '/_ethle/sessions';

/**
 * How long a (session, stream)'s facts are kept after their last change: a collector has had them
 * a hundred times over (it is sent the changes every few seconds) and an operator's look-up of a
 * session that just ended still finds it; beyond that the edge is not the archive.
 */
export const SESSION_FACTS_KEEP_MS = 10 * 60_000;

/**
 * The edge's side of a session, from its typed events: per (session, stream), the x it declared,
 * the policy group, a redirect, manifests served and segment requests by cache result. A session
 * is the CMCD `sid` the player sends (the demo and the QoE probe use one id for both), so a QoE
 * collector can put what the edge did beside what the player saw. Bounded in count and in time:
 * the `max` most recently active (session, stream) pairs, each for `keepMs` after its last change.
 * A count alone is not enough: viewers come and go, and with only the count the table grew with
 * every session ever seen until it held `max` (50,000 pairs, ~15 MB) — hours of churn on a busy
 * edge, read by a soak as a heap that never stops growing.
 */
export class SessionFacts {
  readonly #facts = new Map<string, SessionFact>();
  readonly #off: Array<() => void>;

  constructor(
    events: EdgeEvents,
    private readonly now: () => number,
    private readonly max = 20_000,
    private readonly keepMs = SESSION_FACTS_KEEP_MS,
  ) {
    this.#off = [
      events.on('manifest-request', (e) => {
        const f = this.#touch(e.session, e.stream);
        f.manifests += 1;
        f.hold = e.hold;
        if (e.group !== undefined) f.group = e.group;
      }),
      events.on('session-group', (e) => {
        this.#touch(e.session, e.stream).group = e.to;
      }),
      events.on('redirect', (e) => {
        const f = this.#touch(e.session, e.stream);
        f.manifests += 1;
        f.redirect = { atMs: this.now(), location: e.location, ranMbps: e.ranMbps, bitrateMbps: e.bitrateMbps };
      }),
      events.on('segment-request', (e) => {
        // Segment requests name the receiver by its CMCD sid ('sid:…') or address ('ip:…'), as the
        // manifest path names the session ('…' or 'ip-…'); only segments of a known stream count.
        if (e.receiver === undefined || e.stream === undefined) return;
        const session = e.receiver.startsWith('sid:') ? e.receiver.slice(4) : `ip-${e.receiver.slice(3)}`;
        const f = this.#touch(session, e.stream);
        if (e.result === 'hit') f.hits += 1;
        else if (e.result === 'coalesced') f.coalesced += 1;
        else f.misses += 1;
      }),
    ];
  }

  /** A session's facts, one per stream it played here. */
  of(session: string): SessionFact[] {
    return [...this.#facts.values()].filter((f) => f.session === session);
  }

  /** Facts that changed at or after `sinceMs`, oldest change first, at most `limit`. */
  changedSince(sinceMs: number, limit: number): SessionFact[] {
    const out: SessionFact[] = [];
    // The map is in order of last change (#touch moves an entry to the end): walk from the end.
    for (const f of [...this.#facts.values()].reverse()) {
      if (f.lastAtMs < sinceMs) break;
      out.push(f);
    }
    return out.reverse().slice(0, limit);
  }

  get size(): number {
    return this.#facts.size;
  }

  close(): void {
    for (const off of this.#off.splice(0)) off();
    this.#facts.clear();
  }

  #touch(session: string, stream: string): SessionFact {
    const key = `${session}\u0000${stream}`;
    const now = this.now();
    let f = this.#facts.get(key);
    if (f === undefined) {
      f = {
        session,
        stream,
        hold: 0,
        group: undefined,
        redirect: undefined,
        manifests: 0,
        hits: 0,
        coalesced: 0,
        misses: 0,
        firstAtMs: now,
        lastAtMs: now,
      };
      if (this.#facts.size >= this.max) this.#facts.delete(this.#facts.keys().next().value!);
    } else this.#facts.delete(key);
    f.lastAtMs = now;
    this.#facts.set(key, f);
    // The map is in order of last change: what expired is at its front (O(expired) per change).
    for (const [k, old] of this.#facts) {
      if (now - old.lastAtMs <= this.keepMs) break;
      this.#facts.delete(k);
    }
    return f;
  }
}
