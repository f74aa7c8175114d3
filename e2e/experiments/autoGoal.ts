import { parseStreamName } from '@ethle/live-origin';
import { meanCi, type MeanCi } from './meanCi.js';
import type { RunRow } from './mergeRuns.js';

/** Issue 19's goal for `auto` (or a variant of it), checked in one cell (stream @ RTT, one receiver kind). */
export interface AutoGoalRow {
  cell: string;
  /** The scheme checked: `auto`, or a variant (`auto-warm`, `auto-measured`). */
  scheme: string;
  /** Valid runs per scheme the figures are over. */
  runs: Record<string, number>;
  /** The checked scheme's figures. */
  auto: { buffering: MeanCi | null; stalls: number; latency: MeanCi | null } | undefined;
  e2e: MeanCi | null;
  /** The fixed x (hold-N, hold-paper) that buffered least, and its buffering. */
  bestFixed: { scheme: string; buffering: MeanCi } | undefined;
  /** The smallest fixed x none of whose runs stalled, and its latency. */
  smallestStallFree: { scheme: string; x: number; latency: MeanCi | null } | undefined;
  /** auto buffers no more than the best fixed x, within the 95 % intervals (undefined: nothing to compare). */
  noWorseThanBestFixed: boolean | undefined;
  noWorseThanE2e: boolean | undefined;
  /** auto's mean latency within one segment of the smallest stall-free fixed x's mean. */
  latencyWithinOneSegment: boolean | undefined;
}

const FIXED = /^(hold-\d+|hold-paper)$/;

/** a ≤ b within the 95 % intervals: a's lower end does not pass b's upper end (one run: its value). */
function notAbove(a: MeanCi | null, b: MeanCi | null): boolean | undefined {
  if (a === null || b === null) return undefined;
  return a.mean - (a.half ?? 0) <= b.mean + (b.half ?? 0) + 1e-9;
}

/**
 * Issue 19's goal per cell, from merged runs (runs.csv rows; invalid runs left out): `auto`
 * buffers no more than the best fixed x and no more than E2E (within the 95 % intervals), and its
 * latency is within one segment of the smallest fixed x with 0 stalls. Whether a cell's radio leg
 * can carry the stream (where auto must have 0 stalls) needs per-segment evidence, not these
 * figures: auto's stall count is reported for that reading.
 *
 * `scheme` checks a variant of auto instead (`auto-warm`: `--segment-start warm`), in the cells
 * where it was run; `auto` itself is reported in every cell.
 */
export function autoGoal(rows: readonly RunRow[], scheme = 'auto'): AutoGoalRow[] {
  const byCell = new Map<string, RunRow[]>();
  for (const r of rows) {
    if (r.invalid !== '') continue;
    const list = byCell.get(r.cell) ?? [];
    list.push(r);
    byCell.set(r.cell, list);
  }
  const out: (AutoGoalRow & { order: number })[] = [];
  for (const [cell, list] of byCell) {
    const by = (scheme: string) => list.filter((r) => r.scheme === scheme);
    const schemes = [...new Set(list.map((r) => r.scheme))];
    const runs = Object.fromEntries(schemes.map((s) => [s, by(s).length]));
    const autoRuns = by(scheme);
    if (autoRuns.length === 0 && scheme !== 'auto') continue;
    const auto =
      autoRuns.length === 0
        ? undefined
        : {
            buffering: meanCi(autoRuns.map((r) => r.bufferingS)),
            stalls: autoRuns.reduce((a, r) => a + (r.stalls ?? 0), 0),
            latency: meanCi(autoRuns.map((r) => r.latencyS)),
          };
    const e2e = meanCi(by('e2e').map((r) => r.bufferingS));
    let bestFixed: AutoGoalRow['bestFixed'];
    let smallestStallFree: AutoGoalRow['smallestStallFree'];
    for (const s of schemes.filter((x) => FIXED.test(x))) {
      const rs = by(s);
      const buffering = meanCi(rs.map((r) => r.bufferingS));
      if (buffering !== null && (bestFixed === undefined || buffering.mean < bestFixed.buffering.mean))
        bestFixed = { scheme: s, buffering };
      const x = rs[0]?.x;
      if (x === null || x === undefined || rs.some((r) => (r.stalls ?? 0) > 0)) continue;
      if (smallestStallFree === undefined || x < smallestStallFree.x)
        smallestStallFree = { scheme: s, x, latency: meanCi(rs.map((r) => r.latencyS)) };
    }
    const spec = parseStreamName(list[0]!.stream);
    const segmentS = spec?.segmentSeconds;
    const sf = smallestStallFree?.latency ?? null;
    out.push({
      // As tableII: by RTT, then bitrate and segment length.
      order: (list[0]!.rttMs ?? 0) * 1e6 + (spec ? spec.bitrateMbps * 100 + spec.segmentSeconds : 99_999),
      cell,
      scheme,
      runs,
      auto,
      e2e,
      bestFixed,
      smallestStallFree,
      noWorseThanBestFixed: auto && bestFixed ? notAbove(auto.buffering, bestFixed.buffering) : undefined,
      noWorseThanE2e: auto ? notAbove(auto.buffering, e2e) : undefined,
      // The issue's words: within one segment of it — means, not intervals (the held segment is a
      // fixed cost, not noise).
      latencyWithinOneSegment: auto?.latency && sf && segmentS !== undefined ? auto.latency.mean <= sf.mean + segmentS + 1e-9 : undefined,
    });
  }
  return out.sort((a, b) => a.order - b.order || a.cell.localeCompare(b.cell)).map(({ order: _, ...r }) => r);
}

const f = (m: MeanCi | null | undefined) => (m ? (m.half === null ? m.mean.toFixed(1) : `${m.mean.toFixed(1)}±${m.half.toFixed(1)}`) : '–');
const yn = (b: boolean | undefined) => (b === undefined ? '–' : b ? 'yes' : '**no**');

/** The goal table for the docs (markdown), for one checked scheme (`auto` unless the rows say otherwise). */
export function autoGoalTable(rows: readonly AutoGoalRow[]): string {
  const name = rows[0]?.scheme ?? 'auto';
  const lines = [
    `| cell | runs (${name}) | ${name} buffering (s) | best fixed x, buffering (s) | E2E buffering (s) | ≤ best fixed | ≤ E2E | ${name} stalls | ${name} latency (s) | smallest stall-free x, latency (s) | within 1 segment |`,
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.cell} | ${r.runs[r.scheme] ?? 0} | ${f(r.auto?.buffering)} | ${r.bestFixed ? `${r.bestFixed.scheme}: ${f(r.bestFixed.buffering)}` : '–'} | ${f(r.e2e)} | ${yn(r.noWorseThanBestFixed)} | ${yn(r.noWorseThanE2e)} | ${r.auto?.stalls ?? '–'} | ${f(r.auto?.latency)} | ${r.smallestStallFree ? `${r.smallestStallFree.scheme} (x ${r.smallestStallFree.x}): ${f(r.smallestStallFree.latency)}` : '–'} | ${yn(r.latencyWithinOneSegment)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
