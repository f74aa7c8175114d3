// Cached-segment throughput and manifest requests/s: the edge vs Debian nginx as a caching
// reverse proxy (proxy_cache + proxy_cache_lock), both in front of the same origin, same load
// generator (wrk) and load. Run after `npm run build`:
//   npx tsx packages/edge-node/bench/vsNginx.ts [--seconds 10] [--connections 50] [--segment-bytes 500000] [--workers 1] [--threads 1] [--tls]
// --workers N: the edge with `serve --workers N` (a parent tier + N worker processes), nginx with
// worker_processes N; --threads: wrk's threads; --tls: both serve HTTPS (TLS 1.3) with one
// self-signed certificate made for the run (openssl), and wrk asks over https.
// Needs nginx and wrk on the PATH (and openssl for --tls); without them it says so and exits 2.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { benchAgent, negotiatedTls, requireTools, startEdgeProcess, startNginx, throwawayCert, wrk } from './benchTools.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'segment-bytes': { type: 'string', default: '500000' },
    'nginx-port': { type: 'string', default: '18089' },
    workers: { type: 'string', default: '1' },
    threads: { type: 'string', default: '1' },
    tls: { type: 'boolean', default: false },
  },
});
requireTools(values.tls ? ['nginx', 'wrk', 'openssl'] : ['nginx', 'wrk'], 'On Debian: apt-get install -y nginx wrk openssl.');
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const segmentBytes = Number(values['segment-bytes']);
const workers = Number(values.workers);
const threads = Number(values.threads);

// A small live-shaped origin: a 6-segment playlist whose window never moves during the run
// (both proxies see the same object), segments of `segmentBytes` (2M-2s ≈ 500 kB).
const segment = Buffer.alloc(segmentBytes, 0x47);
const playlist =
  ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:100']
    .concat(Array.from({ length: 6 }, (_, i) => `#EXTINF:2.000,\nseg${100 + i}.ts`))
    .join('\n') + '\n';
const origin = createServer((req, res) => {
  if (req.url?.endsWith('.m3u8'))
    res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl', 'content-length': Buffer.byteLength(playlist) }).end(playlist);
  else if (req.url?.endsWith('.ts')) res.writeHead(200, { 'content-type': 'video/mp2t', 'content-length': segment.length }).end(segment);
  else res.writeHead(404).end();
});
await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;

const cert = values.tls ? throwawayCert() : undefined;
const edge = await startEdgeProcess([
  '--origin',
  originUrl,
  '--port',
  '0',
  '--hold',
  '0',
  '--workers',
  String(workers),
  ...(cert === undefined ? [] : ['--tls-key', cert.keyPath, '--tls-cert', cert.certPath]),
]);
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
  const e = await wrk(edge.url + path, { connections, seconds, threads });
  const n = await wrk(nginx.url + path, { connections, seconds, threads });
  rows.push(
    `| ${what} (${what === 'manifest' ? 'playlist' : `${segmentBytes} B`}) | ${e.requestsPerSec.toFixed(0)} req/s, ${e.transferMBps.toFixed(0)} MB/s | ${n.requestsPerSec.toFixed(0)} req/s, ${n.transferMBps.toFixed(0)} MB/s | ${(e.requestsPerSec / n.requestsPerSec).toFixed(2)} |${e.errors || n.errors ? ` ${e.errors} ${n.errors}` : ''}`,
  );
}
const tlsSaid = cert === undefined ? 'plain HTTP' : `HTTPS, edge ${await negotiatedTls(edge.url)}, nginx ${await negotiatedTls(nginx.url)}`;
console.log(
  `wrk -t${threads} -c${connections} -d${seconds}s; ${tlsSaid}; nginx ${workers} worker(s); edge ${workers === 1 ? '1 Node process' : `${workers} worker processes + parent tier`}`,
);
console.log('| load | edge | nginx | edge / nginx |\n|---|---|---|---|');
console.log(rows.join('\n'));
await edge.stop();
await nginx.stop();
cert?.dispose();
origin.close();
