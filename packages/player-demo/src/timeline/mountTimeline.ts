import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import type { EdgeTimeline, Interval, PlayerFetch } from './TimelineData.js';
import { SERIES, timelineRows, type TimelineRows } from './timelineRows.js';
import { SERIES_COLORS } from './SERIES_COLORS.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Seconds of history drawn (the x axis) and the window a segment's activity must fall in to get a row. */
const WINDOW_S = 24;

export interface TimelineSources {
  /** The edge player's colour: its scheme's, as on the dashboard. */
  edgeColor: string;
  /** `GET /_ethle/timeline?stream=…` of the edge for the stream the edge player plays. */
  url: string;
  players(): { direct: PlayerFetch[]; edge: PlayerFetch[] };
  stalls(): { direct: Interval[]; edge: Interval[]; outage: Interval[] };
  /** The latest snapshot (Δ latency explains itself with the edge's x). */
  onSnapshot(t: EdgeTimeline): void;
  onError(message: string | null): void;
}

/**
 * The live segment timeline: per segment, when the origin produced it, how long the edge held it
 * (listed → visible in the held manifest), the edge's prefetch, and each player's download;
 * below, both players' stalls and the origin outages. Redrawn every second from the edge's
 * timeline and the probes' events. Returns a stop function.
 */
export function mountTimeline(canvas: HTMLCanvasElement, caption: HTMLElement, src: TimelineSources): { stop(): void; latest(): TimelineRows | undefined } {
  const chart = new Chart(canvas, {
    type: 'bar',
    data: { labels: [], datasets: SERIES.map((label) => ({ label, data: [], backgroundColor: label === 'edge player: request → received' ? src.edgeColor : SERIES_COLORS[label], borderSkipped: false, skipNull: true, barPercentage: 1, categoryPercentage: 0.9 })) },
    options: {
      indexAxis: 'y',
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { type: 'linear', max: 1, title: { display: true, text: 'seconds before now (the edge’s clock)' } },
        y: { type: 'category' },
      },
      plugins: {
        legend: { position: 'bottom' },
        tooltip: { callbacks: { label: (c) => { const [a, b] = (c.raw as { x: [number, number] }).x; return `${c.dataset.label}: ${a.toFixed(1)} s → ${b.toFixed(1)} s (${(b - a).toFixed(2)} s)`; } } },
      },
    },
  });
  let latest: TimelineRows | undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    try {
      const r = await fetch(src.url, { cache: 'no-store' });
      if (!r.ok) throw new Error(`the edge's timeline answered ${r.status}: ${(await r.text()).trim()}`);
      const t = (await r.json()) as EdgeTimeline;
      src.onSnapshot(t);
      src.onError(null);
      // The edge's clock is the reference; on one machine the page's is the same.
      latest = timelineRows(t, src.players(), src.stalls(), t.now, WINDOW_S);
      draw(chart, latest);
      caption.textContent = `x = ${latest.hold} segments of ${latest.segmentSeconds} s held at the edge: ${latest.held} held now, lead ${latest.lead} segment${latest.lead === 1 ? '' : 's'} ahead of the edge player${latest.track ? ` (track ${latest.track})` : ''}`;
    } catch (e) {
      src.onError(e instanceof TypeError ? `no answer from the edge's timeline (${new URL(src.url).origin}): is the edge running?` : (e as Error).message);
    }
    if (!stopped) timer = setTimeout(() => void tick(), 1000);
  };
  void tick();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      chart.destroy();
    },
    latest: () => latest,
  };
}

function draw(chart: Chart, t: TimelineRows): void {
  chart.data.labels = t.rows;
  chart.data.datasets.forEach((ds, i) => {
    ds.data = t.bars[SERIES[i]!].map((b) => ({ y: b.row, x: [b.from, b.to] })) as never;
  });
  chart.options.scales!['x']!.min = -WINDOW_S;
  // About 20 px per row: the box grows with the rows instead of squeezing them.
  (chart.canvas.parentElement as HTMLElement).style.height = `${120 + 20 * t.rows.length}px`;
  chart.update('none');
}
