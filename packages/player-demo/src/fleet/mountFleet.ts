import { Chart, type ChartDataset } from 'chart.js';
import { bucketFor, fleetParams, getJson, type FleetChoice, type FleetView, type SessionSummary } from './fleetApi.js';
import { groupColor } from './groupColor.js';
import { mountSessionView } from './mountSessionView.js';

const RANGES: [string, number][] = [
  ['15 minutes', 900],
  ['1 hour', 3600],
  ['24 hours', 86400],
  ['7 days', 7 * 86400],
  ['all time', 0],
];
const SESSIONS_LISTED = 50;

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const f = (v: number | null, digits: number, scale = 1) => (v === null ? '–' : (v * scale).toFixed(digits));
const time = (ms: number) => new Date(ms).toLocaleString();

export interface FleetHandle {
  refresh(): Promise<void>;
  /** What tests and the page read: the last view, its charts, the session list, renders so far. */
  state: { view: FleetView | null; charts: Chart[]; sessions: SessionSummary[]; updates: number; renderMs: number | null };
}

/**
 * The fleet view, as Mux Data / Conviva show one: per group (scheme, edge, player or stream),
 * startup p50/p95, rebuffering ratio, stalls per hour watched, true latency p50/p95/p99; over
 * time, rebuffering and stalls per bucket; the true latency distribution; the newest sessions,
 * one of which opens as a timeline. Every number is the collector's SQL (GET /v1/fleet,
 * /v1/sessions); the page only draws.
 */
export function mountFleet(root: HTMLElement, collectorUrl: string): FleetHandle {
  root.innerHTML = `
    <form class="filters">
      <label>time <select name="range">${RANGES.map(([l, s]) => `<option value="${s}"${s === 3600 ? ' selected' : ''}>${l}</option>`).join('')}</select></label>
      <label>split by <select name="by">${['scheme', 'edge', 'player', 'stream', 'none'].map((b) => `<option>${b}</option>`).join('')}</select></label>
      ${['scheme', 'edge', 'player', 'stream'].map((d) => `<label>${d} <select name="${d}"><option value="">any</option></select></label>`).join('')}
      <span class="fleet-status" role="status"></span>
    </form>
    <table class="fleet-table"><thead><tr><th>group</th><th>sessions</th><th title="load request → first frame">startup p50 (s)</th><th>startup p95 (s)</th><th title="time stalled ÷ time watched">rebuffering (%)</th><th>stalls</th><th title="stalls per hour watched">stalls / h</th><th title="wall clock − production time of the frame on screen">true latency p50 (s)</th><th>p95 (s)</th><th>p99 (s)</th></tr></thead><tbody></tbody></table>
    <div class="charts">
      <figure><figcaption>Rebuffering ratio per <span class="bucket">minute</span> (%)</figcaption><canvas data-chart="rebuffer"></canvas></figure>
      <figure><figcaption>Stalls per <span class="bucket">minute</span></figcaption><canvas data-chart="stalls"></canvas></figure>
      <figure><figcaption>True live latency distribution (share of samples per 0.5 s)</figcaption><canvas data-chart="latency"></canvas></figure>
    </div>
    <h3>Sessions <small>the newest ${SESSIONS_LISTED}; click one for its timeline</small></h3>
    <table class="sessions"><thead><tr><th>session</th><th>last seen</th><th>scheme</th><th>edge</th><th>player</th><th>stream</th><th>startup (s)</th><th>stalls</th><th>stalled (s)</th><th title="batches numbered by the probe that never arrived">lost batches</th></tr></thead><tbody></tbody></table>
    <div class="session-view"></div>`;
  const form = root.querySelector('form')!;
  // A link may choose: ?range=SECONDS (0: all time) and ?by=scheme|edge|player|stream|none.
  const asked = new URLSearchParams(location.search);
  const pick = (name: string, value: string | null) => {
    const sel = form.elements.namedItem(name) as HTMLSelectElement;
    if (value !== null && [...sel.options].some((o) => o.value === value)) sel.value = value;
  };
  pick('range', asked.get('range'));
  pick('by', asked.get('by'));
  const status = root.querySelector<HTMLElement>('.fleet-status')!;
  const state: FleetHandle['state'] = { view: null, charts: [], sessions: [], updates: 0, renderMs: null };
  const sessionView = mountSessionView(root.querySelector<HTMLElement>('.session-view')!, collectorUrl);

  const choice = (): FleetChoice => {
    const v = (n: string) => (form.elements.namedItem(n) as HTMLSelectElement).value;
    return {
      rangeS: Number(v('range')),
      by: v('by') as FleetChoice['by'],
      filters: { scheme: v('scheme'), edge: v('edge'), player: v('player'), stream: v('stream') },
    };
  };

  async function fillDimensions(): Promise<void> {
    const dims = await getJson<Record<string, string[]>>(collectorUrl, '/v1/dimensions');
    for (const [d, values] of Object.entries(dims)) {
      const sel = form.elements.namedItem(d) as HTMLSelectElement | null;
      if (!sel) continue;
      const current = sel.value;
      sel.innerHTML = `<option value="">any</option>${values.map((v) => `<option${v === current ? ' selected' : ''}>${esc(v)}</option>`).join('')}`;
    }
  }

  function render(view: FleetView, sessions: SessionSummary[], c: FleetChoice): void {
    for (const ch of state.charts.splice(0)) ch.destroy();
    const groups = view.groups.map((g) => g.group);
    const color = (g: string) => groupColor(c.by, g, groups);
    root.querySelector('.fleet-table tbody')!.innerHTML = view.groups.length
      ? view.groups
          .map(
            (g) =>
              `<tr><td><span class="swatch" style="background:${color(g.group)}"></span>${esc(g.group || '(none)')}</td><td>${g.sessions}</td><td>${f(g.startupP50Ms, 2, 1e-3)}</td><td>${f(g.startupP95Ms, 2, 1e-3)}</td><td>${f(g.rebufferRatio, 2, 100)}</td><td>${g.stalls}</td><td>${f(g.stallsPerHour, 1)}</td><td>${f(g.latencyP50S, 1)}</td><td>${f(g.latencyP95S, 1)}</td><td>${f(g.latencyP99S, 1)}</td></tr>`,
          )
          .join('')
      : `<tr><td colspan="10">no sessions in this range and filter</td></tr>`;
    for (const b of root.querySelectorAll('.bucket')) b.textContent = bucketFor(c.rangeS);
    const canvas = (name: string) => root.querySelector<HTMLCanvasElement>(`canvas[data-chart="${name}"]`)!;
    const series = (pick: (p: FleetView['series'][number]) => number | null): ChartDataset<'line'>[] =>
      groups.map((g) => ({
        label: g || '(none)',
        data: view.series.filter((p) => p.group === g).map((p) => ({ x: p.t, y: pick(p) ?? 0 })),
        borderColor: color(g),
        backgroundColor: color(g),
        pointRadius: 3,
        pointStyle: 'circle',
      }));
    // The axis spans the chosen range (all time: the data's), so one bucket is not stretched over it.
    const ts = view.series.map((p) => p.t);
    const min = c.rangeS > 0 ? view.filter.fromMs : Math.min(...ts);
    const max = c.rangeS > 0 ? Date.now() : Math.max(...ts) + 1;
    const short = c.rangeS > 0 && c.rangeS <= 86400;
    const timeAxis = {
      type: 'linear' as const,
      min,
      max,
      ticks: {
        callback: (v: string | number) =>
          short
            ? new Date(Number(v)).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
            : new Date(Number(v)).toLocaleDateString(),
      },
    };
    state.charts.push(
      new Chart(canvas('rebuffer'), {
        type: 'line',
        data: { datasets: series((p) => (p.rebufferRatio === null ? null : p.rebufferRatio * 100)) },
        options: { parsing: false, scales: { x: timeAxis, y: { min: 0, title: { display: true, text: '% of time watched' } } } },
      }),
      new Chart(canvas('stalls'), {
        type: 'line',
        data: { datasets: series((p) => p.stalls) },
        options: { parsing: false, scales: { x: timeAxis, y: { min: 0, title: { display: true, text: 'stalls' } } } },
      }),
    );
    // Latency: each group's share of its samples per bin (bars side by side), so groups of
    // different sizes compare; every bin from the lowest to the highest seen is on the axis.
    const binS = view.latencyBinS;
    const lows = view.latencyBins.map((b) => b.fromS);
    const bins = lows.length
      ? Array.from({ length: Math.round((Math.max(...lows) - Math.min(...lows)) / binS) + 1 }, (_, i) => Math.min(...lows) + i * binS)
      : [];
    const latency: ChartDataset<'bar'>[] = groups.map((g) => {
      const mine = new Map(view.latencyBins.filter((b) => b.group === g).map((b) => [b.fromS.toFixed(3), b.count]));
      const total = [...mine.values()].reduce((a, b) => a + b, 0) || 1;
      return {
        label: g || '(none)',
        data: bins.map((b) => ((mine.get(b.toFixed(3)) ?? 0) / total) * 100),
        backgroundColor: color(g),
        borderColor: color(g),
        barPercentage: 1,
        categoryPercentage: 0.9,
      };
    });
    state.charts.push(
      new Chart(canvas('latency'), {
        type: 'bar',
        data: { labels: bins.map((b) => b.toFixed(1)), datasets: latency },
        options: {
          scales: {
            x: { title: { display: true, text: 'true live latency (s), bins of 0.5 s' } },
            y: { min: 0, title: { display: true, text: '% of samples' } },
          },
        },
      }),
    );
    const tbody = root.querySelector('.sessions tbody')!;
    tbody.innerHTML = sessions.length
      ? sessions
          .map(
            (s) =>
              `<tr data-session="${esc(s.session)}" tabindex="0"><td><code>${esc(s.session.slice(0, 8))}</code>${s.ended ? '' : ' <span class="live">live</span>'}</td><td>${time(s.lastReceivedMs)}</td><td>${esc(s.scheme)}</td><td>${esc(s.edge)}</td><td>${esc(s.player)}</td><td>${esc(s.stream)}</td><td>${f(s.startupMs, 2, 1e-3)}</td><td>${s.stalls}</td><td>${f(s.stallMs, 1, 1e-3)}</td><td>${s.missingBatches}</td></tr>`,
          )
          .join('')
      : `<tr><td colspan="10">no sessions yet: the demo's players send theirs every 5 s</td></tr>`;
  }

  root.querySelector('.sessions tbody')!.addEventListener('click', (e) => {
    const row = (e.target as HTMLElement).closest<HTMLElement>('tr[data-session]');
    if (row) void sessionView.show(row.dataset['session']!);
  });

  async function refresh(): Promise<void> {
    const c = choice();
    const t0 = performance.now();
    try {
      const q = fleetParams(c);
      const [view, list] = await Promise.all([
        getJson<FleetView>(collectorUrl, `/v1/fleet?${q}`),
        getJson<{ sessions: SessionSummary[] }>(
          collectorUrl,
          `/v1/sessions?${new URLSearchParams([...q].filter(([k]) => k !== 'by' && k !== 'bucket'))}&limit=${SESSIONS_LISTED}`,
        ),
      ]);
      render(view, list.sessions, c);
      state.view = view;
      state.sessions = list.sessions;
      state.updates += 1;
      state.renderMs = performance.now() - t0;
      status.textContent = `${view.groups.reduce((a, g) => a + g.sessions, 0)} sessions; queried and drawn in ${Math.round(state.renderMs)} ms, ${new Date().toLocaleTimeString()}`;
      status.classList.remove('error');
    } catch (e) {
      status.textContent = (e as Error).message;
      status.classList.add('error');
    }
  }
  form.addEventListener('change', () => void refresh());
  return {
    // The filter choices and the view at once: the view does not wait for the choices (a filter
    // left at "any" does not need them; a chosen one stays chosen when they come).
    async refresh() {
      await Promise.all([fillDimensions().catch(() => undefined), refresh()]);
    },
    state,
  };
}
