import type { PolicyGroup } from '../events/EdgeEvents.js';

interface Session {
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
 */
export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  readonly #idleMs: number;

  constructor(idleMs: number) {
    this.#idleMs = idleMs;
  }

  /** Evaluate one request of `session` on `stream`. */
  assign(stream: string, session: string, eq1Holds: boolean, nowMs: number): GroupAssignment {
    const key = `${stream}\n${session}`;
    const s = this.#sessions.get(key);
    if (s === undefined) {
      const group: PolicyGroup = eq1Holds ? 'hold-0' : 'hold-x';
      this.#sessions.set(key, { group, lastSeenMs: nowMs });
      return { group, from: undefined };
    }
    s.lastSeenMs = nowMs;
    const from = s.group;
    if (s.group === 'hold-0' && !eq1Holds) s.group = 'hold-x';
    return { group: s.group, from };
  }

  /** The group of a known session (no evaluation). */
  groupOf(stream: string, session: string): PolicyGroup | undefined {
    return this.#sessions.get(`${stream}\n${session}`)?.group;
  }

  /** Active sessions per group of one stream. */
  counts(stream: string): Record<PolicyGroup, number> {
    const out: Record<PolicyGroup, number> = { 'hold-0': 0, 'hold-x': 0 };
    const prefix = `${stream}\n`;
    for (const [k, s] of this.#sessions) if (k.startsWith(prefix)) out[s.group] += 1;
    return out;
  }

  /** Forget sessions not seen for idleMs, and every session of a stream gone idle. */
  sweep(nowMs: number, idleStream?: string): void {
    for (const [k, s] of this.#sessions) {
      if (nowMs - s.lastSeenMs > this.#idleMs || (idleStream !== undefined && k.startsWith(`${idleStream}\n`))) this.#sessions.delete(k);
    }
  }
}
