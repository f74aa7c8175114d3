// The edge's CPU per request under wrk, this build against another, interleaved (A B, B A, …) so
// that both see the same box: on a shared box requests/s moves with the neighbours' load, CPU time
// per request much less. Run after `npm run build` (in both checkouts):
//   npx tsx packages/edge-node/bench/requestCpu.ts [--against OTHER/packages/edge-node/bin/ethle-edge.js]
//     [--path manifest|segment] [--tls] [--workers 1] [--rounds 3] [--seconds 5] [--warm-seconds 2]
// The origin and the paths are vsNginx.ts's (a 6-segment playlist, `--hold 0`, segments of
// --segment-bytes); CPU is user + system of the edge and its workers (/proc/PID/stat) over the
// measured wrk run, divided by the requests wrk counted. Needs wrk (and openssl for --tls).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import {
  benchAgent,
  cpuSecondsTree,
  requireTools,
  startEdgeProcess,
  startStaticOrigin,
  throwawayCert,
  unheldEdgeArgs,
  wrk,
} from './benchTools.js';

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    path: { type: 'string', default: 'manifest' },
    tls: { type: 'boolean', default: false },
    workers: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    'warm-seconds': { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    'segment-bytes': { type: 'string', default: '500000' },
  },
});
requireTools(values.tls ? ['wrk', 'openssl'] : ['wrk'], 'On Debian: apt-get install -y wrk openssl.');
const seconds = Number(values.seconds);
const warmSeconds = Number(values['warm-seconds']);
const connections = Number(values.connections);
const rounds = Number(values.rounds);

const origin = await startStaticOrigin(Number(values['segment-bytes']));
const originUrl = origin.url;

const cert = values.tls ? throwawayCert() : undefined;
const args = unheldEdgeArgs(originUrl, values.workers, cert);
const builds = [{ name: 'this build', bin: undefined as string | undefined }];
if (values.against !== undefined) builds.push({ name: 'against', bin: values.against });
const edges = await Promise.all(builds.map((b) => startEdgeProcess(args, undefined, undefined, b.bin)));
const path = values.path === 'segment' ? '/live/bench/seg102.ts' : '/live/bench/index.m3u8';
const workers = Number(values.workers);
for (const e of edges) {
  for (let i = 0; i < 8 * workers; i++) {
    const dispatcher = benchAgent(1);
    for (const p of ['/live/bench/index.m3u8', '/live/bench/seg102.ts'])
      await (await request(e.url + p, { dispatcher })).body.arrayBuffer();
    await dispatcher.close();
  }
}

console.log(
  `${values.path}, ${values.tls ? 'HTTPS' : 'plain HTTP'}, --workers ${workers}, wrk -t1 -c${connections} -d${seconds}s after ${warmSeconds} s unmeasured, ${rounds} rounds; edge pids: ${edges.map((e, i) => `${builds[i]!.name} ${e.pid}`).join(', ')}`,
);
console.log('| round | build | req/s | edge CPU µs per request | edge cores busy |\n|---|---|---|---|---|');
for (let r = 0; r < rounds; r++) {
  // Alternate who goes first: a trend in the box's load falls on both.
  const order = r % 2 === 0 ? edges.map((_, i) => i) : edges.map((_, i) => edges.length - 1 - i);
  for (const i of order) {
    const e = edges[i]!;
    if (warmSeconds > 0) await wrk(e.url + path, { connections, seconds: warmSeconds });
    const cpu0 = cpuSecondsTree(e.pid);
    const t0 = performance.now();
    const w = await wrk(e.url + path, { connections, seconds });
    const cpu = cpuSecondsTree(e.pid) - cpu0;
    const wall = (performance.now() - t0) / 1000;
    const requests = w.requestsPerSec * seconds;
    console.log(
      `| ${r + 1} | ${builds[i]!.name} | ${w.requestsPerSec.toFixed(0)} | ${((cpu / requests) * 1e6).toFixed(1)} | ${(cpu / wall).toFixed(2)} |${w.errors ? ` ${w.errors}` : ''}`,
    );
  }
}
await Promise.all(edges.map((e) => e.stop()));
cert?.dispose();
origin.close();
