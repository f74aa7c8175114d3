import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import type { EdgeTimeline, Interval, PlayerFetch } from './TimelineData.js';
import { SERIES, timelineRows, type TimelineRows } from './timelineRows.js';
import { SERIES_COLORS } from './SERIES_COLORS.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** The Node edge's timeline of one stream (`GET {edge}/_ethle/timeline?stream=…`), with a clear error. */
export async function fetchTimeline(url: string): Promise<EdgeTimeline> {
  let r: Response;
  try {
    r = await fetch(url, { cache: 'no-store' });
  } catch {
    throw new Error(`no answer from the edge's timeline (${new URL(url).origin}): is the edge running?`);
  }
  if (!r.ok) throw new Error(`the edge's timeline answered ${r.status}: ${(await r.text()).trim()}`);
  return (await r.json()) as EdgeTimeline;
}

/** Seconds of history drawn (the x axis) and the window a segment's activity must fall in to get a row. */
const WINDOW_S = 24;

export interface TimelineSources {
  /**
   * The edge's timeline for the stream the edge player plays: `GET /_ethle/timeline?stream=…` of
   * the Node edge (fetchTimeline), or the service worker's, in the same format.
   */
  load(): Promise<EdgeTimeline>;
  /** Where the holding happens, for the caption: 'at the edge' or 'in the service worker'. */
  where: string;
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
export function mountTimeline(
  canvas: HTMLCanvasElement,
  caption: HTMLElement,
  src: TimelineSources,
): { stop(): void; latest(): TimelineRows | undefined } {
  const chart = new Chart(canvas, {
    type: 'bar',
    data: {
      labels: [],
      datasets: SERIES.map((label) => ({
        label,
        data: [],
        backgroundColor: SERIES_COLORS[label],
        borderSkipped: false,
        skipNull: true,
        barPercentage: 1,
        categoryPercentage: 0.9,
      })),
    },
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
        tooltip: {
          callbacks: {
            label: (c) => {
              const [a, b] = (c.raw as { x: [number, number] }).x;
              return `${c.dataset.label}: ${a.toFixed(1)} s → ${b.toFixed(1)} s (${(b - a).toFixed(2)} s)`;
            },
          },
        },
      },
    },
  });
  let latest: TimelineRows | undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    try {
      const t = await src.load();
      src.onSnapshot(t);
      src.onError(null);
      // The edge's clock is the reference; on one machine the page's is the same.
      latest = timelineRows(t, src.players(), src.stalls(), t.now, WINDOW_S);
      draw(chart, latest);
      caption.textContent = `x = ${latest.hold} segments of ${latest.segmentSeconds} s held ${src.where}: ${latest.held} held now, lead ${latest.lead} segment${latest.lead === 1 ? '' : 's'} ahead of the edge player${latest.track ? ` (track ${latest.track})` : ''}`;
    } catch (e) {
      src.onError((e as Error).message);
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
