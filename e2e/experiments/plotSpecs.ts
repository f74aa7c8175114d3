import type { TopLevelSpec } from 'vega-lite';
import { parseCsv } from './mergeRuns.js';

/**
 * Vega-Lite specs for the experiments' plots, built from the CSVs that `experiment:merge`
 * (summary.csv, runs.csv) and `experiment:scale` (cdf.csv) write. Pure: text in, specs out;
 * plots.ts renders them to SVG.
 */

/** The per-scheme bar plots: one file per metric and receiver variant, a row per RTT. */
export const BAR_METRICS = {
  buffering_s: 'buffering (s)',
  latency_s: 'live latency at the end (s)',
  startup_s: 'startup (s)',
} as const;
export type BarMetric = keyof typeof BAR_METRICS;

/** One mark of a bar plot: a cell × scheme mean with its interval, or one valid run. */
export interface BarDatum {
  kind: 'mean' | 'run';
  rtt: string;
  stream: string;
  scheme: string;
  value: number;
  lo: number;
  hi: number;
  runs: number;
}

/** A plot to write: its file name beside the CSVs and its spec. */
export interface PlotFile {
  file: string;
  spec: TopLevelSpec;
}

/**
 * `mean±half` as merge writes it (Student's t 95 % half-width), or a lone mean from one run.
 * Empty (no valid run) is null.
 */
export function parseMeanCi(v: string): { mean: number; half: number } | null {
  const t = v.trim();
  if (t === '') return null;
  const [m, h] = t.split('±');
  const mean = Number(m);
  const half = h === undefined ? 0 : Number(h);
  if (!Number.isFinite(mean) || !Number.isFinite(half)) throw new Error(`not a mean±half: ${JSON.stringify(v)}`);
  return { mean, half };
}

/**
 * What a merged cell says beyond its stream and RTT — the receiver kind and any non-default
 * network setting: `15M-2s @ 224 ms [virtual]` → `virtual`,
 * `15M-2s @ 224 ms (cubic) [virtual]` → `cubic virtual`, `15M-2s LL @ 224 ms [chromium]` → `LL chromium`.
 * Runs of different variants are never drawn in one plot, as merge never averages them.
 */
export function cellVariant(cell: string, stream: string, rttMs: string): string {
  let rest = cell;
  if (rest.startsWith(stream)) rest = rest.slice(stream.length);
  rest = rest.replace(` @ ${rttMs} ms`, ' ');
  return rest
    .replace(/[()[\],]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A variant as a file-name part: `cubic virtual` → `cubic-virtual`. */
export const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'all';

/** Rows of a CSV as objects keyed by its header. */
export function csvObjects(text: string): Record<string, string>[] {
  const [head, ...body] = parseCsv(text);
  if (!head) return [];
  return body.filter((r) => r.length > 1).map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
}

const REQUIRED_SUMMARY = ['cell', 'rtt_ms', 'stream', 'scheme', 'runs'];

/**
 * The bar plots of a merged directory: per receiver variant and metric, bars of the mean over
 * valid runs with the 95 % interval (clipped at 0) and a dot per valid run (runs.csv, when
 * given), one row per RTT, streams along x, schemes side by side in merge's order.
 */
export function barPlots(summaryCsv: string, runsCsv?: string): PlotFile[] {
  const summary = csvObjects(summaryCsv);
  const cols = summary[0] ? Object.keys(summary[0]) : [];
  const missing = REQUIRED_SUMMARY.filter((c) => !cols.includes(c));
  if (summary.length === 0 || missing.length > 0)
    throw new Error(`summary.csv: not merge's format (missing ${missing.join(', ') || 'rows'})`);
  const runs = runsCsv ? csvObjects(runsCsv).filter((r) => (r['invalid'] ?? '') === '') : [];
  const variants = [...new Set(summary.map((r) => cellVariant(r['cell']!, r['stream']!, r['rtt_ms']!)))];
  const files: PlotFile[] = [];
  for (const variant of variants) {
    const rows = summary.filter((r) => cellVariant(r['cell']!, r['stream']!, r['rtt_ms']!) === variant);
    const cells = new Set(rows.map((r) => r['cell']));
    const streams = [...new Set(rows.map((r) => r['stream']!))];
    const schemes = [...new Set(rows.map((r) => r['scheme']!))];
    const rtts = [...new Set(rows.map((r) => r['rtt_ms']!))].sort((a, b) => Number(a) - Number(b));
    for (const metric of Object.keys(BAR_METRICS) as BarMetric[]) {
      if (!cols.includes(metric)) continue;
      const data: BarDatum[] = [];
      for (const r of rows) {
        const ci = parseMeanCi(r[metric] ?? '');
        if (!ci) continue;
        data.push({
          kind: 'mean',
          rtt: `${r['rtt_ms']} ms`,
          stream: r['stream']!,
          scheme: r['scheme']!,
          value: ci.mean,
          lo: Math.max(0, ci.mean - ci.half),
          hi: ci.mean + ci.half,
          runs: Number(r['runs']),
        });
      }
      for (const r of runs) {
        if (!cells.has(r['cell']) || !schemes.includes(r['scheme']!)) continue;
        const v = Number(r[metric]);
        if (r[metric] === '' || !Number.isFinite(v)) continue;
        data.push({ kind: 'run', rtt: `${r['rtt_ms']} ms`, stream: r['stream']!, scheme: r['scheme']!, value: v, lo: v, hi: v, runs: 1 });
      }
      if (data.length === 0) continue;
      files.push({
        file: `plot-${metric.replace(/_s$/, '')}-${slug(variant)}.svg`,
        spec: barSpec(data, BAR_METRICS[metric], variant, { streams, schemes, rtts: rtts.map((r) => `${r} ms`) }),
      });
    }
  }
  return files;
}

function barSpec(
  data: BarDatum[],
  title: string,
  variant: string,
  order: { streams: string[]; schemes: string[]; rtts: string[] },
): TopLevelSpec {
  const x = { field: 'stream', type: 'nominal' as const, sort: order.streams, title: null, axis: { labelAngle: 0 } };
  const xOffset = { field: 'scheme', type: 'nominal' as const, sort: order.schemes };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: `${title} per scheme, ${variant || 'all'} receivers`,
      subtitle: 'bar: mean of valid runs; line: its 95 % interval (clipped at 0); dots: the runs',
    },
    data: { values: data as unknown as Record<string, unknown>[] },
    facet: { row: { field: 'rtt', type: 'ordinal', sort: order.rtts, title: 'backhaul RTT' } },
    spec: {
      width: 560,
      height: 130,
      layer: [
        {
          transform: [{ filter: "datum.kind === 'mean'" }],
          mark: { type: 'bar' },
          encoding: {
            x,
            xOffset,
            y: { field: 'value', type: 'quantitative', title },
            color: { field: 'scheme', type: 'nominal', sort: order.schemes, title: 'scheme' },
          },
        },
        {
          transform: [{ filter: "datum.kind === 'mean'" }],
          mark: { type: 'rule', color: 'black' },
          encoding: { x, xOffset, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } },
        },
        {
          transform: [{ filter: "datum.kind === 'run'" }],
          mark: { type: 'point', filled: true, size: 10, color: 'black', opacity: 0.5 },
          encoding: { x, xOffset, y: { field: 'value', type: 'quantitative' } },
        },
      ],
    },
    // Each RTT on its own y scale: a stalling cell at 334 ms would otherwise flatten 137 ms to nothing.
    resolve: { scale: { y: 'independent' } },
    config: { font: 'sans-serif', view: { stroke: '#ddd' } },
  };
}

export const CDF_METRICS = { startup_s: 'startup (s)', buffering_s: 'buffering per receiver (s)' } as const;

/**
 * The scale experiment's CDFs (cdf.csv from `experiment:scale`): per metric one file, a panel
 * per stream × cell × join × N × backhaul cap, a step line per scheme over its receivers.
 */
export function cdfPlots(cdfCsv: string): PlotFile[] {
  const rows = csvObjects(cdfCsv);
  const need = ['stream', 'n', 'scheme', 'metric', 'value', 'fraction'];
  const missing = need.filter((c) => !(rows[0] && c in rows[0]));
  if (rows.length === 0 || missing.length > 0)
    throw new Error(`cdf.csv: not experiment:scale's format (missing ${missing.join(', ') || 'rows'})`);
  const panelOf = (r: Record<string, string>) =>
    [
      r['stream'],
      `N ${r['n']}`,
      r['n'] !== '1' ? r['cell'] : '',
      r['n'] !== '1' ? r['join'] : '',
      r['backhaul_mbps'] ? `${r['backhaul_mbps']} Mbit/s` : '',
    ]
      .filter((v) => v && v !== '–')
      .join(', ');
  const panelKey = (r: Record<string, string>) =>
    [
      r['stream'],
      r['backhaul_mbps'],
      r['cell'] === '–' || r['n'] === '1' ? '' : r['cell'],
      Number(r['n']).toString().padStart(4, '0'),
    ].join('|');
  const files: PlotFile[] = [];
  for (const metric of Object.keys(CDF_METRICS) as (keyof typeof CDF_METRICS)[]) {
    const sel = rows.filter((r) => r['metric'] === metric);
    if (sel.length === 0) continue;
    const panels = [...new Map(sel.map((r) => [panelKey(r), panelOf(r)])).entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, p]) => p);
    const schemes = [...new Set(sel.map((r) => r['scheme']!))];
    const data = sel.map((r) => ({ panel: panelOf(r), scheme: r['scheme']!, value: Number(r['value']), fraction: Number(r['fraction']) }));
    // Each line rises from 0 at its smallest value, so a group of one receiver is a step, not a dot.
    const firsts = new Map<string, (typeof data)[number]>();
    for (const d of data) {
      const k = `${d.panel}\u0000${d.scheme}`;
      const f = firsts.get(k);
      if (!f || d.value < f.value) firsts.set(k, d);
    }
    data.unshift(...[...firsts.values()].map((d) => ({ ...d, fraction: 0 })));
    files.push({
      file: `plot-cdf-${metric.replace(/_s$/, '')}.svg`,
      spec: {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        title: {
          text: `${CDF_METRICS[metric]}: CDF over receivers`,
          subtitle: [
            'a panel per stream, receivers N, cell (per-user or shared radio), join (sync: within 2 s) and backhaul cap;',
            'the receivers of all runs in the group pooled',
          ],
        },
        data: { values: data },
        facet: { field: 'panel', type: 'nominal', sort: panels, title: null, header: { labelFontSize: 11, labelLimit: 0 } },
        columns: 3,
        spacing: { row: 20, column: 20 },
        spec: {
          width: 200,
          height: 120,
          layer: [
            {
              mark: { type: 'line', interpolate: 'step-after' },
              encoding: {
                order: { field: 'fraction', type: 'quantitative' },
                x: { field: 'value', type: 'quantitative', title: CDF_METRICS[metric] },
                y: { field: 'fraction', type: 'quantitative', title: 'fraction of receivers', scale: { domain: [0, 1] } },
                color: { field: 'scheme', type: 'nominal', sort: schemes },
              },
            },
            {
              mark: { type: 'point', filled: true, size: 14 },
              encoding: {
                x: { field: 'value', type: 'quantitative' },
                y: { field: 'fraction', type: 'quantitative' },
                color: { field: 'scheme', type: 'nominal', sort: schemes },
              },
            },
          ],
        },
        resolve: { scale: { x: 'independent' } },
        config: { font: 'sans-serif', view: { stroke: '#ddd' } },
      },
    });
  }
  return files;
}
