import { createPlayer } from './createPlayer.js';
import { loadConfig, manifestUrl } from './config.js';
import { reportRun } from './reportRun.js';
import { mountQoePanel } from './ui/qoePanel.js';
import { mountViaBadge } from './ui/viaBadge.js';

// One player chosen by URL parameters: ?player=hls|dash|shaka&format=hls|dash&stream=2M-2s&via=edge|origin
const cfg = await loadConfig();
const via = new URLSearchParams(location.search).get('via') === 'origin' ? 'origin' : 'edge';
const src = manifestUrl(via === 'edge' ? cfg.edgeUrl : cfg.originUrl, cfg.stream, cfg.format);
document.querySelector('#src')!.textContent = src;
const video = document.querySelector('video')!;
const h = await createPlayer(video, cfg.player, src);
if (via === 'edge') mountViaBadge(document.querySelector<HTMLElement>('#via')!, cfg.edgeUrl, h);
mountQoePanel(document.querySelector<HTMLElement>('#panel')!, h.probe);
reportRun(h.probe, { stream: cfg.stream, player: cfg.player, scheme: via === 'edge' ? cfg.scheme : 'e2e' });
Object.assign(window, { demo: { handles: [h] } });
