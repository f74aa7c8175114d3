import { Events } from '@ethle/qoe-probe';
import { createPlayer, type PlayerHandle } from '../createPlayer.js';
import { loadConfig, manifestUrl } from '../config.js';
import { beaconFor } from '../collector/beaconFor.js';
import { mountTimeline } from '../timeline/mountTimeline.js';
import type { EdgeTimeline, Interval, PlayerFetch } from '../timeline/TimelineData.js';
import { mountClockOverlay } from '../ui/clockOverlay.js';
import { mountQoePanel } from '../ui/qoePanel.js';

// The ETHLE edge as a service worker: ?sw=on|off&x=2|auto&player=hls|dash&stream=2M-2s.
// The player fetches straight from the origin; with the worker on, the worker holds and prefetches.
const cfg = await loadConfig();
const q = new URLSearchParams(location.search);
const on = q.get('sw') !== 'off';
const x = q.get('x') ?? '2';
const stateEl = document.querySelector<HTMLElement>('#sw-state')!;
const toggle = document.querySelector<HTMLAnchorElement>('#toggle')!;
const next = new URLSearchParams(q);
next.set('sw', on ? 'off' : 'on');
toggle.href = `?${next}`;
toggle.textContent = on ? 'turn the worker off' : 'turn the worker on';

let swState: unknown;
let swTimeline: EdgeTimeline | undefined;
navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
  if (e.data?.type !== 'ethle-state') return;
  swState = e.data.state;
  const s = e.data.state as {
    enabled: boolean;
    hold: number;
    lead: Record<string, number>;
    store: { urls: string[]; bytes: number };
    timeline?: EdgeTimeline;
  };
  swTimeline = s.timeline;
  stateEl.textContent = s.enabled
    ? `worker on: x = ${s.hold}, lead ${JSON.stringify(Object.values(s.lead))}, store ${s.store.urls.length} segments (${(s.store.bytes / 1e6).toFixed(1)} MB)`
    : 'worker registered, passing everything through';
});

const reg = await navigator.serviceWorker.register('./ethle-sw.js', { scope: './' });
await navigator.serviceWorker.ready;
if (!navigator.serviceWorker.controller) {
  await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
}
const worker = navigator.serviceWorker.controller ?? reg.active!;
worker.postMessage({
  type: 'configure',
  config: on ? { origins: [new URL(cfg.originUrl).origin], hold: x === 'auto' ? 'auto' : Number(x) } : undefined,
});

const video = document.querySelector('video')!;
const src = manifestUrl(cfg.originUrl, cfg.stream, cfg.format);
document.querySelector('#src')!.textContent = src;
const scheme = on ? (x === 'auto' ? 'sw-auto' : `sw-hold-${x}`) : 'e2e';
const handle: PlayerHandle = await createPlayer(
  video,
  cfg.player,
  src,
  beaconFor(cfg, { scheme, edge: on ? 'service worker' : 'direct', page: 'sw' }),
);
mountQoePanel(document.querySelector<HTMLElement>('#panel')!, handle.probe);
mountClockOverlay(document.querySelector<HTMLElement>('.clock')!, handle.probe, video);

// The worker's timeline (it posts its state, timeline included, about once a second) with this
// player's downloads and stalls: drawn as the side-by-side page draws the Node edge's.
const MAX_KEPT = 100;
const fetches: PlayerFetch[] = [];
const stalls: Interval[] = [];
handle.probe.on(Events.SEGMENT, (seg) => {
  if (seg.kind !== 'media' || seg.track === 'audio') return;
  fetches.push({ path: seg.url, requestStart: seg.requestStart, lastByte: seg.lastByte });
  if (fetches.length > MAX_KEPT) fetches.shift();
});
handle.probe.on(Events.STALL_START, (st) => {
  stalls.push({ start: st.start });
  if (stalls.length > MAX_KEPT) stalls.shift();
});
handle.probe.on(Events.STALL_END, (st) => {
  const open = stalls.at(-1);
  if (open !== undefined && open.end === undefined) open.end = st.end;
});
const caption = document.querySelector<HTMLElement>('#timeline-caption')!;
if (on) {
  mountTimeline(document.querySelector<HTMLCanvasElement>('#timeline')!, caption, {
    load: async () => {
      if (swTimeline === undefined || swTimeline.segments.length === 0) throw new Error('waiting for the worker to see the stream…');
      return swTimeline;
    },
    where: 'in the service worker',
    players: () => ({ direct: [], edge: fetches }),
    stalls: () => ({ direct: [], edge: stalls, outage: [] }),
    onSnapshot: () => undefined,
    onError: (m) => {
      if (m !== null) caption.textContent = m;
    },
  });
} else {
  caption.textContent = 'the worker is off: it passes every request through and holds nothing (turn it on above)';
}
// x = auto: the worker decides from context the page measures — the probe's per-segment timing:
// RTT ≈ the smallest request → first byte, radio throughput ≈ the median segment throughput.
if (on && x === 'auto') {
  const rtts: number[] = [];
  const mbps: number[] = [];
  handle.probe.on(Events.SEGMENT, (seg) => {
    if (seg.kind !== 'media') return;
    rtts.push(seg.firstByte - seg.requestStart);
    mbps.push(seg.throughputBps / 1e6);
    const sorted = [...mbps].sort((a, b) => a - b);
    const context = { rttMs: Math.min(...rtts), ranMbps: sorted[Math.floor(sorted.length / 2)]! };
    worker.postMessage({ type: 'configure', config: { origins: [new URL(cfg.originUrl).origin], hold: 'auto', context } });
  });
}
Object.assign(window, { demo: { handles: [handle], swState: () => swState } });
