import { Events } from '@ethle/qoe-probe';
import { createPlayer, type PlayerHandle } from '../createPlayer.js';
import { loadConfig, manifestUrl } from '../config.js';
import { reportRun } from '../reportRun.js';
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
navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
  if (e.data?.type !== 'ethle-state') return;
  swState = e.data.state;
  const s = e.data.state as { enabled: boolean; hold: number; lead: Record<string, number>; store: { urls: string[]; bytes: number } };
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
worker.postMessage({ type: 'configure', config: on ? { origins: [new URL(cfg.originUrl).origin], hold: x === 'auto' ? 'auto' : Number(x) } : undefined });

const video = document.querySelector('video')!;
const src = manifestUrl(cfg.originUrl, cfg.stream, cfg.format);
document.querySelector('#src')!.textContent = src;
const handle: PlayerHandle = await createPlayer(video, cfg.player, src);
mountQoePanel(document.querySelector<HTMLElement>('#panel')!, handle.probe);
reportRun(handle.probe, { stream: cfg.stream, player: cfg.player, scheme: on ? (x === 'auto' ? 'sw-auto' : `sw-hold-${x}`) : 'e2e' });
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
