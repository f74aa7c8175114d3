import { createWriteStream, existsSync, readFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserType } from '@playwright/test';
import {
  backhaul,
  cpuPressureMeter,
  cpuStealMeter,
  createTestbed,
  DEFAULT_STALL_MS,
  hashUnit,
  judgeRun,
  lteA,
  DEFAULT_SENDER_PRIORITY,
  lteAWalk,
  parseMahimahiTrace,
  rotateTrace,
  seedFrom,
  symmetric,
  type DirectionAccount,
  type DirectionStats,
  type FreezeStats,
  type LatenessSummary,
  type LinkAccount,
  type LinkBuffers,
  type LinkSpec,
  type TcpCounters,
  type Testbed,
  type ValidityBar,
} from '@ethle/netlab';
import type { EdgeFigures, RunResult } from '@ethle/player-demo';
import { parseStreamName, type RelayStatsJson } from '@ethle/live-origin';
import { abrFigures, abrTrack, type AbrFigures, type RenditionSwitch } from './abrFigures.js';
import { edgeHoldArgs, holdArg } from './paperHoldX.js';
import { ladderManifestPath, parseLadderName, renditionOfPath } from './parseLadderName.js';
import { playChromium } from './playChromium.js';
import { playerBufferConfig, forwardBufferSeconds, HLS_DEFAULT_BUFFER_S } from './playerBuffer.js';
import { playVirtualInTestbed, type VirtualOutcome } from './playVirtualInTestbed.js';
import { probeSource } from './probeSource.js';
import { sourceCommit } from './sourceCommit.js';
import { sourceFigures, type SourceFigures } from './sourceFigures.js';
import { startUnixBridge } from './unixBridge.js';
import { scaleFigures, type ReceiverFigures, type ScaleFigures } from './scaleFigures.js';
import { joinOffsetsMs, scenarioId, type Scenario } from './Scenario.js';
import { fetchIn, metric, metricSum, waitForLine } from './testbedIo.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ORIGIN_BIN = join(root, 'packages/live-origin/bin/ethle-origin.js');
const EDGE_BIN = join(root, 'packages/edge-node/bin/ethle-edge.js');
function ranSpec(ran: string, seed: number): LinkSpec {
  if (ran === 'lte-a') return lteA({ seed });
  // The cell with residual radio loss after HARQ (`lte-a-loss` 0.5 %, `lte-a-loss:P` P %), each way.
  const lossy = /^lte-a-loss(?::(\d+(?:\.\d+)?))?$/.exec(ran);
  if (lossy) {
    const pct = lossy[1] === undefined ? 0.5 : Number(lossy[1]);
    if (!(pct > 0 && pct < 50)) throw new Error(`--ran lte-a-loss:P wants a loss percentage in (0, 50), got ${lossy[1]}`);
    const l = lteA({ seed });
    return { up: { ...l.up, loss: pct / 100 }, down: { ...l.down, loss: pct / 100 } };
  }
  // The earlier model (a delay walk), so runs made with it can be repeated.
  if (ran === 'lte-a-walk') return lteAWalk({ seed });
  if (ran === 'none') return symmetric({ delayMs: 0.5 });
  if (ran.startsWith('trace:')) return traceSpec(ran.slice('trace:'.length), seed);
  throw new Error(`unknown RAN profile ${ran} (lte-a, lte-a-loss[:P], lte-a-walk, none, trace:FILE)`);
}

/** Random loss on both directions of the backhaul, seeded from the run (the same losses for every scheme of a repeat). */
function lossyBackhaul(link: LinkSpec, pct: number | undefined, seed: number): LinkSpec {
  if (!pct) return link;
  return {
    up: { ...link.up, loss: pct / 100, seed: (seed ^ 0x5bd1e995) >>> 0 },
    down: { ...link.down, loss: pct / 100, seed: (seed ^ 0x27d4eb2f) >>> 0 },
  };
}

/**
 * A mahimahi trace as the radio: FILE shapes the downlink, and its uplink sibling (`X.down` →
 * `X.up`, recorded on the same drive) the uplink when there is one, else a 50 Mbit/s uplink. Both
 * start at one offset drawn from the run's seed, so each repeat drives through another stretch of
 * the trace (the same stretch for every scheme of a repeat: common random numbers). 20 ms each way
 * on top, the LTE-A cell's idle RTT (docs/netlab.md).
 */
function traceSpec(file: string, seed: number): LinkSpec {
  const down = parseMahimahiTrace(readFileSync(file, 'utf8'));
  const offsetMs = hashUnit(seed, 1) * down[down.length - 1]!;
  const upFile = file.endsWith('.down') ? `${file.slice(0, -'.down'.length)}.up` : undefined;
  const up =
    upFile && existsSync(upFile)
      ? { delayMs: 20, traceMs: rotateTrace(parseMahimahiTrace(readFileSync(upFile, 'utf8')), offsetMs) }
      : { delayMs: 20, rateMbps: 50 };
  return { down: { delayMs: 20, traceMs: rotateTrace(down, offsetMs) }, up };
}

/**
 * One link direction in a run file: the relay's counters and its departure lateness, and the
 * direction's packet account (netlab DirectionAccount: what entered, what arrived, every modelled
 * and unmodelled drop, and — the links being quiet when read — what no counter saw).
 */
export type LinkDirectionRecord = Pick<DirectionStats, 'packets' | 'bytes' | 'drops' | 'lossDrops' | 'maxQueueBytes' | 'userBytes'> &
  Omit<DirectionAccount, 'lateness' | 'naturalLateness'> & { lateness: LatenessSummary; naturalLateness?: LatenessSummary };

/** Whether a run counts, as its file records it (netlab judgeRun, with what it was judged on). */
export interface RunValidity {
  /** The lateness bar it was judged against (p99 of each relay direction's departure lateness), ms. */
  lateP99BarMs: number;
  /** The bars it failed: `relay-late`, `unmodelled-drops`; none: valid. */
  failed: ValidityBar[];
  /** One line per problem: where, what, and what to do. */
  problems: string[];
  /** Whether the links were quiet when their counters were read, so each direction balanced exactly. */
  settled: boolean;
  /** What the links' queues were sized to. */
  buffers: LinkBuffers;
}

/**
 * A run as the experiments write it: the dashboard's RunResult plus, per link and direction, the
 * relay's departure lateness and the packet account (`links`), each host's TCP counters (`tcp`),
 * the verdict (`validity`) and `invalid` — its problems in one line, set when it failed a bar: it
 * measured the box or the testbed rather than the network (docs/netlab.md). With several
 * receivers the RunResult is receiver 0's; `receivers` has every receiver's figures and `scale`
 * the backhaul's and the origin's.
 */
export type ExperimentRun = RunResult & {
  /**
   * The commit the run's checkout was on (origin, edge and receivers run from it) and whether a
   * tracked file differed from it; absent outside a git checkout and in runs written before.
   */
  commit?: string;
  dirty?: boolean;
  links?: Record<
    'ran' | 'backhaul',
    Record<'up' | 'down', LinkDirectionRecord> & { ring?: LinkAccount['ring']; injected?: FreezeStats; threads?: LinkAccount['threads'] }
  >;
  /** Each host's TCP and IP counters over the run (nstat names): retransmissions, SACK recoveries, timeouts, HyStart exits. */
  tcp?: Record<'client' | 'edge' | 'origin', TcpCounters>;
  validity?: RunValidity;
  invalid?: string;
  /**
   * How busy the box was while the receivers played: the share of time some task waited for a CPU
   * (PSI), and the share of CPU time the hypervisor stole (/proc/stat), which no priority inside the
   * machine protects the relays from.
   */
  box?: { cpuPressure?: number; cpuSteal?: number };
  receivers?: ReceiverFigures[];
  scale?: ScaleFigures;
  /** `--source`: the user's source, as the relaying origin served it (its segments' sizes and durations). */
  source?: SourceFigures;
  /** A ladder stream (`15M+50M-2s`): the renditions the player rendered and the origin served (abrFigures). */
  abr?: AbrFigures;
};

/** SIGTERM to each process and wait (≤ 3 s each) until it has exited. */
async function stopProcesses(procs: ReturnType<Testbed['spawn']>[]): Promise<void> {
  await Promise.all(
    procs.map((p) => {
      if (p.exitCode !== null || p.signalCode !== null) return undefined;
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 3000);
        p.once('exit', () => (clearTimeout(timer), resolve()));
        p.kill('SIGTERM');
      });
    }),
  );
}

/** The backhaul's downstream bytes once a second (bounded by the run's length), for its utilisation. */
function sampleBackhaul(tb: Testbed, maxSamples: number): { samples: number[]; stop: () => void } {
  const samples: number[] = [];
  let busy = false;
  const timer = setInterval(() => {
    if (busy || samples.length >= maxSamples) return;
    busy = true;
    tb.stats()
      .then((s) => samples.push(s.backhaul.down.bytes))
      .catch(() => undefined) // the testbed is closing: the series simply ends
      .finally(() => (busy = false));
  }, 1000);
  return { samples, stop: () => clearInterval(timer) };
}

/**
 * Runs one scenario on real kernel TCP: origin, edge and the receivers — Chromium (hls.js or
 * dash.js with the QoE probe) or N virtual receivers — in their namespaces, for `durationS`, and
 * returns the run in the results format.
 */
export async function runScenario(s: Scenario, chromium: BrowserType, outDir?: string): Promise<ExperimentRun> {
  // Common random numbers: every scheme of one cell × repeat sees the same radio delay walk, so
  // their difference is the scheme's, not the draw's (repeats still draw anew). With several
  // users, user 0 keeps this seed and the others derive theirs from it (netlab userSeed).
  const seed = seedFrom(`${s.stream}|${s.rttMs}|${s.ran}|r${s.repeat}`);
  const n = s.receivers ?? 1;
  // Read before any process starts: the code origin, edge and receivers are started from.
  const code = sourceCommit(root) ?? {};
  // A user's source is read from here first (this namespace reaches it; the testbed's do not): is
  // it live, how long and how large are its segments.
  const probe = s.source ? await probeSource(s.source.url) : undefined;
  // A ladder: the players' buffer is sized for its top rendition's segments, as for that stream alone.
  const ladder = s.source ? undefined : parseLadderName(s.stream);
  const spec = probe
    ? { segmentSeconds: probe.segmentSeconds, segmentBytes: probe.segmentBytes }
    : ladder
      ? { segmentSeconds: ladder.segmentSeconds, segmentBytes: ladder.top.segmentBytes }
      : parseStreamName(s.stream);
  if (!spec) throw new Error(`unknown stream ${s.stream} (e.g. 15M-2s, or a ladder 15M+50M-2s)`);
  if (ladder && s.receiver === 'virtual') throw new Error(`${s.stream} is an ABR ladder: the virtual receiver has no ABR`);
  // Injected lateness: the same freezes for every scheme of a repeat (common random numbers).
  const lateness = s.injectLateness ? { ...s.injectLateness, stallMs: DEFAULT_STALL_MS, seed: (seed ^ 0x1b873593) >>> 0 } : undefined;
  const tb = await createTestbed({
    ran: ranSpec(s.ran, seed),
    backhaul: lossyBackhaul(backhaul(s.rttMs, s.backhaulMbps), s.backhaulLossPct, seed),
    cc: s.cc ?? 'bbr',
    tcpBufferBytes: s.tcpBufferBytes,
    ...(s.senderPriority !== undefined ? { senderPriority: s.senderPriority } : {}),
    ...(n > 1 ? { cell: { users: n, mode: s.cell ?? 'per-user' } } : {}),
    ...(lateness ? { lateness } : {}),
  });
  const procs: ReturnType<Testbed['spawn']>[] = [];
  const holdChanges: NonNullable<EdgeFigures['holdChanges']> = [];
  const segmentRequests: NonNullable<EdgeFigures['segmentRequests']> = [];
  let sampler: ReturnType<typeof sampleBackhaul> | undefined;
  let bridge: { close(): Promise<void>; dir: string } | undefined;
  try {
    const hold = holdArg(s.scheme, s.stream, s.rttMs);
    const edgeArgs = edgeHoldArgs(s.scheme, s.stream, s.rttMs, s.ll === true);
    // A ladder's origin serves its renditions, lowest first: the multivariant playlist lists them so.
    const originStreams = ladder ? ladder.renditions.map((r) => r.name).join(',') : s.stream;
    let originArgs = ['--host', '0.0.0.0', '--port', '8081', '--streams', originStreams];
    if (s.source) {
      // The relaying origin reaches the source over a Unix socket this process pipes to it.
      const u = new URL(s.source.url);
      const dir = mkdtempSync(join(tmpdir(), 'ethle-source-'));
      bridge = { ...(await startUnixBridge(join(dir, 'source.sock'), u.hostname, Number(u.port || 80))), dir };
      originArgs = [
        'relay',
        '--upstream',
        s.source.url,
        '--upstream-socket',
        join(dir, 'source.sock'),
        '--host',
        '0.0.0.0',
        '--port',
        '8081',
      ];
    }
    const origin = tb.spawn('origin', process.execPath, [ORIGIN_BIN, ...originArgs]);
    procs.push(origin);
    await waitForLine(origin, /listening/, 'origin');
    const originUrl = `http://${tb.hosts.origin.ip}:8081`;
    let base = originUrl;
    if (hold !== undefined) {
      const edge = tb.spawn('edge', process.execPath, [
        EDGE_BIN,
        'serve',
        '--origin',
        originUrl,
        '--host',
        '0.0.0.0',
        '--port',
        '8080',
        ...edgeArgs!,
        '--log-level',
        'debug',
      ]);
      procs.push(edge);
      // The edge logs every change of x and, at debug, every segment request (pino JSON lines):
      // kept with the run, so a stall can be traced to the edge (coalesced, miss) or the radio (hit).
      const edgeStarted = Date.now();
      // EXP_EDGE_LOG=1: the edge's whole debug log next to the run file (ID.edge.log), to trace
      // what the run's figures only summarise (why x changed, each planning decision's inputs).
      if (process.env.EXP_EDGE_LOG === '1' && outDir) {
        mkdirSync(outDir, { recursive: true });
        edge.stdout!.pipe(createWriteStream(join(outDir, `${scenarioId(s)}.edge.log`)));
      }
      let partial = '';
      edge.stdout!.on('data', (c: Buffer) => {
        const lines = (partial + c.toString()).split('\n');
        partial = lines.pop()!;
        for (const line of lines) {
          const atS = (Date.now() - edgeStarted) / 1000;
          if (line.includes('"segment request"')) {
            const e = JSON.parse(line) as { path: string; result: 'hit' | 'coalesced' | 'miss'; bytesAtEdge: number };
            segmentRequests.push({ atS, path: e.path, result: e.result, bytesAtEdge: e.bytesAtEdge });
          } else if (line.includes('"hold change"')) {
            // The stream too: on a ladder each HLS variant is a stream of its own, with its own x.
            const e = JSON.parse(line) as { stream: string; hold: number; backhaulMbps: number; reason: string };
            holdChanges.push({ atS, stream: e.stream, hold: e.hold, backhaulMbps: e.backhaulMbps, reason: e.reason });
          }
        }
      });
      // The CLI's banner, printed once the public port accepts (with --workers, once every worker
      // listens): the parent tier's own pino "listening" line comes first, and receivers started
      // on it met ECONNREFUSED.
      await waitForLine(edge, /^ethle-edge listening on /m, 'edge');
      base = `http://${tb.hosts.edge.ranIp}:8080`;
    }
    const src = s.source
      ? `${base}${new URL(s.source.url).pathname}${new URL(s.source.url).search}`
      : ladder
        ? `${base}${ladderManifestPath(ladder, s.player)}`
        : `${base}/live/${s.stream}/${s.player === 'dash' ? (s.ll ? 'll.mpd' : 'manifest.mpd') : s.ll ? 'll/index.m3u8' : 'index.m3u8'}`;
    const startedAt = new Date().toISOString();
    const buffer = playerBufferConfig(s.player, spec.segmentBytes, spec.segmentSeconds);
    // LL: the players' low-latency modes (as e2e/tests/origin-ll.spec.ts); dash.js detects LL from the MPD, catch-up on.
    const config = !s.ll
      ? buffer
      : s.player === 'hls'
        ? { ...buffer, lowLatencyMode: true }
        : { ...buffer, streaming: { ...((buffer as any).streaming ?? {}), liveCatchup: { enabled: true } } };
    const offsetsMs = joinOffsetsMs(s, spec.segmentSeconds);
    sampler = sampleBackhaul(tb, s.durationS + Math.ceil(Math.max(...offsetsMs) / 1000) + 120);
    const bytesBefore = (await tb.stats()).backhaul.down.bytes;
    const t0 = performance.now();
    const pressure = cpuPressureMeter();
    const stealSince = cpuStealMeter();
    let outcomes: VirtualOutcome[];
    // When Chromium's probe report was read (the page's clock): the end of a ladder run's playing time.
    let readAtMs: number | undefined;
    if (s.receiver === 'virtual') {
      const forward = forwardBufferSeconds(spec.segmentBytes, spec.segmentSeconds);
      outcomes = await playVirtualInTestbed(tb, {
        src,
        player: s.player,
        durationS: s.durationS,
        scheme: s.scheme,
        id: scenarioId(s),
        addresses: tb.hosts.client.ips,
        offsetsMs,
        // The same forward-buffer limit as Chromium's runs of the cell (its Media Source quota).
        ...(forward < HLS_DEFAULT_BUFFER_S ? { maxBufferLengthS: forward } : {}),
      });
    } else {
      const played = await playChromium(tb, chromium, { base, src, player: s.player, config, durationS: s.durationS });
      const report = played.report;
      readAtMs = played.readAtMs;
      outcomes = [
        {
          receiver: 0,
          run: {
            v: 1,
            id: scenarioId(s),
            startedAt,
            scenario: { stream: s.stream, player: s.player, scheme: s.scheme, durationS: s.durationS },
            report,
          },
        },
      ];
    }
    sampler.stop();
    const cpuPressure = pressure();
    const cpuSteal = stealSince();
    const box = { ...(cpuPressure !== undefined ? { cpuPressure } : {}), ...(cpuSteal !== undefined ? { cpuSteal } : {}) };
    const playedS = (performance.now() - t0) / 1000;
    const first = outcomes.find((o): o is Extract<VirtualOutcome, { run: RunResult }> => 'run' in o);
    if (!first) throw new Error(`no receiver played: ${outcomes.map((o) => ('error' in o ? o.error : '')).join('; ')}`);
    const report = first.run.report;

    const stats = JSON.parse(await fetchIn(tb, 'origin', `${originUrl}/stats`)) as {
      fetches: Record<string, number>;
      bytesSent: number;
      source?: RelayStatsJson['source'];
    };
    // Fetches, not requests: the edge may take a segment as parallel byte ranges (one fetch). A
    // source's segments are what its manifests listed, whatever their names.
    const listed = stats.source ? new Set(stats.source.segments.map((x) => x.path)) : undefined;
    const segs = Object.entries(stats.fetches).filter(([p]) => (listed ? listed.has(p) : /\d+\.(m4s|ts)$/.test(p)));
    const run: ExperimentRun = {
      v: 1,
      id: scenarioId(s),
      startedAt,
      ...code,
      scenario: {
        stream: s.stream,
        ...(s.ll ? { ll: true } : {}),
        player: s.player,
        scheme: s.scheme,
        ...(edgeArgs ? { edgeArgs } : {}),
        hold: 0,
        rttMs: s.rttMs,
        ran: s.ran,
        repeat: s.repeat,
        durationS: s.durationS,
        ...(s.cc && s.cc !== 'bbr' ? { cc: s.cc } : {}),
        ...(s.tcpBufferBytes ? { tcpBufferBytes: s.tcpBufferBytes } : {}),
        ...(Object.keys(config).length ? { playerConfig: config } : {}),
        receiver: s.receiver ?? 'chromium',
        receivers: n,
        ...(n > 1 ? { cell: s.cell ?? 'per-user', join: s.join ?? 'sync' } : {}),
        ...(s.backhaulMbps ? { backhaulMbps: s.backhaulMbps } : {}),
        ...(s.backhaulLossPct ? { backhaulLossPct: s.backhaulLossPct } : {}),
        ...(lateness
          ? {
              injectLateness: {
                p99Ms: lateness.p99Ms,
                stallsPerMinute: lateness.stallsPerMinute,
                stallMs: lateness.stallMs,
                ...(lateness.link ? { link: lateness.link } : {}),
              },
            }
          : {}),
        ...(s.source ? { source: s.source.url } : {}),
        // Always recorded: runs before it existed had their senders at 50.
        senderPriority: s.senderPriority ?? DEFAULT_SENDER_PRIORITY,
      },
      report,
      ...(Object.keys(box).length > 0 ? { box } : {}),
      edge: { originRequestsPerSegment: segs.length ? segs.reduce((a, [, k]) => a + k, 0) / segs.length : undefined },
      ...(s.source && stats.source && probe ? { source: sourceFigures(s.source.url, probe, stats.source) } : {}),
    };
    if (ladder && readAtMs !== undefined) {
      // What crossed the backhaul per rendition: the origin's segment fetches by stream directory.
      const originFetches: Record<string, number> = Object.fromEntries(ladder.renditions.map((r) => [r.name, 0]));
      for (const [path, k] of segs) {
        const r = renditionOfPath(ladder, path);
        if (r !== undefined) originFetches[r] = (originFetches[r] ?? 0) + k;
      }
      run.abr = {
        ...abrFigures({
          switches: (report as typeof report & { switches?: RenditionSwitch[] }).switches ?? [],
          stalls: report.stalls.list,
          track: abrTrack(s.player),
          topBps: ladder.top.bitrateMbps * 1e6,
          endMs: readAtMs,
        }),
        originFetches,
      };
    }
    let redirects: number | undefined;
    if (hold !== undefined) {
      const m = await fetchIn(tb, 'edge', 'http://127.0.0.1:8080/metrics');
      const x = metric(m, 'ethle_hold_segments', { group: 'hold-x' }) ?? metric(m, 'ethle_hold_segments');
      run.edge = {
        ...run.edge,
        x,
        modelBackhaulMbps: metric(m, 'ethle_backhaul_throughput_mbps', { source: 'model' }),
        lastBackhaulMbps: metric(m, 'ethle_backhaul_throughput_mbps', { source: 'measured' }),
      };
      // Mean over every single-flow segment fetch of the run (histogram sum / count), and over the
      // ones made in steady state (flows="steady"), which the edge's online model check uses.
      const k = metricSum(m, 'ethle_backhaul_segment_mbps_count');
      if (k > 0) {
        run.edge.measuredBackhaulMbps = metricSum(m, 'ethle_backhaul_segment_mbps_sum') / k;
        run.edge.measuredBackhaulFetches = k;
      }
      const steady = metricSum(m, 'ethle_backhaul_segment_mbps_count', { flows: 'steady' });
      if (steady > 0) {
        run.edge.steadyBackhaulMbps = metricSum(m, 'ethle_backhaul_segment_mbps_sum', { flows: 'steady' }) / steady;
        run.edge.steadyBackhaulFetches = steady;
      }
      run.edge.holdChanges = holdChanges;
      run.edge.segmentRequests = segmentRequests;
      // Receivers the edge sent to the origin (eq. 3: their radio measured slower than the
      // bitrate): with many receivers, each one is another flow over the backhaul.
      redirects = metricSum(m, 'ethle_redirects_total');
    }
    const linkStats = await tb.stats();
    // Stop the servers so the links fall quiet: then what entered each link direction balances
    // exactly against what arrived, what the model dropped and what the testbed itself lost.
    await stopProcesses(procs);
    const account = await tb.account({ settle: true });
    const record = (d: DirectionStats, a: DirectionAccount): LinkDirectionRecord => ({
      packets: d.packets,
      bytes: d.bytes,
      drops: d.drops,
      lossDrops: d.lossDrops,
      maxQueueBytes: d.maxQueueBytes,
      ...(d.userBytes ? { userBytes: d.userBytes } : {}),
      ...a,
    });
    const linkRecord = (name: 'ran' | 'backhaul') => ({
      up: record(linkStats[name].up, account.links[name].up),
      down: record(linkStats[name].down, account.links[name].down),
      ring: account.links[name].ring,
      ...(account.links[name].injected ? { injected: account.links[name].injected } : {}),
      ...(account.links[name].threads ? { threads: account.links[name].threads } : {}),
    });
    run.links = { ran: linkRecord('ran'), backhaul: linkRecord('backhaul') };
    run.tcp = account.tcp;
    // The steal goes with the verdict: a late run on a stealing host measured the host.
    const verdict = judgeRun(account.links, {
      ...(s.lateBarMs !== undefined ? { lateP99BarMs: s.lateBarMs } : {}),
      ...(cpuSteal !== undefined ? { note: `CPU steal ${(cpuSteal * 100).toFixed(1)} %` } : {}),
    });
    run.validity = {
      lateP99BarMs: verdict.lateP99BarMs,
      failed: verdict.failed,
      problems: verdict.problems,
      settled: account.settled,
      buffers: account.buffers,
    };
    if (verdict.failed.length > 0) run.invalid = verdict.problems.join('; ');
    // The whole segments held: a fixed hold's own gauge (X-Ethle-Hold-Seconds also counts an LL-HLS
    // player's fallback to HOLD-BACK when held in whole segments), else the declared seconds in
    // segments (auto: the receiver's last; parts-N: how long its parts are).
    const gaugeX = s.scheme.startsWith('hold-') ? run.edge?.x : undefined;
    run.scenario.hold = typeof gaugeX === 'number' ? gaugeX : Math.round(report.holdSeconds / spec.segmentSeconds);
    const figures = scaleFigures({
      outcomes,
      addresses: tb.hosts.client.ips,
      offsetsMs,
      originFetches: Object.fromEntries(segs),
      originBytes: stats.bytesSent,
      segmentBytes: spec.segmentBytes,
      backhaulBytes: [bytesBefore, ...sampler.samples],
      backhaulBytesTotal: linkStats.backhaul.down.bytes - bytesBefore,
      playedS,
      backhaulCapMbps: s.backhaulMbps,
    });
    run.receivers = figures.receivers;
    run.scale = { ...figures.scale, ...(redirects !== undefined ? { edgeRedirects: redirects } : {}) };
    if (outDir) {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, `${run.id}.json`), `${JSON.stringify(run)}\n`);
    }
    return run;
  } finally {
    sampler?.stop();
    for (const p of procs) p.kill('SIGTERM');
    await tb.close();
    if (bridge) {
      await bridge.close();
      rmSync(bridge.dir, { recursive: true, force: true });
    }
  }
}
