import type { LatenessSummary } from './LatenessHistogram.js';
import type { LinkStats } from './startRelay.js';

/** What judging a direction's timing reads: its lateness, and with lateness injected the part beyond the freezes. */
type Timed = Record<'up' | 'down', { lateness: LatenessSummary; naturalLateness?: LatenessSummary }>;

/**
 * The validity bar on the relays' timing: a run in which a relay direction sent more than 1 % of
 * its datagrams this late (its p99 departure lateness reached it) distorted the link it emulates
 * and is invalid. The one threshold every judgement of a run uses by default; the experiments take
 * another with `--late-bar MS` (recorded in each run).
 *
 * 2 ms, from the lateness-injection experiment (docs/netlab.md, "The lateness bar";
 * docs/experiments/lateness-bar.md): on its most sensitive cell (50M-2s at 137 ms, CUBIC, `auto`),
 * 10 runs per level, runs with p99 1 or 2 ms injected on both links (measured 1.7–3.9 ms) stalled,
 * started and lagged live like the runs with nothing injected, while 5 ms on one link moved startup
 * and live latency and 5 ms on both with the box's own lateness on top stalled 3 runs of 3. The
 * bar is the injected level, below the lateness its runs measured, so a valid run is never later
 * than runs shown to have no effect. mahimahi's delay granularity (1 ms) is the field's reference.
 */
export const LATE_P99_LIMIT_MS = 2;

/**
 * Every direction whose p99 departure lateness reached the bar, as "ran down p99 1.80 ms (max
 * 14.2 ms, 81234 datagrams)". With lateness injected on purpose, the relay's own lateness beyond
 * the injected freezes is what is judged (`naturalLateness`).
 */
export function lateRelays(links: Record<string, Timed>, limitMs = LATE_P99_LIMIT_MS): string[] {
  const out: string[] = [];
  for (const [name, link] of Object.entries(links)) {
    for (const dir of ['up', 'down'] as const) {
      const injected = link[dir].naturalLateness !== undefined;
      const l = link[dir].naturalLateness ?? link[dir].lateness;
      if (l.count > 0 && l.p99Ms >= limitMs)
        out.push(
          `${name} ${dir} p99 ${l.p99Ms.toFixed(2)} ms${injected ? ' beyond the injected lateness' : ''} (max ${l.maxMs.toFixed(1)} ms, ${l.count} datagrams)`,
        );
    }
  }
  return out;
}

/**
 * What makes a run's links untrustworthy from the relays' counters alone: every late direction
 * (lateRelays) and every direction whose sending thread fell so far behind that it dropped. Empty:
 * the links kept their timing and the run measured the network, not the box. (The experiments
 * judge a run with judgeRun, which also balances every packet.)
 */
export function relayTimingProblems(links: Record<string, Pick<LinkStats, 'up' | 'down'>>, limitMs = LATE_P99_LIMIT_MS): string[] {
  const out = lateRelays(links, limitMs);
  for (const [name, link] of Object.entries(links)) {
    for (const dir of ['up', 'down'] as const) {
      const full = link[dir].ringFull ?? 0;
      if (full > 0) out.push(`${name} ${dir} dropped ${full} datagrams: its sending thread fell behind`);
    }
  }
  return out;
}
