// The edge left running under churn: live streams, receivers that join, leave and abort part-way,
// origin streams paused and resumed. Samples the edge's RSS, heap and open fds (its /metrics:
// prom-client's process metrics, summed over a `--workers` box's processes) and the origin's bytes
// against the unique segment bytes. Every transfer is classified — complete, aborted by its
// receiver, cut by the edge, refused — and a share of the complete ones is hashed and compared
// with the origin's own bytes. Used by `npm run soak` (bench/soak.ts, minutes) and by the short
// form in `npm test` (test/soak.test.ts, seconds).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, Agent } from 'undici';
import { rssTreeMb, startEdgeProcess, startOriginProcess } from './benchTools.js';

export interface SoakOptions {
  seconds: number;
  receivers: number;
  streams: string[];
  /** Pause one stream at the origin for this long every faultEverySeconds (0 = no faults). */
  faultEverySeconds: number;
  faultSeconds: number;
  /** Sample the edge every this many seconds. */
  sampleSeconds: number;
  /** `serve --workers N` (default 1: one process). */
  workers?: number;
  /** x for segment-held streams (default 2). */
  hold?: number;
  /**
   * `--hold-parts N`: low-latency streams held in parts; `llShare` of the receivers (default a
   * quarter) then play their stream's LL-HLS playlist and fetch its parts.
   */
  holdParts?: number;
  llShare?: number;
  /** Share of segment requests the receiver abandons part-way through the body (default 0.1). */
  abortShare?: number;
  /** Share of complete transfers hashed and compared with the origin's bytes (default 0.25). */
  checkShare?: number;
  /**
   * The edge's streamIdleMs (default its own, 30 s) and the origin's keep-alive (default its own,
   * 75 s): once the receivers left, fds come back after the streams go idle (pollers and
   * prefetches stop) and their idle origin connections close.
   */
  streamIdleMs?: number;
  originKeepAliveSeconds?: number;
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
  cut: number;
  originMB: number;
  ratio: number;
}

export interface SoakResult {
  samples: SoakSample[];
  /** Bytes the edge received from the origin / the unique media objects' bytes (1.00 = each crossed the backhaul once). */
  originBytesRatio: number;
  /** Segment and part requests made. */
  requests: number;
  /** Transfers received whole (200, the announced length). */
  segmentsReceived: number;
  /** Whole transfers whose length or bytes (hashed, checkShare of them) differ from the origin's. */
  corrupt: number;
  /** Whole transfers hashed and compared; and those whose origin copy could not be had. */
  checked: number;
  unchecked: number;
  /** Transfers the receiver abandoned part-way (the abort share really achieved = aborted / requests). */
  aborted: number;
  /** Transfers that started (200) and broke off without the receiver aborting: the edge cut them. */
  cut: number;
  /** Requests answered with another status or failing before the headers. */
  errors: number;
  fdsBefore: number;
  fdsAfter: number;
  /** The edge's warnings and errors by message, with how many lines. */
  edgeWarnings: Record<string, number>;
  /** Origin fetches that timed out, by which limit (ethle_origin_timeouts_total, every process of a box). */
  originTimeouts: Record<string, number>;
  /** Prefetches the plan wanted that did not fit the byte budget (ethle_prefetch_skipped_total, every process). */
  prefetchSkipped: number;
}

const URI_LINE = /^[^#\s].*$/gm;
const PART_URI = /^#EXT-X-PART:.*URI="([^"]+)"/gm;
const MEDIA = /^\/live\/([^/]+)\/.*\d\.(?:m4s|ts)$/;

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const log = o.log ?? ((l: string) => console.log(l));
  const abortShare = o.abortShare ?? 0.1;
  const checkShare = o.checkShare ?? 0.25;
  const llShare = o.holdParts === undefined ? 0 : (o.llShare ?? 0.25);
  // The origin in a process of its own (the built CLI), like the edge: 200 receivers in this
  // process must not slow the origin down and make the soak measure its own starvation.
  const origin = await startOriginProcess(o.streams, o.originKeepAliveSeconds);
  const streamIdleMs = o.streamIdleMs ?? 30_000;
  const edgeWarnings = new Map<string, number>();
  const dir = mkdtempSync(join(tmpdir(), 'ethle-soak-'));
  const configFile = join(dir, 'edge.json');
  writeFileSync(configFile, JSON.stringify({ streamIdleMs }));
  const edge = await startEdgeProcess(
    [
      '--config',
      configFile,
      '--origin',
      origin.url,
      '--port',
      '0',
      '--hold',
      String(o.hold ?? 2),
      ...(o.holdParts === undefined ? [] : ['--hold-parts', String(o.holdParts)]),
      ...(o.workers === undefined || o.workers === 1 ? [] : ['--workers', String(o.workers)]),
    ],
    (line) => {
      // The edge's warnings, the first few of each message: what it says about a cut or an error.
      const msg = /"msg":"([^"]*)"/.exec(line)?.[1] ?? line.slice(0, 120);
      const n = (edgeWarnings.get(msg) ?? 0) + 1;
      edgeWarnings.set(msg, n);
      if (n <= 3) log(`edge: ${line.slice(0, 600)}`);
    },
  );
  // A metric summed over its series (a `--workers` box reports its workers and its parent apart),
  // or over those whose labels include `label`.
  const metric = async (name: string, label = ''): Promise<number> => {
    const text = await (await request(`${edge.url}/metrics`)).body.text();
    let sum = Number.NaN;
    for (const m of text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? ([\\d.e+]+)$`, 'gm'))) {
      if (label !== '' && !(m[1] ?? '').includes(label)) continue;
      sum = (Number.isNaN(sum) ? 0 : sum) + Number(m[2]);
    }
    return sum;
  };
  // What crossed the backhaul, as the edge received it (a box's parent tier: its workers' bytes
  // come from the parent over loopback).
  const backhaulBytes = (): Promise<number> =>
    metric('ethle_origin_bytes_total', o.workers !== undefined && o.workers > 1 ? 'tier="parent"' : '');
  const fdsBefore = await metric('process_open_fds');
  const sizeByPath = new Map<string, number>();
  let requests = 0;
  let segments = 0;
  let corrupt = 0;
  let checked = 0;
  let unchecked = 0;
  let aborted = 0;
  let cut = 0;
  let errors = 0;
  let active = 0;
  let stop = false;
  const t0 = Date.now();

  // The origin's own bytes of an object, hashed once per path.
  const originHashes = new Map<string, Promise<string | undefined>>();
  const checkAgent = new Agent({ connections: 4 });
  const originHash = (path: string): Promise<string | undefined> => {
    let h = originHashes.get(path);
    if (h === undefined) {
      h = (async () => {
        try {
          const r = await request(`${origin.url}${path}`, { dispatcher: checkAgent, signal: AbortSignal.timeout(30_000) });
          const hash = createHash('sha1');
          for await (const c of r.body) hash.update(c as Buffer);
          return r.statusCode === 200 ? hash.digest('hex') : undefined;
        } catch {
          return undefined;
        }
      })();
      originHashes.set(path, h);
    }
    return h;
  };

  /** One media request: classified, length-checked, and (checkShare) hashed against the origin. */
  async function fetchMedia(url: URL, dispatcher: Agent): Promise<void> {
    requests += 1;
    const ac = new AbortController();
    // Some requests are abandoned part-way through their body (a player timeout, a zap).
    const abortAt = Math.random() < abortShare ? Math.random() : undefined;
    const hash = Math.random() < checkShare ? createHash('sha1') : undefined;
    let started = false;
    try {
      const seg = await request(url, { dispatcher, signal: ac.signal });
      if (seg.statusCode !== 200) {
        errors += 1;
        await seg.body.dump().catch(() => undefined);
        return;
      }
      started = true;
      const expected = Number(seg.headers['content-length']);
      let n = 0;
      for await (const c of seg.body) {
        n += (c as Buffer).length;
        hash?.update(c as Buffer);
        if (abortAt !== undefined && n >= abortAt * expected && n < expected) ac.abort();
      }
      segments += 1;
      if (n !== expected) {
        corrupt += 1;
        if (corrupt <= 5) log(`corrupt: ${url.pathname}: ${n} bytes, content-length ${seg.headers['content-length'] ?? 'absent'}`);
        return;
      }
      sizeByPath.set(url.pathname, n);
      if (hash !== undefined) {
        const want = await originHash(url.pathname);
        if (want === undefined) unchecked += 1;
        else {
          checked += 1;
          if (hash.digest('hex') !== want) {
            corrupt += 1;
            if (corrupt <= 5)
              log(`corrupt: ${url.pathname}: ${n} bytes whose hash differs from the origin's (x-cache ${seg.headers['x-cache'] ?? '-'})`);
          }
        }
      }
    } catch (e) {
      if (ac.signal.aborted) aborted += 1;
      else {
        if (started) cut += 1;
        else errors += 1;
        // The first few, said: a count alone hides what failed.
        if (cut + errors <= 5)
          log(`${started ? 'cut' : 'error'}: ${url.pathname}: ${(e as { code?: string }).code ?? ''} ${(e as Error).message}`);
      }
    }
  }

  async function receiver(i: number): Promise<void> {
    const dispatcher = new Agent({ connections: 1, pipelining: 1 });
    const stream = o.streams[i % o.streams.length]!;
    const ll = Math.random() < llShare;
    const base = new URL(`/live/${stream}/${ll ? 'll/' : ''}index.m3u8`, edge.url);
    // Each receiver stays a random while (a viewer zapping), then a new one takes its place.
    const leaveAt = Date.now() + 5_000 + Math.random() * 25_000;
    const seen = new Set<string>();
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
        // Segments (LL: parts) the receiver has not fetched yet; a new one starts three from the edge.
        const uris: string[] = ll ? [...text.matchAll(PART_URI)].map((m) => m[1]!) : (text.match(URI_LINE) ?? []);
        const fresh = uris.filter((u) => !seen.has(u));
        const todo = seen.size === 0 ? fresh.slice(-3) : fresh;
        for (const u of uris) seen.add(u);
        if (seen.size > 200) for (const u of [...seen].slice(0, seen.size - 200)) seen.delete(u);
        for (const uri of todo) {
          if (stop) break;
          await fetchMedia(new URL(uri, base), dispatcher);
        }
        await new Promise((r) => setTimeout(r, ll ? 300 : 1000));
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
          void request(`${origin.url}/admin/${name}/pause`, { method: 'POST' })
            .then((r) => r.body.dump())
            .catch(() => undefined);
          setTimeout(
            () =>
              void request(`${origin.url}/admin/${name}/resume`, { method: 'POST' })
                .then((r) => r.body.dump())
                .catch(() => undefined),
            o.faultSeconds * 1000,
          );
        }, o.faultEverySeconds * 1000)
      : undefined;

  const samples: SoakSample[] = [];
  // Every distinct media object the edge asked the origin for, at its size: what the backhaul
  // carries if each crossed it exactly once, against what the edge received from the origin
  // (ethle_origin_bytes_total: manifests and init segments too, so 1.00 is not quite reachable; a
  // transfer cut short counts what arrived). Sizes the receivers did not learn (a held segment at
  // the end, an abandoned one) are asked of the origin with HEAD, which sends no body.
  const headSize = async (path: string): Promise<number | undefined> => {
    try {
      const r = await request(`${origin.url}${path}`, { method: 'HEAD', dispatcher: checkAgent, signal: AbortSignal.timeout(10_000) });
      await r.body.dump();
      if (r.statusCode !== 200) return 0;
      const n = Number(r.headers['content-length']);
      return Number.isSafeInteger(n) ? n : undefined; // in production (chunked): ask again later
    } catch {
      return undefined;
    }
  };
  const ratio = async (): Promise<number> => {
    const stats = await origin.stats();
    const unknown = Object.keys(stats.requests).filter((p) => MEDIA.test(p) && !sizeByPath.has(p));
    for (let i = 0; i < unknown.length; i += 16) {
      await Promise.all(
        unknown.slice(i, i + 16).map(async (p) => {
          const n = await headSize(p);
          if (n !== undefined) sizeByPath.set(p, n);
        }),
      );
    }
    let unique = 0;
    for (const path of Object.keys(stats.requests)) if (MEDIA.test(path)) unique += sizeByPath.get(path) ?? 0;
    const received = await backhaulBytes();
    return unique === 0 ? Number.NaN : received / unique;
  };
  const sample = async (): Promise<void> => {
    const s: SoakSample = {
      t: Math.round((Date.now() - t0) / 1000),
      // From /proc, the edge and its workers: a box's aggregated /metrics lacks a worker that did not answer in time.
      rssMb: rssTreeMb(edge.pid),
      heapMb: (await metric('nodejs_heap_size_used_bytes')) / 1048576,
      fds: await metric('process_open_fds'),
      receivers: active,
      segments,
      errors,
      cut,
      originMB: (await backhaulBytes()) / 1e6,
      ratio: await ratio(),
    };
    samples.push(s);
    log(
      `t=${s.t}s rss=${s.rssMb.toFixed(0)}MB heap=${s.heapMb.toFixed(0)}MB fds=${s.fds} receivers=${s.receivers} segments=${s.segments} aborted=${aborted} cut=${s.cut} errors=${s.errors} corrupt=${corrupt} origin=${s.originMB.toFixed(0)}MB ratio=${s.ratio.toFixed(3)}`,
    );
  };
  const sampler = setInterval(() => void sample().catch((e: Error) => log(`sample failed: ${e.message}`)), o.sampleSeconds * 1000);
  await new Promise((r) => setTimeout(r, o.seconds * 1000));
  stop = true;
  clearInterval(sampler);
  if (faults !== undefined) clearInterval(faults);
  for (const s of o.streams)
    await request(`${origin.url}/admin/${s}/resume`, { method: 'POST' })
      .then((r) => r.body.dump())
      .catch(() => undefined);
  await Promise.all(slots);
  await Promise.all(originHashes.values());
  // Receivers gone: their connections close at once; the streams go idle after streamIdleMs and
  // their origin connections close within the origin's keep-alive (Node's: 5 s). Then fds are
  // back to where they started, or the goal is missed.
  let fdsAfter = await metric('process_open_fds');
  const settleBy = Date.now() + streamIdleMs + (o.originKeepAliveSeconds ?? 75) * 1000 + 10_000;
  while (Date.now() < settleBy && fdsAfter > fdsBefore * 1.1) {
    await new Promise((r) => setTimeout(r, 250));
    fdsAfter = await metric('process_open_fds');
  }
  await sample();
  const originTimeouts: Record<string, number> = {};
  for (const reason of ['idle', 'slow', 'deadline', 'headers', 'body', 'connect', 'unknown']) {
    const n = await metric('ethle_origin_timeouts_total', `reason="${reason}"`);
    if (n > 0) originTimeouts[reason] = n;
  }
  const skipped = await metric('ethle_prefetch_skipped_total');
  const result: SoakResult = {
    samples,
    originBytesRatio: await ratio(),
    requests,
    segmentsReceived: segments,
    corrupt,
    checked,
    unchecked,
    aborted,
    cut,
    errors,
    fdsBefore,
    fdsAfter,
    edgeWarnings: Object.fromEntries(edgeWarnings),
    originTimeouts,
    prefetchSkipped: Number.isNaN(skipped) ? 0 : skipped,
  };
  await checkAgent.close();
  await edge.stop();
  await origin.stop();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

/** One goal of the soak: its figure, the bound, and whether it was met. */
export interface SoakGoal {
  goal: string;
  value: number | string;
  met: boolean;
}

/**
 * The soak's goals, judged on its result: no corrupt transfer (length and, for those hashed, the
 * origin's bytes), no transfer cut by the edge, each media object across the backhaul once
 * (≤ 1.05 with manifests and init segments), fds back within 10 % once receivers left, the
 * abort share really achieved near the one asked for, and — runs of 10 minutes or more — the heap
 * flat from minutes 5–10 to the last 5 (< 10 % drift of the window means; single samples swing
 * with garbage collection).
 */
export function judgeSoak(r: SoakResult, o: { abortShare?: number }): SoakGoal[] {
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const endS = r.samples[r.samples.length - 1]?.t ?? 0;
  const goals: SoakGoal[] = [
    { goal: 'corrupt = 0', value: r.corrupt, met: r.corrupt === 0 },
    { goal: 'hashed transfers > 0', value: r.checked, met: r.checked > 0 },
    { goal: 'cut by the edge = 0', value: r.cut, met: r.cut === 0 },
    { goal: 'origin bytes ratio ≤ 1.05', value: +r.originBytesRatio.toFixed(3), met: r.originBytesRatio <= 1.05 },
    { goal: 'fds after ≤ before × 1.1', value: `${r.fdsBefore} → ${r.fdsAfter}`, met: r.fdsAfter <= Math.ceil(r.fdsBefore * 1.1) },
  ];
  const asked = o.abortShare ?? 0.1;
  const share = r.requests === 0 ? 0 : r.aborted / r.requests;
  // Each abandoned request is abandoned inside its body, so what is achieved is what was asked (± sampling).
  goals.push({ goal: `abort share ≈ ${asked} (± 0.05)`, value: +share.toFixed(3), met: Math.abs(share - asked) <= 0.05 });
  if (endS >= 600) {
    const early = mean(r.samples.filter((x) => x.t >= 300 && x.t < 600).map((x) => x.heapMb));
    const late = mean(r.samples.filter((x) => x.t >= endS - 300).map((x) => x.heapMb));
    const drift = (100 * (late - early)) / early;
    goals.push({
      goal: 'heap drift < 10 % (minutes 5–10 vs last 5)',
      value: `${early.toFixed(1)} → ${late.toFixed(1)} MB (${drift >= 0 ? '+' : ''}${drift.toFixed(1)} %)`,
      met: drift < 10,
    });
  }
  return goals;
}
