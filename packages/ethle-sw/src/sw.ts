/// <reference lib="webworker" />
import { registerRoute } from 'workbox-routing';
import { SwEdge, type SwEdgeConfig } from './SwEdge.js';

declare const self: ServiceWorkerGlobalScope;

// The worker's routes are Workbox routes: manifests and segments of the configured origins.
// Everything else (the demo page itself, other hosts) is not touched.
const edge = new SwEdge((input, init) => fetch(input, init));
const MANIFEST_RE = /\.(m3u8|mpd)$/;

registerRoute(
  ({ url }) => edge.handles(url) && MANIFEST_RE.test(url.pathname),
  ({ request }) => edge.manifest(request),
);
registerRoute(
  ({ url }) => edge.handles(url) && !MANIFEST_RE.test(url.pathname) && !url.pathname.startsWith('/admin') && url.pathname !== '/stats',
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
