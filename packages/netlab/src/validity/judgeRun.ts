import type { LinkAccount } from '../accounting/accountLink.js';
import { dropProblems, type DropProblem } from '../accounting/dropProblems.js';
import { LATE_P99_LIMIT_MS, lateRelays } from '../relay/relayTimingProblems.js';

/** The bars a run must pass to count: the relays kept their timing, and no packet was lost that the links do not model. */
export type ValidityBar = 'relay-late' | 'unmodelled-drops';

/** A run's verdict, as the run file records it. */
export interface Verdict {
  /** The lateness bar it was judged against, ms (p99 of each relay direction's departure lateness). */
  lateP99BarMs: number;
  /** The bars it failed (none: valid). */
  failed: ValidityBar[];
  /** One line per problem: which bar, where, what, and what to do. */
  problems: string[];
  /** The drops behind the unmodelled-drops bar, one per place. */
  drops: DropProblem[];
}

/**
 * Judges a run from its links' accounts (Testbed.account, read once the run's traffic stopped):
 * invalid if any relay direction's p99 departure lateness reached `lateP99BarMs` (default
 * LATE_P99_LIMIT_MS) — it measured the box, not the network — or if any link lost a packet it does
 * not model (a full TUN queue or socket buffer, the relay's ring, or a packet nobody counted).
 */
export function judgeRun(links: Record<string, LinkAccount>, o: { lateP99BarMs?: number; note?: string } = {}): Verdict {
  const bar = o.lateP99BarMs ?? LATE_P99_LIMIT_MS;
  const late = lateRelays(links, bar);
  const drops = dropProblems(links);
  const failed: ValidityBar[] = [
    ...(late.length ? (['relay-late'] as const) : []),
    ...(drops.length ? (['unmodelled-drops'] as const) : []),
  ];
  const problems = [
    ...(late.length
      ? [
          `relay late (bar: p99 < ${bar} ms): ${late.join('; ')}${o.note ? ` (${o.note})` : ''} — the box held the relays back: run on a quieter machine, or with fewer --parallel`,
        ]
      : []),
    ...drops.map((d) => `unmodelled drop: ${d.message}`),
  ];
  return { lateP99BarMs: bar, failed, problems, drops };
}
