// 1,000 concurrent receivers of 2M-2s through the edge: origin requests per segment (goal exactly
// 1.00) and the edge's RSS (goal < 300 MB). The live origin runs in this process, the edge in its
// own (the built CLI), the receivers here as a light HLS client loop (manifest every half target
// duration, every new segment fetched whole). Run after `npm run build`:
//   npx tsx packages/edge-node/bench/fanout.ts [--receivers 1000] [--seconds 40] [--hold 2] [--stream 2M-2s] [--workers 1]
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { rssTreeMb, startEdgeProcess } from './benchTools.js';
import { startSimpleLiveOrigin } from './simpleLiveOrigin.js';

const { values } = parseArgs({
  options: {
    receivers: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '40' },
    hold: { type: 'string', default: '2' },
    stream: { type: 'string', default: '2M-2s' },
    origin: { type: 'string', default: 'live' },
    workers: { type: 'string', default: '1' },
  },
});
const receivers = Number(values.receivers);
const seconds = Number(values.seconds);
const stream = values.stream;

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
const edge = await startEdgeProcess(['--origin', origin.url, '--port', '0', '--hold', values.hold, '--workers', values.workers]);
const playlistPath = `/live/${stream}/index.m3u8`;
const URI_LINE = /^[^#\s].*$/gm;

let segmentsFetched = 0;
let bytes = 0;
let errors = 0;
let stop = false;

async function receiver(i: number): Promise<void> {
  // Each receiver its own connection, as real players are.
  const dispatcher = new Agent({ connections: 1, pipelining: 1 });
  const base = new URL(playlistPath, edge.url);
  let last = '';
  await new Promise((r) => setTimeout(r, (i % 100) * 20)); // arrive over 2 s
  while (!stop) {
    try {
      const res = await request(base, { dispatcher, headers: { 'cmcd-session': `sid="r${i}"` } });
      const text = await res.body.text();
      const uris: string[] = text.match(URI_LINE) ?? [];
      // Start three segments from the (held) live edge, like hls.js, then follow along.
      const start = last === '' ? Math.max(0, uris.length - 3) : uris.indexOf(last) + 1;
      for (const uri of uris.slice(start > 0 ? start : uris.length - 1)) {
        const seg = await request(new URL(uri, base), { dispatcher });
        for await (const c of seg.body) bytes += (c as Buffer).length;
        if (seg.statusCode === 200) segmentsFetched += 1;
        else {
          errors += 1;
          if (errors <= 3) console.error(`receiver ${i}: ${uri} answered ${seg.statusCode} ${String(seg.headers['x-ethle-error'] ?? '')}`);
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
  await dispatcher.close();
}

await request(`${origin.url}/stats?reset=1`).then((r) => r.body.dump());
const started = Date.now();
let maxRss = 0;
const sampler = setInterval(() => (maxRss = Math.max(maxRss, rssTreeMb(edge.pid))), 500);
const runs = Array.from({ length: receivers }, (_, i) => receiver(i));
await new Promise((r) => setTimeout(r, seconds * 1000));
stop = true;
await Promise.all(runs);
clearInterval(sampler);
const stats = (await (await request(`${origin.url}/stats`)).body.json()) as { requests: Record<string, number> };
const segCounts = Object.entries(stats.requests).filter(([p]) => p.startsWith(`/live/${stream}/`) && !p.endsWith('.m3u8'));
const perSegment = segCounts.map(([, n]) => n);
const mean = perSegment.reduce((a, b) => a + b, 0) / Math.max(1, perSegment.length);
console.log(
  JSON.stringify(
    {
      origin: originKind,
      receivers,
      seconds: (Date.now() - started) / 1000,
      hold: values.hold,
      workers: Number(values.workers),
      segmentsFetchedByReceivers: segmentsFetched,
      receiverErrors: errors,
      receivedMB: Math.round(bytes / 1e6),
      originSegmentsRequested: perSegment.length,
      originRequestsPerSegment: { mean: Number(mean.toFixed(3)), max: Math.max(...perSegment) },
      requestedMoreThanOnce: Object.fromEntries(segCounts.filter(([, n]) => n > 1)),
      edgeMaxRssMB: Math.round(maxRss),
    },
    null,
    2,
  ),
);
await edge.stop();
await origin.close();
