import type { LinkStats } from './startRelay.js';

/** A relay that sent more than 1 % of its datagrams this late distorted the link it emulates. */
export const LATE_P99_LIMIT_MS = 1;

/**
 * What makes a run's links untrustworthy, from the relays' counters at its end: every direction
 * whose p99 departure lateness reached the limit, as "ran down p99 1.8 ms (max 14.2 ms, 81234
 * datagrams)", and every direction whose sending thread fell so far behind that it dropped. Empty: the links kept their timing and the run measured the network, not the box.
 */
export function relayTimingProblems(links: Record<string, LinkStats>, limitMs = LATE_P99_LIMIT_MS): string[] {
  const out: string[] = [];
  for (const [name, link] of Object.entries(links)) {
    for (const dir of ['up', 'down'] as const) {
      const l = link[dir].lateness;
      if (l.count > 0 && l.p99Ms >= limitMs) out.push(`${name} ${dir} p99 ${l.p99Ms.toFixed(2)} ms (max ${l.maxMs.toFixed(1)} ms, ${l.count} datagrams)`);
      const full = link[dir].ringFull ?? 0;
      if (full > 0) out.push(`${name} ${dir} dropped ${full} datagrams: its sending thread fell behind`);
    }
  }
  return out;
}
