// The edge left running under churn: live streams, receivers that join, leave and abort at random,
// origin streams paused and resumed. Samples the edge process's RSS, heap and open fds (its own
// /metrics: prom-client's process metrics) and the origin's bytes against the unique segment bytes.
// Used by `npm run soak` (bench/soak.ts, minutes) and by a short test in the suite (seconds).
import { request, Agent } from 'undici';
import { startEdgeProcess, startOriginProcess } from './benchTools.js';

export interface SoakOptions {
  seconds: number;
  receivers: number;
  streams: string[];
  /** Pause one stream at the origin for this long every faultEverySeconds (0 = no faults). */
  faultEverySeconds: number;
  faultSeconds: number;
  /** Sample the edge every this many seconds. */
  sampleSeconds: number;
  log?: (line: string) => void;
}

export interface SoakSample {
  t: number;
  rssMb: number;
  heapMb: number;
  fds: number;
  receivers: number;
  segments: number;
  errors: number;
  originMB: number;
  ratio: number;
}

export interface SoakResult {
  samples: SoakSample[];
  /** Origin segment bytes / unique segment bytes (1.00 = every segment crossed the backhaul once). */
  originBytesRatio: number;
  segmentsReceived: number;
  /** Complete segments with the wrong length (must be 0). */
  corrupt: number;
  errors: number;
  fdsBefore: number;
  fdsAfter: number;
}

const URI_LINE = /^[^#\s].*$/gm;

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const log = o.log ?? ((l: string) => console.log(l));
  // The origin in a process of its own (the built CLI), like the edge: 200 receivers in this
  // process must not slow the origin down and make the soak measure its own starvation.
  const origin = await startOriginProcess(o.streams);
  const edge = await startEdgeProcess(['--origin', origin.url, '--port', '0', '--hold', '2']);
  const metric = async (name: string): Promise<number> => {
    const text = await (await request(`${edge.url}/metrics`)).body.text();
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+]+)$`, 'm').exec(text);
    return m === null ? Number.NaN : Number(m[1]);
  };
  const fdsBefore = await metric('process_open_fds');
  const sizeByStream = new Map<string, number>(); // CBR: every media segment of a stream is one size
  let segments = 0;
  let corrupt = 0;
  let errors = 0;
  let active = 0;
  let stop = false;
  const t0 = Date.now();

  async function receiver(i: number): Promise<void> {
    const dispatcher = new Agent({ connections: 1, pipelining: 1 });
    const stream = o.streams[i % o.streams.length]!;
    const base = new URL(`/live/${stream}/index.m3u8`, edge.url);
    // Each receiver stays a random while (a viewer zapping), then a new one takes its place.
    const leaveAt = Date.now() + 5_000 + Math.random() * 25_000;
    let last = '';
    active += 1;
    try {
      while (!stop && Date.now() < leaveAt) {
        let res;
        let text: string;
        try {
          res = await request(base, { dispatcher, headers: { 'cmcd-session': `sid="r${i}-${leaveAt}"` } });
          text = await res.body.text();
        } catch {
          errors += 1;
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        if (res.statusCode !== 200) {
          errors += 1;
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        const uris: string[] = text.match(URI_LINE) ?? [];
        const start = last === '' ? Math.max(0, uris.length - 3) : uris.indexOf(last) + 1;
        for (const uri of uris.slice(start > 0 ? start : uris.length - 1)) {
          if (stop) break;
          const url = new URL(uri, base);
          // One request in ten gives up part-way (a player timeout, a zap).
          const ac = new AbortController();
          const abortAfter = Math.random() < 0.1 ? setTimeout(() => ac.abort(), Math.random() * 500) : undefined;
          try {
            const seg = await request(url, { dispatcher, signal: ac.signal });
            let n = 0;
            for await (const c of seg.body) n += (c as Buffer).length;
            if (seg.statusCode === 200) {
              const expected = Number(seg.headers['content-length']);
              if (n !== expected) corrupt += 1;
              segments += 1;
              const m = /^\/live\/([^/]+)\/.*\d\.(?:m4s|ts)$/.exec(url.pathname);
              if (m !== null) sizeByStream.set(m[1]!, n);
            } else errors += 1;
          } catch {
            // aborted on purpose, or cut by the edge: never counted as a segment
          } finally {
            clearTimeout(abortAfter);
          }
          last = uri;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    } catch {
      errors += 1;
    } finally {
      active -= 1;
      await dispatcher.close();
    }
  }

  const slots = Array.from({ length: o.receivers }, async (_, i) => {
    await new Promise((r) => setTimeout(r, (i * 2000) / o.receivers));
    for (let gen = 0; !stop; gen++) await receiver(i + gen * o.receivers);
  });

  const faults =
    o.faultEverySeconds > 0
      ? setInterval(() => {
          const name = o.streams[Math.floor(Math.random() * o.streams.length)]!;
          // A fault request that fails is a missed fault, not the end of the soak.
          void request(`${origin.url}/admin/${name}/pause`, { method: 'POST' }).then((r) => r.body.dump()).catch(() => undefined);
          setTimeout(() => void request(`${origin.url}/admin/${name}/resume`, { method: 'POST' }).then((r) => r.body.dump()).catch(() => undefined), o.faultSeconds * 1000);
        }, o.faultEverySeconds * 1000)
      : undefined;

  const samples: SoakSample[] = [];
  // Every distinct media segment the origin sent (whole or in ranges), at its size: what the
  // backhaul carries if each crossed it exactly once. The origin's bytes include manifests and
  // init segments too, so 1.00 is not quite reachable.
  const ratio = async (): Promise<number> => {
    const stats = await origin.stats();
    let unique = 0;
    for (const path of Object.keys(stats.requests)) {
      const m = /^\/live\/([^/]+)\/.*\d\.(?:m4s|ts)$/.exec(path);
      if (m !== null) unique += sizeByStream.get(m[1]!) ?? 0;
    }
    return unique === 0 ? Number.NaN : stats.bytesSent / unique;
  };
  const sample = async (): Promise<void> => {
    const s: SoakSample = {
      t: Math.round((Date.now() - t0) / 1000),
      rssMb: (await metric('process_resident_memory_bytes')) / 1048576,
      heapMb: (await metric('nodejs_heap_size_used_bytes')) / 1048576,
      fds: await metric('process_open_fds'),
      receivers: active,
      segments,
      errors,
      originMB: (await origin.stats()).bytesSent / 1e6,
      ratio: await ratio(),
    };
    samples.push(s);
    log(`t=${s.t}s rss=${s.rssMb.toFixed(0)}MB heap=${s.heapMb.toFixed(0)}MB fds=${s.fds} receivers=${s.receivers} segments=${s.segments} errors=${s.errors} origin=${s.originMB.toFixed(0)}MB ratio=${s.ratio.toFixed(3)}`);
  };
  const sampler = setInterval(() => void sample().catch((e: Error) => log(`sample failed: ${e.message}`)), o.sampleSeconds * 1000);
  await new Promise((r) => setTimeout(r, o.seconds * 1000));
  stop = true;
  clearInterval(sampler);
  if (faults !== undefined) clearInterval(faults);
  for (const s of o.streams) await request(`${origin.url}/admin/${s}/resume`, { method: 'POST' }).then((r) => r.body.dump()).catch(() => undefined);
  await Promise.all(slots);
  // Receivers gone: the edge's keep-alive and origin connections settle; fds back to baseline.
  let fdsAfter = await metric('process_open_fds');
  for (let i = 0; i < 40 && fdsAfter > fdsBefore * 1.1; i++) {
    await new Promise((r) => setTimeout(r, 250));
    fdsAfter = await metric('process_open_fds');
  }
  await sample();
  const result: SoakResult = { samples, originBytesRatio: await ratio(), segmentsReceived: segments, corrupt, errors, fdsBefore, fdsAfter };
  await edge.stop();
  await origin.stop();
  return result;
}
