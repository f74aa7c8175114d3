#!/usr/bin/env node
// `npm start` — the README's main job: the live origin, the ETHLE edge in front of it, and the
// demo (players side by side + dashboard). Ctrl-C stops everything.
//   npm start -- [--host 127.0.0.1] [--stream 2M-2s] [--player hls|dash] [--hold auto|N]
//                [--origin-port 8081] [--edge-port 8080] [--port 5173]   (0 = any free port)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { values: a } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    stream: { type: 'string', default: '2M-2s' },
    player: { type: 'string', default: 'hls' },
    // Forced hold 2 so the demo shows holding; on loopback `--hold auto` rightly decides 0 (no long RTT).
    hold: { type: 'string', default: '2' },
    'origin-port': { type: 'string', default: '8081' },
    'edge-port': { type: 'string', default: '8080' },
    port: { type: 'string', default: '5173' },
  },
});

// A fresh clone after `npm install` is built (root "prepare"); build again only if something is missing.
const built = ['packages/live-origin/dist/index.js', 'packages/edge-node/dist/index.js', 'packages/player-demo/dist/index.html'];
if (!built.every((f) => existsSync(`${root}${f}`))) {
  console.log('building…');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}

const { startOrigin } = await import('@ethle/live-origin');
const { startEdge, createEdgeConfig } = await import('@ethle/edge-node');
const { startDemoServer } = await import('../packages/player-demo/server/startDemoServer.mjs');

const origin = await startOrigin({ port: Number(a['origin-port']), host: a.host });
const hold = a.hold === 'auto' ? 'auto' : Number(a.hold);
const edge = await startEdge(createEdgeConfig({ origin: origin.url, port: Number(a['edge-port']), host: a.host, hold }));
const demo = await startDemoServer({
  port: Number(a.port),
  host: a.host,
  config: { originUrl: origin.url, edgeUrl: edge.url, stream: a.stream, player: a.player === 'dash' ? 'dash' : 'hls', scheme: hold === 'auto' ? 'auto' : `hold-${hold}` },
});

console.log(`
ETHLE demo is up.
  open        ${demo.url}/              (the same live stream direct and through the edge, live QoE)
  dashboard   ${demo.url}/dashboard.html
  origin      ${origin.url}/live/${a.stream}/index.m3u8   (stats: ${origin.url}/stats)
  edge        ${edge.url}/live/${a.stream}/index.m3u8   (metrics: ${edge.url}/metrics, hold ${a.hold})
Ctrl-C to stop.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([demo.close(), edge.close(), origin.close()]);
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
