// Do segments the edge already holds cross the emulated radio as fast as a fresh flow? (issue 16, item 1.)
// A server in the edge namespace serves N-byte objects; a client in the client namespace fetches
// several one after another over ONE keep-alive connection with a pause between them — as a player
// fetches segments — and `ss -ti` on the edge side is sampled every 50 ms for that connection
// (cwnd, rtt, delivery rate, and the kernel's busy / rwnd-limited / sndbuf-limited time), plus the
// client side's receive buffer, then the links' packet account. What it is for and what it has not
// yet measured with the account: docs/netlab.md ("Held segments over the radio").
// Run as root: npx tsx packages/netlab/scripts/heldSegments.ts [--client node|chromium]
//   [--ran lte-a|walk|const] [--idle-restart on|off] [--segments 6] [--gap-ms 2000] [--bytes 24400000] [--load] [--cc bbr|cubic]
//   [--pattern 25,25,0,0] (Mbit/s per object, 0 = full speed; repeats)
import { execFile } from 'node:child_process';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { availableParallelism } from 'node:os';
import { accountSummary, backhaul, createTestbed, lteA, lteAWalk, startCpuHogs, type LinkSpec } from '../src/index.js';
import { startBulkServer } from '../src/validate/measure.js';

const pexec = promisify(execFile);
const { values: a } = parseArgs({
  options: {
    client: { type: 'string', default: 'node' },
    ran: { type: 'string', default: 'lte-a' },
    'idle-restart': { type: 'string', default: 'on' },
    segments: { type: 'string', default: '6' },
    'gap-ms': { type: 'string', default: '2000' },
    bytes: { type: 'string', default: '24400000' },
    seed: { type: 'string', default: '16' },
    // --ran lte-a only: the other users' cell load (default the profile's 50 %).
    'cell-load': { type: 'string' },
    load: { type: 'boolean', default: false },
    cc: { type: 'string', default: 'bbr' },
    // e.g. "25,25,0,0,0": per object, the rate the server sends it at (Mbit/s; 0 = as fast as TCP
    // goes) — objects an edge relays while they arrive over the backhaul, then held ones. Repeats.
    pattern: { type: 'string', default: '0' },
  },
});
const bytes = Number(a.bytes);
const n = Number(a.segments);
const gapMs = Number(a['gap-ms']);
const seed = Number(a.seed);
const pattern = a.pattern.split(',').map(Number);
const path = (i: number) => (pattern[i % pattern.length]! > 0 ? `/paced/${bytes}/${pattern[i % pattern.length]}` : `/bytes/${bytes}`);
const paths = Array.from({ length: n }, (_, i) => path(i));
// The LTE-A cell model, the earlier delay walk, or the walk's 112 Mbit/s cap with a constant 50 ms
// one way (100 ms RTT, the walk's mean).
const ranSpecs: Record<string, () => LinkSpec> = {
  'lte-a': () => lteA({ seed, ...(a['cell-load'] ? { load: Number(a['cell-load']) } : {}) }),
  walk: () => lteAWalk({ seed }),
  const: () => ({ down: { delayMs: 50, rateMbps: 112 }, up: { delayMs: 50, rateMbps: 50 } }),
};
if (!ranSpecs[a.ran]) throw new Error(`--ran must be one of ${Object.keys(ranSpecs).join(', ')}`);
const ran: LinkSpec = ranSpecs[a.ran]!();

/** The fields of one `ss -tin` entry we use (cumulative ones in ms since the connection started). */
interface SsSample {
  t: number;
  cwnd: number;
  rttMs: number;
  deliveryMbps: number;
  appLimited: boolean;
  busyMs: number;
  rwndLimitedMs: number;
  sndbufLimitedMs: number;
  bytesAcked: number;
  sndWnd: number;
  /** BBR's bandwidth estimate, Mbit/s (NaN for other congestion controls). */
  bbrBwMbps: number;
  minRttMs: number;
}

/** The busiest connection's entry (Chromium keeps others open: the page's, the favicon's). */
function parseSs(all: string, t: number): SsSample | undefined {
  const entries = all
    .split(/\n(?=\S)/)
    .map((e) => parseOne(e, t))
    .filter((x): x is SsSample => x !== undefined);
  return entries.sort((x, y) => y.bytesAcked - x.bytesAcked)[0];
}

function parseOne(text: string, t: number): SsSample | undefined {
  const num = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
  if (!/cwnd:/.test(text)) return undefined;
  const rate = /delivery_rate (\d+(?:\.\d+)?)([KMG]?)bps/.exec(text);
  const mult = rate ? { '': 1, K: 1e3, M: 1e6, G: 1e9 }[rate[2] as '' | 'K' | 'M' | 'G'] : 0;
  return {
    t,
    cwnd: num(/cwnd:(\d+)/),
    rttMs: num(/ rtt:([\d.]+)\//),
    deliveryMbps: rate ? (Number(rate[1]) * mult) / 1e6 : 0,
    appLimited: /app_limited/.test(text),
    busyMs: num(/busy:(\d+)ms/) || 0,
    rwndLimitedMs: num(/rwnd_limited:(\d+)ms/) || 0,
    sndbufLimitedMs: num(/sndbuf_limited:(\d+)ms/) || 0,
    bytesAcked: num(/bytes_acked:(\d+)/) || 0,
    sndWnd: num(/snd_wnd:(\d+)/) || 0,
    bbrBwMbps: ((b) => (b ? (Number(b[1]) * { '': 1, K: 1e3, M: 1e6, G: 1e9 }[b[2] as '' | 'K' | 'M' | 'G']) / 1e6 : NaN))(
      /bbr:\(bw:([\d.]+)([KMG]?)bps/.exec(text),
    ),
    minRttMs: num(/minrtt:([\d.]+)/),
  };
}

const tb = await createTestbed({ ran, backhaul: backhaul(224), cc: a.cc as 'bbr' | 'cubic' | 'reno' });
// --load: a CPU hog per core at normal priority, as Chromium decoding 4K would keep them.
const stopHogs = a.load ? startCpuHogs(availableParallelism()) : () => {};
const rows: string[] = [];
try {
  await tb.exec('edge', 'sysctl', ['-q', '-w', `net.ipv4.tcp_slow_start_after_idle=${a['idle-restart'] === 'off' ? 0 : 1}`]);
  const stop = await startBulkServer(tb, 'edge');
  const samples: SsSample[] = [];
  let clientMem = '';
  let sampling = true;
  const t0 = performance.now();
  const sampler = (async () => {
    while (sampling) {
      const out = await pexec('ip', [
        'netns',
        'exec',
        tb.hosts.edge.ns,
        'ss',
        '-tinH',
        'state',
        'established',
        'dst',
        tb.hosts.client.ip,
      ]).then(
        (r) => r.stdout,
        () => '',
      );
      const s = parseSs(out, performance.now() - t0);
      if (s) samples.push(s);
      const c = await pexec('ip', [
        'netns',
        'exec',
        tb.hosts.client.ns,
        'ss',
        '-tinmH',
        'state',
        'established',
        'dst',
        tb.hosts.edge.ranIp,
      ]).then(
        (r) => r.stdout,
        () => '',
      );
      if (/skmem/.test(c))
        clientMem = `${/skmem:\([^)]*\)/.exec(c)?.[0]} ${/rcv_space:\d+/.exec(c)?.[0] ?? ''} ${/rcv_ssthresh:\d+/.exec(c)?.[0] ?? ''}`;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  // Per segment: [start, end] in ms since t0 (client clock = this process's clock, same machine).
  let spans: [number, number][] = [];
  const url = `http://${tb.hosts.edge.ranIp}:9000`;
  if (a.client === 'chromium') {
    const browser = await chromium.launch({
      executablePath: tb.chromiumWrapper(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage();
      page.on('crash', () => console.error('page crashed'));
      await page.goto(`${url}/page`);
      const offset = performance.now() - t0 - (await page.evaluate(() => performance.now()));
      const rel = await page.evaluate(
        async ({ paths, gapMs }) => {
          const out: [number, number][] = [];
          for (const p of paths) {
            const s = performance.now();
            const r = await fetch(p); // no validators in the response: never cached
            const reader = r.body!.getReader(); // read and drop, as MSE appends and frees
            while (!(await reader.read()).done);
            out.push([s, performance.now()]);
            await new Promise((res) => setTimeout(res, gapMs));
          }
          return out;
        },
        { paths, gapMs },
      );
      spans = rel.map(([s, e]) => [s + offset, e + offset]);
    } finally {
      await browser.close();
    }
  } else {
    const script = `const t0=performance.now();const out=[];const paths=${JSON.stringify(paths)};(async()=>{for(const p of paths){const s=performance.now();const r=await fetch('${url}'+p);await r.arrayBuffer();out.push([s-t0,performance.now()-t0]);await new Promise(r=>setTimeout(r,${gapMs}))}console.log(JSON.stringify(out))})()`;
    const started = performance.now() - t0;
    spans = (JSON.parse(await tb.exec('client', process.execPath, ['-e', script])) as [number, number][]).map(([s, e]) => [
      s + started,
      e + started,
    ]);
  }
  sampling = false;
  await sampler;
  stop();
  const ideal = ((bytes * 8) / (112e6 * (1448 / 1500))) * 1000;
  for (const [i, [s, e]] of spans.entries()) {
    const inSeg = samples.filter((x) => x.t >= s && x.t <= e);
    const before = samples.filter((x) => x.t < s).at(-1);
    const last = inSeg.at(-1);
    const d = (k: 'busyMs' | 'rwndLimitedMs' | 'sndbufLimitedMs') => (last && before ? last[k] - before[k] : NaN);
    const pct = (x: number) => (Number.isFinite(x) && d('busyMs') > 0 ? `${((x / d('busyMs')) * 100).toFixed(0)} %` : '–');
    const mbps = (bytes * 8) / (e - s) / 1e3;
    rows.push(
      `| ${i + 1}${paths[i]!.startsWith('/paced') ? ` (paced ${pattern[i % pattern.length]} Mbit/s)` : ''} | ${(e - s).toFixed(0)} ms (${((e - s) / ideal).toFixed(1)}× ideal) | ${mbps.toFixed(1)} | ${inSeg.length ? Math.max(...inSeg.map((x) => x.cwnd)) : '–'} | ${inSeg.length ? (inSeg.reduce((a, x) => a + x.rttMs, 0) / inSeg.length).toFixed(0) : '–'} | ${inSeg.length ? Math.max(...inSeg.map((x) => x.deliveryMbps)).toFixed(0) : '–'} | ${inSeg.length ? `${inSeg[0]!.bbrBwMbps.toFixed(0)} → ${inSeg.at(-1)!.bbrBwMbps.toFixed(0)}` : '–'} | ${inSeg.length ? (inSeg.reduce((a, x) => a + x.rttMs / x.minRttMs, 0) / inSeg.length).toFixed(1) : '–'} | ${pct(d('rwndLimitedMs'))} | ${pct(d('sndbufLimitedMs'))} | ${inSeg.length ? Math.min(...inSeg.map((x) => x.sndWnd)) : '–'} |`,
    );
  }
  const st = await tb.stats();
  console.log(
    `${a.cc}, client ${a.client}${a.load ? ', CPU hog per core' : ''}, ran ${a.ran}${a.ran === 'const' ? '' : ` (seed ${seed}${a['cell-load'] ? `, cell load ${a['cell-load']}` : ''})`}, tcp_slow_start_after_idle ${a['idle-restart']}, ${n} × ${bytes} B, ${gapMs} ms apart, one keep-alive connection; ideal ${ideal.toFixed(0)} ms at 112 Mbit/s wire`,
  );
  console.log(
    '| segment | time | Mbit/s | max cwnd (pkts) | mean srtt (ms) | max delivery rate (Mbit/s) | BBR bw, first → last (Mbit/s) | srtt / min_rtt | rwnd-limited | sndbuf-limited | min snd_wnd (B) |\n|---|---|---|---|---|---|---|---|---|---|---|',
  );
  console.log(rows.join('\n'));
  console.log(`client socket at the end: ${clientMem}`);
  const d = st.ran.down;
  const offered = d.servedTtis
    ? ` the cell offered us ${((d.offeredBytes! * 8) / (d.servedTtis * 1e3)).toFixed(1)} Mbit/s on average in the ${(d.servedTtis / 1e3).toFixed(1)} s we had data and we used ${((d.bytes / d.offeredBytes!) * 100).toFixed(0)} % of it; ${d.harqRetransmissions} HARQ retransmissions;`
    : '';
  console.log(
    `ran down: ${d.packets} packets, ${d.drops} queue drops${d.discardDrops ? ` (${d.discardDrops} by the discard timer)` : ''};${offered} lateness p99 ${d.lateness.p99Ms.toFixed(2)} ms`,
  );
  console.log(accountSummary(await tb.account({ settle: true })));
} finally {
  stopHogs();
  await tb.close();
}
