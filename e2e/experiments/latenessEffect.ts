import type { RunRow } from './mergeRuns.js';

/** The figures a lateness level is judged on: what a viewer sees. */
const METRICS = ['startupS', 'bufferingS', 'latencyS'] as const;
type Metric = (typeof METRICS)[number];

interface Spread {
  mean: number | null;
  min: number | null;
  max: number | null;
}

/** One cell × scheme at one level of injected lateness, against the same cell and scheme with none. */
export interface LatenessEffectRow {
  /** The cell without the injected lateness (stream @ RTT, network, receiver). */
  cell: string;
  scheme: string;
  /** The injected lateness (`lateness p99 2 ms + 3 stalls/min`); empty: none, the baseline. */
  level: string;
  /** The runs the level is judged on: every run not failed by a bar other than relay-late. */
  runs: number;
  /** Of those, the runs the relay-late bar failed: the box's own lateness was above the bar (see latenessEffect). */
  late: number;
  /** Runs left out: failed by another bar (unmodelled drops), or invalid for a reason not recorded. */
  invalid: number;
  /** The median over its valid runs of each run's worst relay p99 lateness, ms: the lateness the level really had. */
  lateP99Ms: number | null;
  metrics: Record<Metric, Spread>;
  /**
   * Whether every metric's mean stays inside the baseline's run-to-run spread (its runs' min–max);
   * undefined for the baseline itself or when either side has no valid run.
   */
  inside: boolean | undefined;
}

const spread = (xs: (number | null)[]): Spread => {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  if (v.length === 0) return { mean: null, min: null, max: null };
  return { mean: v.reduce((a, b) => a + b, 0) / v.length, min: Math.min(...v), max: Math.max(...v) };
};

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The cell a run would have had with no lateness injected: its cell with the injection's label taken out. */
export function baseCell(r: Pick<RunRow, 'cell' | 'inject'>): string {
  if (r.inject === '') return r.cell;
  return r.cell.replace(` (${r.inject})`, '').replace(`, ${r.inject}`, '');
}

/**
 * Whether a run can speak for its level: lateness is what the experiment varies, so failing the
 * relay-late bar does not disqualify a run — the level is placed by the lateness its runs really had
 * (natural plus injected). Any other failed bar (an unmodelled drop) does, and so does an invalid run
 * whose bars were not recorded.
 */
const judged = (r: RunRow): boolean => {
  if (r.invalid === '') return true;
  const bars = r.failedBars.split(' ').filter(Boolean);
  return bars.length > 0 && bars.every((b) => b === 'relay-late');
};

/**
 * The lateness-injection experiment (docs/netlab.md, "The lateness bar"): per cell × scheme, each
 * level of injected lateness against the runs with none. A level is inside when its mean startup,
 * buffering and live latency each stay within the baseline runs' range. The baseline is the box's
 * own lateness, not zero: on a VM whose vCPUs stop for milliseconds the runs with nothing injected
 * are already late, and a bar judged against runs that beat the bar would exclude every run.
 */
export function latenessEffect(rows: readonly RunRow[]): LatenessEffectRow[] {
  const groups = new Map<string, RunRow[]>();
  for (const r of rows) {
    const k = `${baseCell(r)}\u0000${r.scheme}\u0000${r.inject}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const out: LatenessEffectRow[] = [];
  for (const g of groups.values()) {
    const r0 = g[0]!;
    const valid = g.filter(judged);
    const metrics = Object.fromEntries(METRICS.map((m) => [m, spread(valid.map((r) => r[m]))])) as Record<Metric, Spread>;
    out.push({
      cell: baseCell(r0),
      scheme: r0.scheme,
      level: r0.inject,
      runs: valid.length,
      late: valid.filter((r) => r.invalid !== '').length,
      invalid: g.length - valid.length,
      lateP99Ms: median(valid.map((r) => r.lateP99Ms).filter((x): x is number => x !== null)),
      metrics,
      inside: undefined,
    });
  }
  for (const row of out) {
    if (row.level === '') continue;
    const base = out.find((b) => b.level === '' && b.cell === row.cell && b.scheme === row.scheme);
    if (!base || base.runs === 0 || row.runs === 0) continue;
    row.inside = METRICS.every((m) => {
      const { mean } = row.metrics[m];
      const { min, max } = base.metrics[m];
      return mean === null || min === null || max === null || (mean >= min - 1e-9 && mean <= max + 1e-9);
    });
  }
  return out.sort(
    (a, b) =>
      a.cell.localeCompare(b.cell) ||
      a.scheme.localeCompare(b.scheme) ||
      (a.lateP99Ms ?? 0) - (b.lateP99Ms ?? 0) ||
      a.level.localeCompare(b.level),
  );
}

/**
 * The bar the experiment supports: the measured p99 lateness of the highest level that stayed
 * inside the baseline's spread in every cell × scheme, every lower level having stayed inside
 * too. Undefined when no level did (or none could be judged): the bar stays where it is.
 */
export function suggestedLateBar(rows: readonly LatenessEffectRow[]): { p99Ms: number; level: string } | undefined {
  const levels = new Map<string, LatenessEffectRow[]>();
  for (const r of rows) if (r.level !== '') levels.set(r.level, [...(levels.get(r.level) ?? []), r]);
  const ordered = [...levels.entries()]
    // The lateness every cell of the level had at least (its lowest median): what was shown harmless everywhere.
    .map(([level, rs]) => ({ level, rs, p99: Math.min(...rs.map((r) => r.lateP99Ms ?? Infinity)) }))
    .sort((a, b) => a.p99 - b.p99);
  let bar: { p99Ms: number; level: string } | undefined;
  for (const { level, rs, p99 } of ordered) {
    if (!rs.every((r) => r.inside === true) || !Number.isFinite(p99)) break;
    bar = { p99Ms: p99, level };
  }
  return bar;
}

/** The experiment's table and the bar it supports, as markdown. */
export function latenessEffectMarkdown(rows: readonly LatenessEffectRow[]): string {
  const f = (v: number | null, d = 2) => (v === null ? '–' : v.toFixed(d));
  const s = (x: Spread) => (x.mean === null ? '–' : `${f(x.mean)} (${f(x.min)}–${f(x.max)})`);
  const out = [
    '| cell | scheme | injected | runs (box late; left out) | worst relay p99, median (ms) | startup (s) | buffering (s) | live latency (s) | inside the spread with none injected |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.cell} | ${r.scheme} | ${r.level || 'none'} | ${r.runs} (${r.late}; ${r.invalid}) | ${f(r.lateP99Ms)} | ${s(r.metrics.startupS)} | ${s(r.metrics.bufferingS)} | ${s(r.metrics.latencyS)} | ${r.inside === undefined ? '–' : r.inside ? 'yes' : 'no'} |`,
    ),
  ];
  const bar = suggestedLateBar(rows);
  out.push(
    '',
    bar
      ? `The bar these runs support: p99 < ${bar.p99Ms.toFixed(2)} ms (${bar.level}: the highest level whose every cell and scheme stayed inside the spread, every lower level too). Set LATE_P99_LIMIT_MS to it (packages/netlab/src/relay/relayTimingProblems.ts).`
      : 'No level stayed inside the spread in every cell and scheme: the bar stays where it is.',
  );
  return `${out.join('\n')}\n`;
}
