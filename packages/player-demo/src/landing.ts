import { createPlayer, type PlayerHandle } from './createPlayer.js';
import { loadConfig, manifestUrl } from './config.js';
import { reportRun } from './reportRun.js';
import { mountQoePanel } from './ui/qoePanel.js';
import { mountViaBadge } from './ui/viaBadge.js';

// The landing page: the same live stream played directly from the origin (E2E) and through the
// ETHLE edge, side by side, each with the probe's live QoE.
const cfg = await loadConfig();
document.querySelector('#stream')!.textContent = `${cfg.stream} · ${cfg.player === 'dash' ? 'dash.js' : 'hls.js'}`;
const handles: PlayerHandle[] = [];
Object.assign(window, { demo: { handles } });
for (const via of ['origin', 'edge'] as const) {
  const col = document.querySelector<HTMLElement>(`#${via}`)!;
  const video = col.querySelector('video')!;
  const src = manifestUrl(via === 'edge' ? cfg.edgeUrl : cfg.originUrl, cfg.stream, cfg.player);
  col.querySelector('.src')!.textContent = src;
  const h = await createPlayer(video, cfg.player, src);
  if (via === 'edge') mountViaBadge(col.querySelector<HTMLElement>('.via')!, cfg.edgeUrl, h);
  mountQoePanel(col.querySelector<HTMLElement>('.panel')!, h.probe);
  reportRun(h.probe, { stream: cfg.stream, player: cfg.player, scheme: via === 'edge' ? cfg.scheme : 'e2e' });
  handles.push(h);
}
