import { Chart, type ChartDataset } from 'chart.js';
import { getJson, type SessionDetail } from './fleetApi.js';

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const COLORS = { latency: '#1f77b4', edgeDistance: '#9ecae1', stall: '#d62728', segment: '#2ca02c', manifest: '#bcbd22' };

/**
 * One session's timeline from the collector (GET /v1/sessions/{id}): true latency and distance to
 * the manifest's edge over time, its stalls on the time axis, and each download's time (request →
 * last byte) — with what it was (scheme, edge, player, stream) and what the collector got of it.
 */
export function mountSessionView(
  el: HTMLElement,
  collectorUrl: string,
): { show(session: string): Promise<void>; current(): SessionDetail | null } {
  let chart: Chart | null = null;
  let current: SessionDetail | null = null;
  return {
    current: () => current,
    async show(session) {
      el.innerHTML = `<p>loading session ${esc(session.slice(0, 8))}…</p>`;
      let d: SessionDetail;
      try {
        d = await getJson<SessionDetail>(collectorUrl, `/v1/sessions/${encodeURIComponent(session)}?limit=5000`);
      } catch (e) {
        el.innerHTML = `<p class="error">${esc((e as Error).message)}</p>`;
        return;
      }
      current = d;
      chart?.destroy();
      const t0 = Math.min(...d.events.map((e) => e.atMs), ...d.batches.map((b) => b.sentMs));
      const s = (ms: number) => (ms - t0) / 1000;
      const startup = d.events.find((e) => e.type === 'startup')?.data as { startupMs?: number } | undefined;
      const lost = d.batches.length ? d.batches[d.batches.length - 1]!.seq + 1 - d.batches.length : 0;
      const errors = d.events.filter((e) => e.type === 'error').length;
      const switches = d.events.filter((e) => e.type === 'switch').length;
      el.innerHTML = `<h3>Session <code>${esc(d.session)}</code></h3>
        <dl class="facts">
          <dt>scheme</dt><dd>${esc(d.scheme || '–')}</dd><dt>edge</dt><dd>${esc(d.edge || '–')}</dd><dt>player</dt><dd>${esc(d.player)}</dd><dt>stream</dt><dd>${esc(d.stream || '–')}</dd>
          <dt>startup</dt><dd>${startup?.startupMs === undefined ? '–' : `${(startup.startupMs / 1000).toFixed(2)} s`}</dd>
          <dt>stalls</dt><dd>${d.stalls.length} (${(d.stalls.reduce((a, x) => a + x.durationMs, 0) / 1000).toFixed(1)} s)</dd>
          <dt>switches, errors</dt><dd>${switches}, ${errors}</dd>
          <dt>batches</dt><dd>${d.batches.length} received, ${lost} lost${d.batches.some((b) => b.final) ? ', ended (final report in)' : ', still playing or left without a last beacon'}</dd>
        </dl>
        ${edgeFacts(d)}
        <figure><figcaption>Timeline: seconds since the session's first event</figcaption><div class="session-chart"><canvas></canvas></div></figure>`;
      const datasets: ChartDataset<'line'>[] = [
        {
          label: 'true latency (s)',
          data: d.latency.filter((l) => l.trueLatencyS !== null).map((l) => ({ x: s(l.atMs), y: l.trueLatencyS! })),
          borderColor: COLORS.latency,
          backgroundColor: COLORS.latency,
          pointRadius: 0,
          pointStyle: 'line',
        },
        {
          label: 'distance to manifest edge (s)',
          data: d.latency.filter((l) => l.edgeDistanceS !== null).map((l) => ({ x: s(l.atMs), y: l.edgeDistanceS! })),
          borderColor: COLORS.edgeDistance,
          backgroundColor: COLORS.edgeDistance,
          borderDash: [4, 3],
          pointRadius: 0,
          pointStyle: 'line',
        },
        // Each stall as a thick bar on the time axis, from its start to its end.
        ...d.stalls.map((x, i) => ({
          label: i === 0 ? 'stalls' : '',
          data: [
            { x: s(x.startMs), y: 0 },
            { x: s(x.endMs), y: 0 },
          ],
          borderColor: COLORS.stall,
          backgroundColor: COLORS.stall,
          borderWidth: 8,
          pointRadius: 0,
          pointStyle: 'line' as const,
        })),
        {
          label: 'media download, request → last byte (s)',
          data: d.segments.filter((x) => x.kind !== 'manifest').map((x) => ({ x: s(x.requestMs), y: (x.lastByteMs - x.requestMs) / 1000 })),
          borderColor: COLORS.segment,
          backgroundColor: COLORS.segment,
          showLine: false,
          pointRadius: 2,
          pointStyle: 'circle',
          yAxisID: 'y2',
        },
        {
          label: 'manifest download (s)',
          data: d.segments.filter((x) => x.kind === 'manifest').map((x) => ({ x: s(x.requestMs), y: (x.lastByteMs - x.requestMs) / 1000 })),
          borderColor: COLORS.manifest,
          backgroundColor: COLORS.manifest,
          showLine: false,
          pointRadius: 1.5,
          pointStyle: 'rect',
          yAxisID: 'y2',
        },
      ];
      chart = new Chart(el.querySelector('canvas')!, {
        type: 'line',
        data: { datasets },
        options: {
          parsing: false,
          maintainAspectRatio: false,
          plugins: { legend: { labels: { filter: (item) => item.text !== '' } } },
          scales: {
            x: { type: 'linear', min: 0, title: { display: true, text: 's' } },
            y: { min: 0, title: { display: true, text: 'latency (s)' } },
            y2: { position: 'right', min: 0, grid: { drawOnChartArea: false }, title: { display: true, text: 'download (s)' } },
          },
        },
      });
      el.scrollIntoView?.({ block: 'nearest' });
    },
  };
}

/**
 * What the edges did for this session (their reports to the collector, joined by the CMCD sid):
 * the x declared to it, its policy group, a redirect to the origin, and how its segment requests
 * found the edge's cache.
 */
function edgeFacts(d: SessionDetail): string {
  if (d.edges.length === 0)
    return `<p class="note">No edge reported this session${d.edge === 'direct' ? ' (it played straight from the origin)' : ' (the edge reports when started with --collector)'}.</p>`;
  const rows = d.edges.map((e) => {
    const segments = e.hits + e.coalesced + e.misses;
    const pct = (n: number) => (segments === 0 ? '–' : `${Math.round((n / segments) * 100)} %`);
    return `<tr><td>${esc(e.edge)}</td><td>${e.hold}</td><td>${esc(e.group ?? '–')}</td><td>${e.redirectLocation === null ? 'no' : `to <code>${esc(e.redirectLocation)}</code>`}</td><td>${e.manifests}</td><td>${segments}</td><td>${pct(e.hits)}</td><td>${pct(e.coalesced)}</td><td>${pct(e.misses)}</td></tr>`;
  });
  return `<h4>What the edge did for it</h4><table class="edge-facts"><thead><tr><th>edge</th><th title="segments held back on its manifests">x held</th><th>group</th><th>redirected</th><th>manifests</th><th>segments</th><th title="the edge had the segment whole">hits</th><th title="the edge was still fetching it">coalesced</th><th title="the edge had not asked the origin yet">misses</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
