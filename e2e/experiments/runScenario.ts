import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserType } from '@playwright/test';
import { backhaul, createTestbed, lteA, parseMahimahiTrace, relayTimingProblems, seedFrom, symmetric, type DirectionStats, type LatenessSummary, type LinkSpec, type Testbed } from '@ethle/netlab';
import type { EdgeFigures, RunResult } from '@ethle/player-demo';
import { parseStreamName } from '@ethle/live-origin';
import { openPlayer } from '../fixtures/playerPage.js';
import { playerBufferConfig } from './playerBuffer.js';
import { scenarioId, type Scenario } from './Scenario.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ORIGIN_BIN = join(root, 'packages/live-origin/bin/ethle-origin.js');
const EDGE_BIN = join(root, 'packages/edge-node/bin/ethle-edge.js');
function ranSpec(ran: string, seed: number): LinkSpec {
  if (ran === 'lte-a') return lteA({ seed });
  if (ran === 'none') return symmetric({ delayMs: 0.5 });
  if (ran.startsWith('trace:')) {
    const traceMs = parseMahimahiTrace(readFileSync(ran.slice(6), 'utf8'));
    return { down: { delayMs: 20, traceMs }, up: { delayMs: 20, rateMbps: 50 } };
  }
  throw new Error(`unknown RAN profile ${ran} (lte-a, none, trace:FILE)`);
}

async function waitForLine(p: ReturnType<Testbed['spawn']>, re: RegExp, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${out}`)), 20_000);
    const on = (c: Buffer) => {
      out += c.toString();
      if (re.test(out)) {
        clearTimeout(timer);
        p.stdout!.off('data', on);
        resolve();
      }
    };
    p.stdout!.on('data', on);
    p.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    p.once('exit', (c) => reject(new Error(`${what} exited with ${c}: ${out}`)));
  });
}

/** Fetches a URL from inside a host's namespace (the harness has no route into the namespaces). */
async function fetchIn(tb: Testbed, host: 'edge' | 'origin' | 'client', url: string): Promise<string> {
  return tb.exec(host, process.execPath, ['-e', `fetch(${JSON.stringify(url)}).then(r=>r.text()).then(t=>process.stdout.write(t))`]);
}

/** Sum of every series of `name` (not its _bucket etc.) whose labels include `labels`. */
function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const rest = line.startsWith(name) ? line.slice(name.length) : '';
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    if (Object.entries(labels).every(([k, v]) => rest.includes(`${k}="${v}"`))) sum += Number(line.split(' ').at(-1));
  }
  return sum;
}

function metric(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    const v = Number(line.split(' ').at(-1));
    if (Number.isFinite(v)) return v;
  }
  return undefined;
}

/**
 * A run as the experiments write it: the dashboard's RunResult plus each relay direction's own
 * departure lateness, and `invalid` — why the run measured the box rather than the network (a
 * relay sent more than 1 % of its datagrams ≥ 1 ms late; docs/netlab.md).
 */
export type ExperimentRun = RunResult & {
  links?: Record<'ran' | 'backhaul', Record<'up' | 'down', { lateness: LatenessSummary }>>;
  invalid?: string;
};

/**
 * Runs one scenario on real kernel TCP: origin, edge and Chromium (hls.js or dash.js with the
 * QoE probe) in their namespaces, for `durationS`, and returns the run in the results format.
 */
export async function runScenario(s: Scenario, chromium: BrowserType, outDir?: string): Promise<ExperimentRun> {
  // Common random numbers: every scheme of one cell × repeat sees the same radio delay walk, so
  // their difference is the scheme's, not the draw's (repeats still draw anew).
  const seed = seedFrom(`${s.stream}|${s.rttMs}|${s.ran}|r${s.repeat}`);
  const tb = await createTestbed({ ran: ranSpec(s.ran, seed), backhaul: backhaul(s.rttMs), cc: s.cc ?? 'bbr', tcpBufferBytes: s.tcpBufferBytes });
  let browser: Browser | undefined;
  const procs: ReturnType<Testbed['spawn']>[] = [];
  const holdChanges: NonNullable<EdgeFigures['holdChanges']> = [];
  const segmentRequests: NonNullable<EdgeFigures['segmentRequests']> = [];
  try {
    const origin = tb.spawn('origin', process.execPath, [ORIGIN_BIN, '--host', '0.0.0.0', '--port', '8081', '--streams', s.stream]);
    procs.push(origin);
    await waitForLine(origin, /listening/, 'origin');
    const originUrl = `http://${tb.hosts.origin.ip}:8081`;
    let base = originUrl;
    if (s.scheme !== 'e2e') {
      const holdArgs = s.scheme === 'auto' ? ['--hold', 'auto'] : s.scheme.startsWith('parts-') ? ['--hold', '0', '--hold-parts', s.scheme.slice('parts-'.length)] : ['--hold', s.scheme.slice('hold-'.length)];
      const edge = tb.spawn('edge', process.execPath, [EDGE_BIN, 'serve', '--origin', originUrl, '--host', '0.0.0.0', '--port', '8080', ...holdArgs, '--log-level', 'debug']);
      procs.push(edge);
      // The edge logs every change of x and, at debug, every segment request (pino JSON lines):
      // kept with the run, so a stall can be traced to the edge (coalesced, miss) or the radio (hit).
      const edgeStarted = Date.now();
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
            const e = JSON.parse(line) as { hold: number; backhaulMbps: number; reason: string };
            holdChanges.push({ atS, hold: e.hold, backhaulMbps: e.backhaulMbps, reason: e.reason });
          }
        }
      });
      await waitForLine(edge, /listen/i, 'edge');
      base = `http://${tb.hosts.edge.ranIp}:8080`;
    }
    const src = `${base}/live/${s.stream}/${s.player === 'dash' ? (s.ll ? 'll.mpd' : 'manifest.mpd') : s.ll ? 'll/index.m3u8' : 'index.m3u8'}`;
    browser = await chromium.launch({
      executablePath: tb.chromiumWrapper(),
      // The page is served by Playwright's route and the hosts have private (10.x) addresses:
      // Chromium's private/local network access checks would block the player's requests.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--autoplay-policy=no-user-gesture-required',
        '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults',
      ],
    });
    const page = await browser.newPage();
    const pageLog: string[] = [];
    page.on('console', (m) => pageLog.push(`${m.type()}: ${m.text()}`.slice(0, 300)));
    page.on('pageerror', (e) => pageLog.push(`pageerror: ${e.message}`.slice(0, 300)));
    const startedAt = new Date().toISOString();
    const spec = parseStreamName(s.stream);
    if (!spec) throw new Error(`unknown stream ${s.stream} (e.g. 15M-2s)`);
    const buffer = playerBufferConfig(s.player, spec.segmentBytes, spec.segmentSeconds);
    // LL: the players' low-latency modes (as e2e/tests/origin-ll.spec.ts); dash.js detects LL from the MPD, catch-up on.
    const config = !s.ll ? buffer : s.player === 'hls' ? { ...buffer, lowLatencyMode: true } : { ...buffer, streaming: { ...((buffer as any).streaming ?? {}), liveCatchup: { enabled: true } } };
    await openPlayer(page, { base, src, player: s.player, probe: true, config });
    // The measured period itself (paper: 5 minutes from the first request).
    await page.waitForTimeout(s.durationS * 1000);
    const report = await page.evaluate(() => (window as any).probe.report());
    if (process.env.EXP_DEBUG) console.log(pageLog.slice(-30).join('\n'), await page.evaluate(() => (window as any).video?.currentTime));

    const stats = JSON.parse(await fetchIn(tb, 'origin', `${originUrl}/stats`)) as { fetches: Record<string, number> };
    // Fetches, not requests: the edge may take a segment as parallel byte ranges (one fetch).
    const segs = Object.entries(stats.fetches).filter(([p]) => /\d+\.(m4s|ts)$/.test(p));
    const run: ExperimentRun = {
      v: 1,
      id: scenarioId(s),
      startedAt,
      scenario: { stream: s.stream, ...(s.ll ? { ll: true } : {}), player: s.player, scheme: s.scheme, hold: 0, rttMs: s.rttMs, ran: s.ran, repeat: s.repeat, durationS: s.durationS, ...(s.cc && s.cc !== 'bbr' ? { cc: s.cc } : {}), ...(s.tcpBufferBytes ? { tcpBufferBytes: s.tcpBufferBytes } : {}), ...(Object.keys(config).length ? { playerConfig: config } : {}) },
      report,
      edge: { originRequestsPerSegment: segs.length ? segs.reduce((a, [, n]) => a + n, 0) / segs.length : undefined },
    };
    if (s.scheme !== 'e2e') {
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
      const n = metricSum(m, 'ethle_backhaul_segment_mbps_count');
      if (n > 0) {
        run.edge.measuredBackhaulMbps = metricSum(m, 'ethle_backhaul_segment_mbps_sum') / n;
        run.edge.measuredBackhaulFetches = n;
      }
      const steady = metricSum(m, 'ethle_backhaul_segment_mbps_count', { flows: 'steady' });
      if (steady > 0) {
        run.edge.steadyBackhaulMbps = metricSum(m, 'ethle_backhaul_segment_mbps_sum', { flows: 'steady' }) / steady;
        run.edge.steadyBackhaulFetches = steady;
      }
      run.edge.holdChanges = holdChanges;
      run.edge.segmentRequests = segmentRequests;
    }
    // Queue drops on a link say whether the radio's rate cap or the relay, not TCP, limited a run;
    // the relays' departure lateness whether the links kept their timing while the box was busy.
    const linkStats = await tb.stats();
    const counters = (d: DirectionStats) => ({ packets: d.packets, bytes: d.bytes, drops: d.drops, lossDrops: d.lossDrops, lateness: d.lateness });
    run.links = {
      ran: { up: counters(linkStats.ran.up), down: counters(linkStats.ran.down) },
      backhaul: { up: counters(linkStats.backhaul.up), down: counters(linkStats.backhaul.down) },
    };
    const late = relayTimingProblems(linkStats);
    if (late.length > 0) run.invalid = `relay late: ${late.join('; ')}`;
    run.scenario.hold = Math.round(report.holdSeconds / Number(/-(\d+)s$/.exec(s.stream)?.[1] ?? 2));
    if (outDir) {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, `${run.id}.json`), `${JSON.stringify(run)}\n`);
    }
    return run;
  } finally {
    await browser?.close().catch(() => undefined);
    for (const p of procs) p.kill('SIGTERM');
    await tb.close();
  }
}
