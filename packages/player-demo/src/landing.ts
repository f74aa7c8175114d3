import { Events } from '@ethle/qoe-probe';
import { createPlayer, type PlayerHandle } from './createPlayer.js';
import { loadConfig, manifestUrl, playerName } from './config.js';
import { beaconFor, edgeLabel } from './collector/beaconFor.js';
import { fetchTimeline, mountTimeline } from './timeline/mountTimeline.js';
import type { EdgeTimeline, Interval, PlayerFetch } from './timeline/TimelineData.js';
import { checkSource } from './ui/checkSource.js';
import { mountClockOverlay } from './ui/clockOverlay.js';
import { describeDelta } from './ui/describeDelta.js';
import { mountOutageButton, type Outage } from './ui/outageButton.js';
import { mountQoePanel } from './ui/qoePanel.js';
import { mountStallBadge } from './ui/stallBadge.js';
import { mountViaBadge } from './ui/viaBadge.js';

// The landing page: the same live stream played directly from the origin (E2E) and through the
// ETHLE edge, side by side, each with the probe's live QoE; an origin-outage switch; the edge's
// segment timeline under both.
const cfg = await loadConfig();
document.querySelector('#stream')!.textContent = `${cfg.stream} · ${playerName(cfg)}`;
const errors = document.querySelector<HTMLElement>('#errors')!;
const shown = new Map<string, string>();
const showError = (key: string, message: string | null) => {
  if (message === null) shown.delete(key);
  else shown.set(key, message);
  errors.innerHTML = [...shown.values()].map((m) => `<p>${m.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`).join('');
};

/** Per column: the probe's segment downloads (bounded) and stalls, for the timeline. */
const MAX_KEPT = 100;
const fetches = { origin: [] as PlayerFetch[], edge: [] as PlayerFetch[] };
const stalls = { origin: [] as Interval[], edge: [] as Interval[] };
let outages: readonly Outage[] = [];
const latency = { origin: null as number | null, edge: null as number | null };
let snapshot: EdgeTimeline | undefined;
const handles: PlayerHandle[] = [];
const demo = { handles, stalls, outages: () => outages, timeline: () => timeline?.latest(), snapshot: () => snapshot };
Object.assign(window, { demo });

/** Seconds a column has stalled so far (a stall in progress counts up to now). */
const stalledS = (list: Interval[]) => list.reduce((a, s) => a + ((s.end ?? Date.now()) - s.start), 0) / 1000;
const updateDelta = () => {
  const hold = snapshot === undefined ? undefined : { segments: snapshot.hold, segmentSeconds: snapshot.segmentSeconds };
  document.querySelector('#delta')!.textContent =
    describeDelta(latency.origin, latency.edge, hold, { direct: stalledS(stalls.origin), edge: stalledS(stalls.edge) }) ?? '–';
};

for (const via of ['origin', 'edge'] as const) {
  const col = document.querySelector<HTMLElement>(`#${via}`)!;
  const video = col.querySelector('video')!;
  const src = manifestUrl(via === 'edge' ? cfg.edgeUrl : cfg.originUrl, cfg.stream, cfg.format);
  col.querySelector('.src')!.textContent = src;
  const problem = await checkSource(src, via === 'edge' ? 'edge' : 'origin');
  if (problem !== null) {
    showError(via, `${via === 'edge' ? 'Through the edge' : 'Direct'}: ${problem}`);
    col.classList.add('failed');
    continue;
  }
  const h = await createPlayer(
    video,
    cfg.player,
    src,
    beaconFor(cfg, {
      scheme: via === 'edge' ? cfg.scheme : 'e2e',
      edge: via === 'edge' ? edgeLabel(cfg.edgeUrl) : 'direct',
      page: 'side-by-side',
    }),
  );
  if (via === 'edge') mountViaBadge(col.querySelector<HTMLElement>('.via')!, cfg.edgeUrl, h);
  mountQoePanel(col.querySelector<HTMLElement>('.panel')!, h.probe);
  mountStallBadge(col.querySelector<HTMLElement>('.stalling')!, h.probe);
  mountClockOverlay(col.querySelector<HTMLElement>('.clock')!, h.probe, video);
  h.probe.on(Events.SEGMENT, (s) => {
    if (s.kind !== 'media' || s.track === 'audio') return;
    fetches[via].push({ path: s.url, requestStart: s.requestStart, lastByte: s.lastByte });
    if (fetches[via].length > MAX_KEPT) fetches[via].shift();
  });
  h.probe.on(Events.STALL_START, (s) => {
    stalls[via].push({ start: s.start });
    if (stalls[via].length > MAX_KEPT) stalls[via].shift();
  });
  h.probe.on(Events.STALL_END, (s) => {
    const open = stalls[via].at(-1);
    if (open !== undefined && open.end === undefined) open.end = s.end;
  });
  h.probe.on(Events.LATENCY, (l) => {
    latency[via] = l.trueLatency;
    updateDelta();
  });
  h.probe.on(Events.ERROR, (e) => {
    if (e.fatal)
      showError(
        `${via}-player`,
        `${via === 'edge' ? 'Through the edge' : 'Direct'}: the player stopped (${e.source} ${e.detail}: ${e.message})`,
      );
  });
  handles.push(h);
}

// The default outage is halfway between what the two players can ride out: a direct player
// buffers about its live offset (hls.js and dash.js: ~3 segments, plus the listing lag), a player
// behind the edge that plus the x segments the edge holds. So (3 + x/2)·l_seg + 1 s: on loopback
// the direct player stalls and the edge one does not.
const segmentSeconds = Number(/-(\d+)s$/.exec(cfg.stream)?.[1] ?? 2);
const holdSegments = Number(/^hold-(\d+)$/.exec(cfg.scheme)?.[1] ?? 2);
mountOutageButton(document.querySelector<HTMLElement>('#outage')!, {
  originUrl: cfg.originUrl,
  stream: cfg.stream,
  seconds: Math.round((3 + holdSegments / 2) * segmentSeconds + 1),
  onChange: (o) => (outages = o),
});

const edgePath = new URL(manifestUrl(cfg.edgeUrl, cfg.stream, cfg.format)).pathname;
const timeline = shown.has('edge')
  ? undefined
  : mountTimeline(document.querySelector<HTMLCanvasElement>('#timeline')!, document.querySelector<HTMLElement>('#timeline-caption')!, {
      load: () => fetchTimeline(`${cfg.edgeUrl}/_ethle/timeline?stream=${encodeURIComponent(edgePath)}`),
      where: 'at the edge',
      players: () => ({ direct: fetches.origin, edge: fetches.edge }),
      stalls: () => ({ direct: stalls.origin, edge: stalls.edge, outage: [...outages] }),
      onSnapshot: (t) => {
        snapshot = t;
        updateDelta();
      },
      onError: (m) => showError('timeline', m),
    });
