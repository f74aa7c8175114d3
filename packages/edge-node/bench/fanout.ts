// 1,000 concurrent receivers through the edge: origin requests per segment (goal exactly 1.00),
// the edge's RSS (goal < 300 MB) and each segment's delivery time (goal: p99 under the segment
// duration). The live origin runs in this process, the edge in its own (the built CLI), the
// receivers here as a light HLS client loop (manifest every second, every new segment fetched
// whole). Run after `npm run build`:
//   npx tsx packages/edge-node/bench/fanout.ts [--receivers 1000] [--seconds 40] [--hold 2] [--stream 2M-2s] [--workers 1]
//     [--edge-cpus 0 --bench-cpus 1] [--warmup 10]
// --edge-cpus: a taskset CPU list the edge (and its workers) runs on; --bench-cpus: the one this
// process (origin and receivers) moves to, so the edge's core serves and nothing else (needs taskset).
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { RawHttpConnection } from './RawHttpConnection.js';
import { cpuSecondsTree, percentiles, requireTools, rssTreeMb, startEdgeProcess } from './benchTools.js';
import { startSimpleLiveOrigin } from './simpleLiveOrigin.js';

const { values } = parseArgs({
  options: {
    receivers: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '40' },
    hold: { type: 'string', default: '2' },
    stream: { type: 'string', default: '2M-2s' },
    origin: { type: 'string', default: 'live' },
    workers: { type: 'string', default: '1' },
    'edge-cpus': { type: 'string' },
    'bench-cpus': { type: 'string' },
    warmup: { type: 'string', default: '10' },
  },
});
const receivers = Number(values.receivers);
const seconds = Number(values.seconds);
const stream = values.stream;
const warmupSeconds = Number(values.warmup);
// The stream's segment duration, from its name ({bitrate}M-{seconds}s): the delivery goal.
const segmentSeconds = Number(/-(\d+)s$/.exec(stream)?.[1] ?? Number.NaN);
const edgeCpus = values['edge-cpus'];
const benchCpus = values['bench-cpus'];
if (edgeCpus !== undefined || benchCpus !== undefined) {
  requireTools(['taskset'], 'On Debian it is in util-linux; or run without --edge-cpus/--bench-cpus.');
}
if (benchCpus !== undefined) {
  // Every thread of this process (-a), before the origin and receivers start: the edge's core
  // then serves only the edge.
  const r = spawnSync('taskset', ['-a', '-cp', benchCpus, String(process.pid)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`taskset -a -cp ${benchCpus} failed: ${r.stderr}`);
}

// The project's live origin when it is there (--origin live), else the minimal wall-clock one.
type Origin = { url: string; close(): Promise<void> };
async function anyOrigin(): Promise<{ origin: Origin; kind: string }> {
  if (values.origin === 'live') {
    const lo = (await import('@ethle/live-origin')) as { startOrigin?: (o: { port: number }) => Promise<Origin> };
    if (typeof lo.startOrigin === 'function') return { origin: await lo.startOrigin({ port: 0 }), kind: '@ethle/live-origin' };
  }
  return { origin: await startSimpleLiveOrigin(), kind: 'bench/simpleLiveOrigin' };
}
const { origin, kind: originKind } = await anyOrigin();
// What the edge warns about during the run (it logs warn and above): counted, the first few kept.
const edgeWarnings: string[] = [];
let edgeWarningCount = 0;
const edge = await startEdgeProcess(
  ['--origin', origin.url, '--port', '0', '--hold', values.hold, '--workers', values.workers],
  (line) => {
    if (!line.startsWith('{')) return; // the banner, not a log line
    edgeWarningCount += 1;
    if (edgeWarnings.length < 5) edgeWarnings.push(line);
  },
  edgeCpus,
);
const playlistPath = `/live/${stream}/index.m3u8`;
const URI_LINE = /^[^#\s].*$/gm;

let segmentsFetched = 0;
let bytes = 0;
let errors = 0;
let stop = false;

/**
 * One segment request's timing (ms from the request): its first response byte (headers) and its
 * last body byte. `join`: among the receiver's first fetches (three segments back from the live
 * edge, back to back, like a player starting); `atS`: when it was asked, s into the run.
 */
interface Delivery {
  atS: number;
  join: boolean;
  ttfbMs: number;
  lastByteMs: number;
}
const deliveries: Delivery[] = [];
let t0 = 0;

async function receiver(i: number): Promise<void> {
  // Each receiver its own connection, as real players are; a light client (RawHttpConnection), so
  // that the receiving core is not the limit of what is measured.
  const conn = new RawHttpConnection(edge.url);
  const base = new URL(playlistPath, edge.url);
  let last = '';
  await new Promise((r) => setTimeout(r, (i % 100) * 20)); // arrive over 2 s
  while (!stop) {
    try {
      const res = await conn.get(playlistPath, { 'cmcd-session': `sid="r${i}"` }, true);
      const uris: string[] = res.text?.match(URI_LINE) ?? [];
      // Start three segments from the (held) live edge, like hls.js, then follow along.
      const join = last === '';
      const start = join ? Math.max(0, uris.length - 3) : uris.indexOf(last) + 1;
      for (const uri of uris.slice(start > 0 ? start : uris.length - 1)) {
        const asked = performance.now();
        const seg = await conn.get(new URL(uri, base).pathname);
        bytes += seg.bytes;
        if (seg.status === 200) {
          segmentsFetched += 1;
          deliveries.push({ atS: (asked - t0) / 1000, join, ttfbMs: seg.headersAt - asked, lastByteMs: seg.doneAt - asked });
        } else {
          errors += 1;
          if (errors <= 3) console.error(`receiver ${i}: ${uri} answered ${seg.status}`);
        }
        last = uri;
      }
    } catch (e) {
      errors += 1;
      // The first few errors, said: a count alone hides what failed.
      if (errors <= 3) console.error(`receiver ${i}: ${(e as Error).message}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  conn.close();
}

/** p50/p95/p99/max of TTFB and last byte (ms), and how many took longer than a segment lasts. */
function summary(ds: readonly Delivery[]) {
  const ms = (xs: number[]) => {
    const [p50, p95, p99, max] = percentiles(xs, [50, 95, 99, 100]).map((v) => Math.round(v));
    return { p50, p95, p99, max };
  };
  return {
    requests: ds.length,
    ttfbMs: ms(ds.map((d) => d.ttfbMs)),
    lastByteMs: ms(ds.map((d) => d.lastByteMs)),
    overSegmentDuration: ds.filter((d) => d.lastByteMs > segmentSeconds * 1000).length,
  };
}

await request(`${origin.url}/stats?reset=1`).then((r) => r.body.dump());
const started = Date.now();
t0 = performance.now();
const edgeCpu0 = cpuSecondsTree(edge.pid);
const benchCpu0 = process.cpuUsage();
let maxRss = 0;
const sampler = setInterval(() => (maxRss = Math.max(maxRss, rssTreeMb(edge.pid))), 500);
const runs = Array.from({ length: receivers }, (_, i) => receiver(i));
await new Promise((r) => setTimeout(r, seconds * 1000));
stop = true;
await Promise.all(runs);
clearInterval(sampler);
const elapsed = (Date.now() - started) / 1000;
const edgeCores = (cpuSecondsTree(edge.pid) - edgeCpu0) / elapsed;
const benchCpu = process.cpuUsage(benchCpu0);
// Whole-object fetches per path where the origin counts them (an edge fetches a large segment as
// parallel byte ranges: several requests, one fetch), else requests.
const stats = (await (await request(`${origin.url}/stats`)).body.json()) as {
  requests: Record<string, number>;
  fetches?: Record<string, number>;
};
const segCounts = Object.entries(stats.fetches ?? stats.requests).filter(([p]) => p.startsWith(`/live/${stream}/`) && !p.endsWith('.m3u8'));
const perSegment = segCounts.map(([, n]) => n);
const mean = perSegment.reduce((a, b) => a + b, 0) / Math.max(1, perSegment.length);
const steady = deliveries.filter((d) => !d.join && d.atS >= warmupSeconds);
console.log(
  JSON.stringify(
    {
      origin: originKind,
      stream,
      receivers,
      seconds: elapsed,
      hold: values.hold,
      workers: Number(values.workers),
      edgeCpus: edgeCpus ?? 'any',
      benchCpus: benchCpus ?? 'any',
      segmentsFetchedByReceivers: segmentsFetched,
      receiverErrors: errors,
      receivedMB: Math.round(bytes / 1e6),
      receivedGbps: Number(((bytes * 8) / 1e9 / elapsed).toFixed(2)),
      originSegmentsRequested: perSegment.length,
      originCounts: stats.fetches === undefined ? 'requests' : 'whole-object fetches',
      originRequestsPerSegment: { mean: Number(mean.toFixed(3)), max: Math.max(...perSegment) },
      requestedMoreThanOnce: Object.fromEntries(segCounts.filter(([, n]) => n > 1)),
      edgeMaxRssMB: Math.round(maxRss),
      edgeWarnings: { count: edgeWarningCount, first: edgeWarnings },
      // Cores busy: the edge's (and its workers') CPU time, and this process's (origin and
      // receivers), over the run. Near 1.0 on a pinned core: that side is the limit.
      edgeCores: Number(edgeCores.toFixed(2)),
      benchCores: Number(((benchCpu.user + benchCpu.system) / 1e6 / elapsed).toFixed(2)),
      // Segment delivery, request → headers (TTFB) and → last byte. steady: segments asked for as
      // they appeared in the held playlist, from --warmup s on (the goal: p99 < segment duration);
      // join: each receiver's first three, back to back.
      segmentSeconds,
      delivery: {
        steady: { fromSecond: warmupSeconds, ...summary(steady) },
        join: summary(deliveries.filter((d) => d.join)),
        all: summary(deliveries),
      },
    },
    null,
    2,
  ),
);
await edge.stop();
await origin.close();
