// Cached-segment throughput and manifest requests/s: the edge vs Debian nginx as a caching
// reverse proxy (proxy_cache + proxy_cache_lock), both in front of the same origin, same load
// generator (wrk) and load. Run after `npm run build`:
//   npx tsx packages/edge-node/bench/vsNginx.ts [--seconds 10] [--connections 50] [--segment-bytes 500000] [--workers 1] [--threads 1] [--tls] [--warm-seconds 2]
// --workers N: the edge with `serve --workers N` (a parent tier + N worker processes), nginx with
// worker_processes N; --threads: wrk's threads; --tls: both serve HTTPS (TLS 1.3) with one
// self-signed certificate made for the run (openssl), and wrk asks over https; --warm-seconds:
// an unmeasured wrk run of this length on each server and path right before its measured one
// (0: none), so both are measured in their steady state (see WARM below).
// Needs nginx and wrk on the PATH (and openssl for --tls); without them it says so and exits 2.
import { parseArgs } from 'node:util';
import { request } from 'undici';
import {
  benchAgent,
  negotiatedTls,
  requireTools,
  startEdgeProcess,
  startNginx,
  startStaticOrigin,
  throwawayCert,
  unheldEdgeArgs,
  wrk,
} from './benchTools.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'segment-bytes': { type: 'string', default: '500000' },
    'nginx-port': { type: 'string', default: '18089' },
    workers: { type: 'string', default: '1' },
    threads: { type: 'string', default: '1' },
    tls: { type: 'boolean', default: false },
    'warm-seconds': { type: 'string', default: '2' },
  },
});
requireTools(values.tls ? ['nginx', 'wrk', 'openssl'] : ['nginx', 'wrk'], 'On Debian: apt-get install -y nginx wrk openssl.');
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const segmentBytes = Number(values['segment-bytes']);
const workers = Number(values.workers);
const threads = Number(values.threads);
const warmSeconds = Number(values['warm-seconds']);

const origin = await startStaticOrigin(segmentBytes);
const originUrl = origin.url;

const cert = values.tls ? throwawayCert() : undefined;
const edge = await startEdgeProcess(unheldEdgeArgs(originUrl, workers, cert));
const nginx = await startNginx(originUrl, Number(values['nginx-port']), workers, cert);
const seg = '/live/bench/seg102.ts';
const man = '/live/bench/index.m3u8';
// Warm both caches (with workers: each worker's, over new connections the kernel spreads).
for (const base of [edge.url, nginx.url]) {
  for (let i = 0; i < 8 * workers; i++) {
    const dispatcher = benchAgent(1);
    for (const p of [man, seg]) await (await request(base + p, { dispatcher })).body.arrayBuffer();
    await dispatcher.close();
  }
}

const rows: string[] = [];
for (const [what, path] of [
  ['cached segment', seg],
  ['manifest', man],
] as const) {
  // WARM: a fresh Node process serves a path below its steady speed for its first seconds under
  // wrk (the edge over TLS, 1-s runs: ~5k, 13k, 19k req/s), nginx from its first request. Both
  // servers get the same unmeasured run, over the same connections, right before their measured one.
  if (warmSeconds > 0) await wrk(edge.url + path, { connections, seconds: warmSeconds, threads });
  const e = await wrk(edge.url + path, { connections, seconds, threads });
  if (warmSeconds > 0) await wrk(nginx.url + path, { connections, seconds: warmSeconds, threads });
  const n = await wrk(nginx.url + path, { connections, seconds, threads });
  rows.push(
    `| ${what} (${what === 'manifest' ? 'playlist' : `${segmentBytes} B`}) | ${e.requestsPerSec.toFixed(0)} req/s, ${e.transferMBps.toFixed(0)} MB/s | ${n.requestsPerSec.toFixed(0)} req/s, ${n.transferMBps.toFixed(0)} MB/s | ${(e.requestsPerSec / n.requestsPerSec).toFixed(2)} |${e.errors || n.errors ? ` ${e.errors} ${n.errors}` : ''}`,
  );
}
const tlsSaid = cert === undefined ? 'plain HTTP' : `HTTPS, edge ${await negotiatedTls(edge.url)}, nginx ${await negotiatedTls(nginx.url)}`;
console.log(
  `wrk -t${threads} -c${connections} -d${seconds}s after ${warmSeconds} s unmeasured; ${tlsSaid}; nginx ${workers} worker(s); edge ${workers === 1 ? '1 Node process' : `${workers} worker processes + parent tier`}`,
);
console.log('| load | edge | nginx | edge / nginx |\n|---|---|---|---|');
console.log(rows.join('\n'));
await edge.stop();
await nginx.stop();
cert?.dispose();
origin.close();
