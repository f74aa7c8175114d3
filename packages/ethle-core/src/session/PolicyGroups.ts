/** The paper's two policy groups of a stream's receivers (Section III-C). */
export type PolicyGroup = 'hold-0' | 'hold-x';

interface Session {
  stream: string;
  group: PolicyGroup;
  lastSeenMs: number;
}

export interface GroupAssignment {
  group: PolicyGroup;
  /** The group before this evaluation (undefined for a new session). */
  from: PolicyGroup | undefined;
}

/**
 * Policy groups per stream (paper Section III-C): a receiver session joins hold-0 when eq. 1
 * holds for it, else hold-x; a hold-0 session whose radio worsens moves to hold-x; a hold-x
 * session never moves back (it would skip x segments).
 *
 * Sessions cost nothing to create (a token, a CMCD sid, an IP), so the table is bounded by
 * design: at most `maxSessions` (the least recently seen goes first), expiry in O(expired) — the
 * map's order is last-seen order — and per-stream counts kept as sessions come and go, never
 * recounted by scanning.
 */
export class PolicyGroups {
  /** `${stream}\n${session}` → session, least recently seen first. */
  readonly #sessions = new Map<string, Session>();
  readonly #byStream = new Map<string, { keys: Set<string>; counts: Record<PolicyGroup, number> }>();
  readonly #idleMs: number;
  readonly #max: number;

  constructor(idleMs: number, maxSessions = 100_000) {
    this.#idleMs = idleMs;
    this.#max = maxSessions;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Evaluate one request of `session` on `stream`. */
  assign(stream: string, session: string, eq1Holds: boolean, nowMs: number): GroupAssignment {
    const key = `${stream}\n${session}`;
    const s = this.#sessions.get(key);
    if (s === undefined) {
      const group: PolicyGroup = eq1Holds ? 'hold-0' : 'hold-x';
      this.#sessions.set(key, { stream, group, lastSeenMs: nowMs });
      let b = this.#byStream.get(stream);
      if (b === undefined) this.#byStream.set(stream, (b = { keys: new Set(), counts: { 'hold-0': 0, 'hold-x': 0 } }));
      b.keys.add(key);
      b.counts[group] += 1;
      if (this.#sessions.size > this.#max) this.#remove(this.#sessions.keys().next().value!);
      return { group, from: undefined };
    }
    // Re-insert: map order stays last-seen order.
    this.#sessions.delete(key);
    this.#sessions.set(key, s);
    s.lastSeenMs = nowMs;
    const from = s.group;
    if (s.group === 'hold-0' && !eq1Holds) {
      s.group = 'hold-x';
      const c = this.#byStream.get(stream)!.counts;
      c['hold-0'] -= 1;
      c['hold-x'] += 1;
    }
    return { group: s.group, from };
  }

  /** The group of a known session (no evaluation). */
  groupOf(stream: string, session: string): PolicyGroup | undefined {
    return this.#sessions.get(`${stream}\n${session}`)?.group;
  }

  /** Active sessions per group of one stream. */
  counts(stream: string): Record<PolicyGroup, number> {
    const c = this.#byStream.get(stream)?.counts;
    return { 'hold-0': c?.['hold-0'] ?? 0, 'hold-x': c?.['hold-x'] ?? 0 };
  }

  /** Forget sessions not seen for idleMs. */
  sweep(nowMs: number): void {
    for (const [k, s] of this.#sessions) {
      if (nowMs - s.lastSeenMs <= this.#idleMs) break;
      this.#remove(k);
    }
  }

  /** Forget every session of a stream gone idle. */
  dropStream(stream: string): void {
    const b = this.#byStream.get(stream);
    if (b === undefined) return;
    for (const k of [...b.keys]) this.#remove(k);
  }

  #remove(key: string): void {
    const s = this.#sessions.get(key);
    if (s === undefined) return;
    this.#sessions.delete(key);
    const b = this.#byStream.get(s.stream)!;
    b.keys.delete(key);
    b.counts[s.group] -= 1;
    if (b.keys.size === 0) this.#byStream.delete(s.stream);
  }
}
