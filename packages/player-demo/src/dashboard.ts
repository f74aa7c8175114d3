import { Chart, registerables, type ChartDataset } from 'chart.js';
import type { ResultSet } from './data/RunResult.js';
import { runLabel, schemeColor } from './data/schemeColor.js';
import { asResultSet, cdf, latencyStack, latencyTimeline, tableII, throughputByScheme } from './data/summarize.js';
import { loadConfig } from './config.js';
import { mountFleet, type FleetHandle } from './fleet/mountFleet.js';

Chart.register(...registerables);
Chart.defaults.animation = false;
// Legends draw each dataset's point style: a line for a line, a triangle for stalls.
Chart.defaults.plugins.legend.labels.usePointStyle = true;
// A white canvas, so an exported PNG is readable on any background.
Chart.register({
  id: 'whiteBackground',
  beforeDraw(chart) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
});

/** An invalid run's line (RunResult.invalid): grey and dotted, so it reads as not counted. */
const INVALID_COLOR = '#9e9e9e';

/** The Fig. 9 components: not schemes, so none of the schemes' colours (schemeColor). */
const PART_COLORS = { startup: '#6baed6', buffering: '#fd8d3c', holding: '#74c476', offset: '#d9d9d9' };
/** How often the collector is asked again (the demo's probes send every 5 s). */
const REFRESH_MS = 5000;
/** The newest sessions drawn run by run (the paper's views); the fleet view covers all of them. */
const RUNS_SHOWN = 10;
const charts: Chart[] = [];
const byId = new Map<string, Chart>();
let updates = 0;
/** Whether the live collector's runs are shown (and refreshed): until the user picks a file. */
let live = true;
let fleet: FleetHandle | undefined;

/** Renders a result set: latency timelines with stalls, Fig. 9 stacked bars, throughput CDFs, Table II. */
export function render(set: ResultSet): void {
  for (const c of charts.splice(0)) c.destroy();
  byId.clear();
  document.querySelector('#title')!.textContent = set.title ?? `${set.runs.length} runs`;

  // Live latency over time, one line per run (its scheme's colour; runs of one scheme told apart
  // by their id and dash pattern), stalls as triangles on the line's time axis. An invalid run is
  // drawn grey and dotted, its label saying so: shown, not counted.
  const timeline: ChartDataset<'line'>[] = [];
  const seen = new Map<string, number>();
  for (const r of set.runs) {
    const tl = latencyTimeline(r);
    const color = r.invalid ? INVALID_COLOR : schemeColor(r.scenario.scheme);
    const nth = seen.get(r.scenario.scheme) ?? 0;
    seen.set(r.scenario.scheme, nth + 1);
    const dash = r.invalid ? [2, 3] : nth === 0 ? [] : [6, 3 * nth];
    timeline.push({
      label: `${r.invalid ? 'INVALID · ' : ''}${runLabel(r)}`,
      data: tl.points.map((p) => ({ x: p.t, y: p.latency })),
      borderColor: color,
      backgroundColor: color,
      borderDash: dash,
      pointRadius: 0,
      pointStyle: 'line',
    });
    if (tl.stalls.length) {
      timeline.push({
        label: `stalls · ${r.invalid ? 'INVALID · ' : ''}${runLabel(r)}`,
        data: tl.stalls.map((s) => ({ x: s.t, y: 0 })),
        borderColor: color,
        backgroundColor: color,
        showLine: false,
        pointStyle: 'triangle',
        pointRadius: 6,
      });
    }
  }
  charts.push(
    new Chart(canvas('latency'), {
      type: 'line',
      data: { datasets: timeline },
      options: {
        parsing: false,
        scales: {
          x: { type: 'linear', title: { display: true, text: 'time (s)' } },
          y: { title: { display: true, text: 'true live latency (s)' } },
        },
      },
    }),
  );

  // Paper Fig. 9: live latency = startup + buffering + holding.
  const stack = latencyStack(set);
  charts.push(
    new Chart(canvas('stack'), {
      type: 'bar',
      data: {
        labels: stack.map((s) => s.label),
        datasets: [
          { label: 'initial startup', data: stack.map((s) => s.startupS), backgroundColor: PART_COLORS.startup },
          { label: 'buffering', data: stack.map((s) => s.stallS), backgroundColor: PART_COLORS.buffering },
          { label: 'holding', data: stack.map((s) => s.holdS), backgroundColor: PART_COLORS.holding },
          { label: "player's live offset", data: stack.map((s) => s.playerOffsetS), backgroundColor: PART_COLORS.offset },
        ],
      },
      // The bars' labels carry their scheme's colour, as the lines of the other charts do.
      options: {
        plugins: { legend: { labels: { usePointStyle: false } } },
        scales: {
          x: { stacked: true, ticks: { color: stack.map((s) => schemeColor(s.scheme)) } },
          y: { stacked: true, title: { display: true, text: 'seconds' } },
        },
      },
    }),
  );

  // Paper Fig. 5/7/10: CDF of per-segment throughput.
  const cdfs: ChartDataset<'line'>[] = [...throughputByScheme(set)].map(([scheme, xs]) => ({
    label: scheme,
    data: cdf(xs).map((p) => ({ x: p.x, y: p.p })),
    borderColor: schemeColor(scheme),
    backgroundColor: schemeColor(scheme),
    pointStyle: 'line',
    pointRadius: 0,
    stepped: true,
  }));
  charts.push(
    new Chart(canvas('cdf'), {
      type: 'line',
      data: { datasets: cdfs },
      options: {
        parsing: false,
        scales: {
          x: { type: 'linear', title: { display: true, text: 'per-segment throughput (Mbit/s)' } },
          y: { min: 0, max: 1, title: { display: true, text: 'CDF' } },
        },
      },
    }),
  );

  // Paper Table II: means over the valid runs; the invalid ones counted beside them.
  const f = (v: number | null, d = 1) => (v === null ? '–' : v.toFixed(d));
  document.querySelector('#table tbody')!.innerHTML = tableII(set)
    .map(
      (r) =>
        `<tr><td>${esc(r.cell)}</td><td>${esc(r.scheme)}</td><td>${r.runs}${r.invalid ? ` (+${r.invalid} invalid, not averaged)` : ''}</td><td>${f(r.throughputMbps)}</td><td>${f(r.startupS)}</td><td>${f(r.stallS)}</td><td>${f(r.holdS)}</td><td>${f(r.latencyS)}</td></tr>`,
    )
    .join('');
  for (const c of charts) byId.set(c.canvas.id, c);
  updates += 1;
  Object.assign(window, { dashboard: { charts, set, updates } });
}

function canvas(id: string): HTMLCanvasElement {
  return document.querySelector<HTMLCanvasElement>(`#${id}`)!;
}

// PNG export of each chart (what it shows now, on white).
for (const b of document.querySelectorAll<HTMLButtonElement>('button.png')) {
  b.addEventListener('click', () => {
    const chart = byId.get(b.dataset['chart']!);
    if (chart === undefined) return;
    const a = document.createElement('a');
    a.href = chart.toBase64Image('image/png', 1);
    a.download = `ethle-${b.dataset['chart']}.png`;
    a.click();
  });
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
  const given = new URLSearchParams(location.search).get('results');
  const source = document.querySelector<HTMLElement>('#source')!;
  if (embedded) {
    // A static report: one file, nothing live, no pages around it to navigate to.
    document.querySelector('nav')?.remove();
    document.querySelector('#pick')?.remove();
    source.textContent = 'A static report: the results are embedded in this file.';
    await show(async () => JSON.parse(embedded));
    return;
  }
  if (given !== null) {
    source.textContent = `Results from ${given}.`;
    await show(() => fetchResults(given));
    return;
  }
  // The collector npm start runs: the fleet view, and its newest sessions run by run.
  const cfg = await loadConfig();
  if (cfg.collectorUrl === null) {
    document.querySelector('#title')!.textContent = 'no collector configured (npm start runs one; or ?collector=URL)';
    return;
  }
  const collector = cfg.collectorUrl;
  document.querySelector<HTMLElement>('#fleet')!.hidden = false;
  fleet = mountFleet(document.querySelector<HTMLElement>('#fleet-view')!, collector);
  Object.assign(window, { fleet: fleet.state });
  const refresh = async () => {
    await fleet?.refresh();
    if (live) {
      await show(() => fetchResults(`${collector}/v1/runs?limit=${RUNS_SHOWN}`));
      if (live)
        source.textContent = `Live: the newest ${RUNS_SHOWN} sessions in the collector (${collector}), refreshed every ${REFRESH_MS / 1000} s; last ${new Date().toLocaleTimeString()}.`;
    }
    setTimeout(() => void refresh(), REFRESH_MS);
  };
  await refresh();
}

document.querySelector<HTMLInputElement>('#file')!.addEventListener('change', (ev) => {
  const file = (ev.target as HTMLInputElement).files?.[0];
  if (!file) return;
  live = false;
  document.querySelector('#source')!.textContent = `Results from the file ${file.name}.`;
  void show(async () => JSON.parse(await file.text()));
});
await load();
