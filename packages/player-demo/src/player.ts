import { createPlayer } from './createPlayer.js';
import { loadConfig, manifestUrl, playerName } from './config.js';
import { beaconFor, edgeLabel } from './collector/beaconFor.js';
import { mountQoePanel } from './ui/qoePanel.js';
import { mountViaBadge } from './ui/viaBadge.js';

// One player chosen by URL parameters: ?player=hls|dash|shaka&format=hls|dash&stream=2M-2s&via=edge|origin
const cfg = await loadConfig();
const via = new URLSearchParams(location.search).get('via') === 'origin' ? 'origin' : 'edge';
const src = manifestUrl(via === 'edge' ? cfg.edgeUrl : cfg.originUrl, cfg.stream, cfg.format);
document.querySelector('#src')!.textContent = src;
document.querySelector('#heading')!.textContent =
  `${playerName(cfg)} plays ${cfg.stream} ${via === 'edge' ? 'through the ETHLE edge' : 'straight from the origin'}.`;
const video = document.querySelector('video')!;
const h = await createPlayer(
  video,
  cfg.player,
  src,
  beaconFor(cfg, { scheme: via === 'edge' ? cfg.scheme : 'e2e', edge: via === 'edge' ? edgeLabel(cfg.edgeUrl) : 'direct', page: 'player' }),
);
if (via === 'edge') mountViaBadge(document.querySelector<HTMLElement>('#via')!, cfg.edgeUrl, h);
mountQoePanel(document.querySelector<HTMLElement>('#panel')!, h.probe);
Object.assign(window, { demo: { handles: [h] } });
