/// <reference lib="webworker" />
import { registerRoute } from 'workbox-routing';
import { SwEdge, type SwEdgeConfig } from './SwEdge.js';

declare const self: ServiceWorkerGlobalScope;

// The worker's routes are Workbox routes: manifests of the configured origins and the segments
// those manifests list (SwEdge.route). Everything else (the demo page itself, the origin's /time,
// init segments, other hosts) is not touched: the browser fetches it as if there were no worker.
const edge = new SwEdge((input, init) => fetch(input, init));

registerRoute(
  ({ url }) => edge.route(url) === 'manifest',
  ({ request }) => edge.manifest(request),
);
registerRoute(
  ({ url }) => edge.route(url) === 'segment',
  ({ request }) => edge.segment(request),
);

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));

self.addEventListener('message', (e: ExtendableMessageEvent) => {
  const msg = e.data as { type: string; config?: SwEdgeConfig };
  if (msg?.type === 'configure') edge.configure(msg.config);
  if (msg?.type === 'configure' || msg?.type === 'state') e.source?.postMessage({ type: 'ethle-state', state: edge.state() });
});

// Report the worker's state to every page about once a second (x, lead, store, fetch timings).
setInterval(async () => {
  const clients = await self.clients.matchAll({ type: 'window' });
  const state = edge.state();
  for (const c of clients) c.postMessage({ type: 'ethle-state', state });
}, 1000);
