import { Chart, registerables, type ChartDataset } from 'chart.js';
import type { ResultSet } from './data/RunResult.js';
import { asResultSet, cdf, latencyStack, latencyTimeline, tableII, throughputByScheme } from './data/summarize.js';

Chart.register(...registerables);
Chart.defaults.animation = false;

const COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
const charts: Chart[] = [];

/** Renders a result set: latency timelines with stalls, Fig. 9 stacked bars, throughput CDFs, Table II. */
export function render(set: ResultSet): void {
  for (const c of charts.splice(0)) c.destroy();
  document.querySelector('#title')!.textContent = set.title ?? `${set.runs.length} runs`;

  // Live latency over time, one line per run, stalls as points on the line's time axis.
  const timeline: ChartDataset<'line'>[] = [];
  set.runs.forEach((r, i) => {
    const tl = latencyTimeline(r);
    const color = COLORS[i % COLORS.length]!;
    timeline.push({ label: `${r.scenario.scheme} · ${r.scenario.stream}`, data: tl.points.map((p) => ({ x: p.t, y: p.latency })), borderColor: color, pointRadius: 0 });
    if (tl.stalls.length) {
      timeline.push({ label: `stalls (${r.scenario.scheme})`, data: tl.stalls.map((s) => ({ x: s.t, y: 0 })), borderColor: color, showLine: false, pointStyle: 'triangle', pointRadius: 6 });
    }
  });
  charts.push(
    new Chart(canvas('#latency'), {
      type: 'line',
      data: { datasets: timeline },
      options: { parsing: false, scales: { x: { type: 'linear', title: { display: true, text: 'time (s)' } }, y: { title: { display: true, text: 'true live latency (s)' } } } },
    }),
  );

  // Paper Fig. 9: live latency = startup + buffering + holding.
  const stack = latencyStack(set);
  charts.push(
    new Chart(canvas('#stack'), {
      type: 'bar',
      data: {
        labels: stack.map((s) => s.label),
        datasets: [
          { label: 'initial startup', data: stack.map((s) => s.startupS), backgroundColor: '#1f77b4' },
          { label: 'buffering', data: stack.map((s) => s.stallS), backgroundColor: '#d62728' },
          { label: 'holding', data: stack.map((s) => s.holdS), backgroundColor: '#2ca02c' },
          { label: "player's live offset", data: stack.map((s) => s.playerOffsetS), backgroundColor: '#bbbbbb' },
        ],
      },
      options: { scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: 'seconds' } } } },
    }),
  );

  // Paper Fig. 5/7/10: CDF of per-segment throughput.
  const cdfs: ChartDataset<'line'>[] = [...throughputByScheme(set)].map(([scheme, xs], i) => ({
    label: scheme,
    data: cdf(xs).map((p) => ({ x: p.x, y: p.p })),
    borderColor: COLORS[i % COLORS.length],
    pointRadius: 0,
    stepped: true,
  }));
  charts.push(
    new Chart(canvas('#cdf'), {
      type: 'line',
      data: { datasets: cdfs },
      options: { parsing: false, scales: { x: { type: 'linear', title: { display: true, text: 'per-segment throughput (Mbit/s)' } }, y: { min: 0, max: 1, title: { display: true, text: 'CDF' } } } },
    }),
  );

  // Paper Table II.
  const f = (v: number | null, d = 1) => (v === null ? '–' : v.toFixed(d));
  document.querySelector('#table tbody')!.innerHTML = tableII(set)
    .map((r) => `<tr><td>${esc(r.cell)}</td><td>${esc(r.scheme)}</td><td>${r.runs}</td><td>${f(r.throughputMbps)}</td><td>${f(r.startupS)}</td><td>${f(r.stallS)}</td><td>${f(r.holdS)}</td><td>${f(r.latencyS)}</td></tr>`)
    .join('');
  Object.assign(window, { dashboard: { charts, set } });
}

function canvas(sel: string): HTMLCanvasElement {
  return document.querySelector<HTMLCanvasElement>(sel)!;
}

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The results at `url`; a failed request says so (a 404 is a missing file, not a wrong one). */
async function fetchResults(url: string): Promise<unknown> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url} answered ${r.status}${r.statusText ? ` ${r.statusText}` : ''}`);
  try {
    return await r.json();
  } catch {
    throw new Error(`${url} is not JSON`);
  }
}

/** Renders what `load` gives, or says on the page why there is nothing to render. */
async function show(load: () => Promise<unknown>): Promise<void> {
  try {
    render(asResultSet(await load()));
  } catch (e) {
    document.querySelector('#title')!.textContent = `No results: ${(e as Error).message}`;
  }
}

async function load(): Promise<void> {
  // Results embedded by the static report renderer win; else ?results=URL; else the live collector.
  const embedded = document.querySelector('#results-data')?.textContent?.trim();
  const url = new URLSearchParams(location.search).get('results') ?? '/api/runs';
  await show(async () => (embedded ? JSON.parse(embedded) : fetchResults(url)));
}

document.querySelector<HTMLInputElement>('#file')!.addEventListener('change', (ev) => {
  const file = (ev.target as HTMLInputElement).files?.[0];
  if (file) void show(async () => JSON.parse(await file.text()));
});
await load();
