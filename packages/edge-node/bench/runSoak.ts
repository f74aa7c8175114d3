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
import { backhaulSplit, metricSeries, type BackhaulSplit } from './backhaulSplit.js';
import { ORIGIN_KEEP_ALIVE_MS } from '../src/origin/OriginDispatcher.js';
import { rssTreeMb, startEdgeProcess, startOriginProcess, startTapProcess } from './benchTools.js';

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
  /**
   * Put a counting relay between the edge and the origin (backhaulTap, its own process) and report
   * the origin's bytes on the wire beside the edge's own count. Off by default: the relay copies
   * every backhaul byte on the soak's two cores.
   */
  tap?: boolean;
}

export interface SoakSample {
  t: number;
  rssMb: number;
  heapMb: number;
  /** The V8 heap just after each process's last full GC (ethle_heap_live_bytes), summed: its floor. */
  heapLiveMb: number;
  fds: number;
  receivers: number;
  segments: number;
  errors: number;
  cut: number;
  originMB: number;
  /** With `tap`: the origin's bytes through the backhaul tap (on the wire), MB. */
  wireMB?: number;
  /** Media objects the origin was asked for whose size is not known yet (in production): 0 in the ratio's denominator. */
  unsized: number;
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
  /**
   * Seconds from the receivers gone to the box's last stream idle (ethle_streams 0), and to fds
   * within their goal (or the wait's end).
   */
  streamsIdleS: number;
  fdsSettledS: number;
  /** The edge's warnings and errors by message, with how many lines. */
  edgeWarnings: Record<string, number>;
  /** Origin fetches that timed out, by which limit (ethle_origin_timeouts_total, every process of a box). */
  originTimeouts: Record<string, number>;
  /** Prefetches the plan wanted that did not fit the byte budget (ethle_prefetch_skipped_total, every process). */
  prefetchSkipped: number;
  /** Where the origin bytes went: the edge's `ethle_origin_bytes_total` by tier, kind and outcome, MB. */
  edgeOriginMB: Record<string, number>;
  /** ethle_origin_refetches_total by tier and why the object had left the cache, and their MB. */
  refetches: Record<string, number>;
  /** With `tap`: what the origin sent the edge on the wire (a counting relay between them: heads and bodies), MB. */
  wireMB?: number;
  /**
   * The origin's whole-object fetches per media object, by class, with the soak's own requests
   * taken out: objects fetched more than once and what that can have cost.
   */
  split: BackhaulSplit;
}

/** fds after the run may be at most 10 % above those before (rounded up). */
export const fdsGoal = (before: number): number => Math.ceil(before * 1.1);

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
  // With `tap` the edge reaches the origin through a counting relay in a process of its own: the
  // backhaul's bytes on the wire, to check the edge's own ethle_origin_bytes_total against.
  const tap = o.tap === true ? await startTapProcess(origin.url) : undefined;
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
      tap?.url ?? origin.url,
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

  // The soak's own requests to the origin per path (hash GETs, size HEADs): not the edge's fetches.
  const ownFetches = new Map<string, number>();
  const ownFetch = (path: string): void => void ownFetches.set(path, (ownFetches.get(path) ?? 0) + 1);
  // The origin's own bytes of an object, hashed once per path.
  const originHashes = new Map<string, Promise<string | undefined>>();
  const checkAgent = new Agent({ connections: 4 });
  const originHash = (path: string): Promise<string | undefined> => {
    let h = originHashes.get(path);
    if (h === undefined) {
      h = (async () => {
        try {
          ownFetch(path);
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
      ownFetch(path);
      const r = await request(`${origin.url}${path}`, { method: 'HEAD', dispatcher: checkAgent, signal: AbortSignal.timeout(10_000) });
      await r.body.dump();
      if (r.statusCode !== 200) return 0;
      const n = Number(r.headers['content-length']);
      return Number.isSafeInteger(n) ? n : undefined; // in production (chunked): ask again later
    } catch {
      return undefined;
    }
  };
  let unsized = 0;
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
    unsized = 0;
    for (const path of Object.keys(stats.requests)) {
      if (!MEDIA.test(path)) continue;
      const n = sizeByPath.get(path);
      if (n === undefined) unsized += 1;
      unique += n ?? 0;
    }
    const received = await backhaulBytes();
    return unique === 0 ? Number.NaN : received / unique;
  };
  const sample = async (): Promise<void> => {
    const t = Math.round((Date.now() - t0) / 1000);
    const r = await ratio();
    const s: SoakSample = {
      t,
      // From /proc, the edge and its workers: a box's aggregated /metrics lacks a worker that did not answer in time.
      rssMb: rssTreeMb(edge.pid),
      heapMb: (await metric('nodejs_heap_size_used_bytes')) / 1048576,
      heapLiveMb: (await metric('ethle_heap_live_bytes')) / 1048576,
      fds: await metric('process_open_fds'),
      receivers: active,
      segments,
      errors,
      cut,
      originMB: (await backhaulBytes()) / 1e6,
      ...(tap === undefined ? {} : { wireMB: (await tap.down()) / 1e6 }),
      unsized,
      ratio: r,
    };
    samples.push(s);
    log(
      `t=${s.t}s rss=${s.rssMb.toFixed(0)}MB heap=${s.heapMb.toFixed(0)}MB live=${s.heapLiveMb.toFixed(1)}MB fds=${s.fds} receivers=${s.receivers} segments=${s.segments} aborted=${aborted} cut=${s.cut} errors=${s.errors} corrupt=${corrupt} origin=${s.originMB.toFixed(0)}MB ${s.wireMB === undefined ? '' : `wire=${s.wireMB.toFixed(0)}MB `}ratio=${s.ratio.toFixed(3)}${s.unsized > 0 ? ` (${s.unsized} objects in production unsized)` : ''}`,
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
  // Receivers gone: their connections close at once. The box goes idle from the receivers inward:
  // an edge's stream one streamIdleMs after its last receiver request and, behind `--workers`, the
  // parent's one streamIdleMs after the workers' last poll (their polls are its requests). Only
  // then are the pooled origin connections idle, and they close within the edge's keep-alive (its
  // own ORIGIN_KEEP_ALIVE_MS, or the origin's shorter one). Then fds are back to where they
  // started, or the goal is missed. (Waiting streamIdleMs + the origin's 75 s read a box's fds
  // while its parent still held the origin connections of its last minute.)
  // A scrape that fails (a loaded box) reads NaN: neither idle nor settled, asked again.
  const reading = (name: string): Promise<number> => metric(name).catch(() => Number.NaN);
  const idleFrom = Date.now();
  const tiers = o.workers !== undefined && o.workers > 1 ? 2 : 1;
  const idleBy = idleFrom + tiers * streamIdleMs + 10_000;
  while (Date.now() < idleBy && (await reading('ethle_streams')) !== 0) await new Promise((r) => setTimeout(r, 250));
  const streamsIdleS = (Date.now() - idleFrom) / 1000;
  let fdsAfter = await reading('process_open_fds');
  const keepAliveMs = Math.min(ORIGIN_KEEP_ALIVE_MS, (o.originKeepAliveSeconds ?? 75) * 1000);
  const settleBy = Date.now() + keepAliveMs + 10_000;
  while (Date.now() < settleBy && !(fdsAfter <= fdsGoal(fdsBefore))) {
    await new Promise((r) => setTimeout(r, 250));
    fdsAfter = await reading('process_open_fds');
  }
  const fdsSettledS = (Date.now() - idleFrom) / 1000;
  await sample();
  const originTimeouts: Record<string, number> = {};
  for (const reason of ['idle', 'slow', 'deadline', 'headers', 'body', 'connect', 'unknown']) {
    const n = await metric('ethle_origin_timeouts_total', `reason="${reason}"`);
    if (n > 0) originTimeouts[reason] = n;
  }
  const skipped = await metric('ethle_prefetch_skipped_total');
  const metricsText = await (await request(`${edge.url}/metrics`)).body.text();
  const edgeOriginMB: Record<string, number> = {};
  for (const x of metricSeries(metricsText, 'ethle_origin_bytes_total')) {
    const k = `${x.labels.tier ?? 'edge'}/${x.labels.kind ?? '?'}/${x.labels.outcome ?? '?'}`;
    edgeOriginMB[k] = +((edgeOriginMB[k] ?? 0) + x.value / 1e6).toFixed(2);
  }
  const refetches: Record<string, number> = {};
  for (const x of metricSeries(metricsText, 'ethle_origin_refetches_total')) {
    const k = `${x.labels.tier ?? 'edge'}/${x.labels.after ?? '?'}`;
    refetches[k] = (refetches[k] ?? 0) + x.value;
  }
  for (const x of metricSeries(metricsText, 'ethle_origin_refetched_bytes_total')) {
    const k = `${x.labels.tier ?? 'edge'}/${x.labels.after ?? '?'} MB`;
    refetches[k] = +((refetches[k] ?? 0) + x.value / 1e6).toFixed(2);
  }
  const finalStats = (await origin.stats()) as { requests: Record<string, number>; fetches?: Record<string, number> };
  const split = backhaulSplit({ requests: finalStats.requests, fetches: finalStats.fetches ?? {}, own: ownFetches }, sizeByPath, (p) =>
    MEDIA.test(p),
  );
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
    streamsIdleS: +streamsIdleS.toFixed(1),
    fdsSettledS: +fdsSettledS.toFixed(1),
    edgeWarnings: Object.fromEntries(edgeWarnings),
    originTimeouts,
    prefetchSkipped: Number.isNaN(skipped) ? 0 : skipped,
    edgeOriginMB,
    refetches,
    ...(tap === undefined ? {} : { wireMB: +((await tap.down()) / 1e6).toFixed(2) }),
    split,
  };
  await checkAgent.close();
  await edge.stop();
  await tap?.stop();
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
 * flat from minutes 5–10 to the last 5 (< 10 % drift of the window means of the live heap, each
 * process's heap after its last full GC; single samples of the heap swing with garbage).
 */
export function judgeSoak(r: SoakResult, o: { abortShare?: number }): SoakGoal[] {
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const endS = r.samples[r.samples.length - 1]?.t ?? 0;
  const goals: SoakGoal[] = [
    { goal: 'corrupt = 0', value: r.corrupt, met: r.corrupt === 0 },
    { goal: 'hashed transfers > 0', value: r.checked, met: r.checked > 0 },
    { goal: 'cut by the edge = 0', value: r.cut, met: r.cut === 0 },
    { goal: 'origin bytes ratio ≤ 1.05', value: +r.originBytesRatio.toFixed(3), met: r.originBytesRatio <= 1.05 },
    { goal: 'fds after ≤ before × 1.1', value: `${r.fdsBefore} → ${r.fdsAfter}`, met: r.fdsAfter <= fdsGoal(r.fdsBefore) },
  ];
  const asked = o.abortShare ?? 0.1;
  const share = r.requests === 0 ? 0 : r.aborted / r.requests;
  // Each abandoned request is abandoned inside its body, so what is achieved is what was asked (± sampling).
  goals.push({ goal: `abort share ≈ ${asked} (± 0.05)`, value: +share.toFixed(3), met: Math.abs(share - asked) <= 0.05 });
  if (endS >= 600) {
    // The floor (each process's heap just after its last full GC, summed) where both windows have
    // it (at least half their samples): a heap sampled at any moment carries that moment's garbage (a box's
    // swings by tens of MB, several times the bound), so its means mix GC timing with growth. A
    // leak's bytes raise the floor as much as the mean, and are a larger share of the floor: this
    // goal is the stricter of the two for a leak. The sampled heap's drift is said beside.
    const early = r.samples.filter((x) => x.t >= 300 && x.t < 600);
    const late = r.samples.filter((x) => x.t >= endS - 300);
    // A scrape that failed (NaN), or a box none of whose processes had a full GC yet (0), is no
    // reading: left out.
    const readings = (xs: SoakSample[], pick: (x: SoakSample) => number): number[] => xs.map(pick).filter((v) => v > 0);
    const drift = (pick: (x: SoakSample) => number): { a: number; b: number; pct: number } => {
      const a = mean(readings(early, pick));
      const b = mean(readings(late, pick));
      return { a, b, pct: (100 * (b - a)) / a };
    };
    const say = (d: { a: number; b: number; pct: number }): string =>
      `${d.a.toFixed(1)} → ${d.b.toFixed(1)} MB (${d.pct >= 0 ? '+' : ''}${d.pct.toFixed(1)} %)`;
    const sampled = drift((x) => x.heapMb);
    const hasLive = [early, late].every((w) => readings(w, (x) => x.heapLiveMb).length >= w.length / 2);
    const live = hasLive ? drift((x) => x.heapLiveMb) : undefined;
    goals.push({
      goal: `heap drift < 10 % (${live === undefined ? 'sampled heap' : 'live heap after full GCs'}, minutes 5–10 vs last 5)`,
      value: live === undefined ? say(sampled) : `${say(live)}; sampled heap ${say(sampled)}`,
      met: (live ?? sampled).pct < 10,
    });
  }
  return goals;
}
