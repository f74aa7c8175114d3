#!/usr/bin/env node
// `npm run experiment -- [options] [-- playwright options]`: the QoE experiment matrix on real TCP
// (packages/netlab) — backhaul RTT × stream × RAN profile × scheme × repeats. Needs root.
//   --rtt 137,224,302,334   --stream 15M-2s,50M-4s   --ran lte-a|lte-a-walk|none|trace:FILE
//     (trace:X.down: a mahimahi trace down, X.up up when it exists; each repeat at a seeded offset)
//   --scheme e2e,hold-0,hold-2,auto   --repeats 3 (or 4-5: only those, to add to earlier runs)
//   --duration 120 (s)   --player hls|dash
//   --stream 15M+50M-2s (an ABR ladder: the origin's 15M-2s and 50M-2s as one multivariant playlist /
//     MPD, played with hls.js's or dash.js's default ABR; Chromium only — the virtual receiver has no ABR;
//     each run records the share of playing time at the top rendition and the switches)
//   --cc bbr|cubic|reno   --tcp-buffers 64M (hosts' max TCP buffer; default Linux's, 4 MB send)
//   --scheme … hold-paper (Table III's x for each cell)
//   --receiver chromium|virtual (default chromium; virtual: packages/virtual-player in the client namespace)
//   --receivers 1,4,16 (receivers in one cell; > 1 needs --receiver virtual)   --cell per-user|shared (shared needs --ran lte-a-walk)
//   --join sync|spread (all within 2 s, or evenly over one segment)   --backhaul-mbps 300 (backhaul cap)
//   --backhaul-loss 0.5 (random loss on the backhaul, % each way)   --ran lte-a-loss[:P] (the cell, P % loss; 0.5)
//   EXP_EDGE_LOG=1 (environment): keep each run's edge debug log as ID.edge.log in --out
//   EXP_VPLAYER_APPEND_MS=0 (environment): the virtual receivers' append gap, ms (their default: 25)
//   --scheme … parts-2 with --ll   --ll (the low-latency renditions, players in LL mode; auto decides in parts)
//   --scheme … auto-w4 (the edge as a parent tier + 4 worker edges: serve --workers 4)
//   --scheme … auto-measured (auto whose x may go below the model's on measured rates: --hold-floor measured)
//   --scheme … auto-warm (auto whose model takes the origin to keep its window across idle: --segment-start warm)
//   --scheme … auto-learn (auto that learns the origin's idle behaviour from its own fetches: --segment-start learn)
//   --scheme … auto-slow-start (auto pinned to slow start, --segment-start slow-start: what the BBR
//     matrix's auto rows ran; plain auto is the edge as shipped, --hold auto and its defaults)
//   --late-bar 1 (ms: a run whose relay direction had p99 departure lateness at or above it is invalid;
//     default netlab's LATE_P99_LIMIT_MS; recorded in each run; docs/netlab.md, "The lateness bar")
//   --inject-lateness off,0,1,2,5 (levels of extra departure lateness put into the relays on purpose,
//     seeded per repeat: a p99 target in ms, 0 for stalls only, off for none)   --inject-stalls 3 (VM-like
//     stalls of 5–10 ms per minute on top of every level but off)   --inject-link ran,backhaul (which
//     links' relays take it: both (default), ran, backhaul, or a list — each a level of its own)
//   --sender-priority 50 (SCHED_FIFO priority of the relays' sending threads; default 60, above the
//     path's other threads at 50; another value is in the run id as -sp50)
//   --source URL (your own live HLS/DASH source, http://, e.g. a packager or ffmpeg on this machine:
//     a relaying origin in the origin namespace serves it with a production origin's keep-alive, so
//     E2E and the edge meet the backhaul as with the testbed's origin; --stream is then ignored,
//     the player follows the manifest (.mpd: dash) unless --player says, hold-paper is refused;
//     each run records the source's segment sizes and durations)   --source-name NAME (runs' name; default src-FILE)
//   --out results/          --shard 1/4 (Playwright sharding across machines)
//   --parallel K (virtual receivers only: K testbeds at once on this machine; each run records the
//     box's CPU pressure, so whether they disturbed each other is in the results — docs/experiments/method.md)
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const options = {
  rtt: { type: 'string', default: '224' },
  stream: { type: 'string', default: '15M-2s' },
  ran: { type: 'string', default: 'lte-a' },
  scheme: { type: 'string', default: 'e2e,hold-0,auto' },
  repeats: { type: 'string', default: '1' },
  duration: { type: 'string', default: '60' },
  player: { type: 'string', default: '' },
  cc: { type: 'string', default: 'bbr' },
  'tcp-buffers': { type: 'string', default: '' },
  receiver: { type: 'string', default: 'chromium' },
  receivers: { type: 'string', default: '1' },
  cell: { type: 'string', default: 'per-user' },
  join: { type: 'string', default: 'sync' },
  'backhaul-mbps': { type: 'string', default: '' },
  'backhaul-loss': { type: 'string', default: '' },
  'late-bar': { type: 'string', default: '' },
  'inject-lateness': { type: 'string', default: '' },
  'inject-stalls': { type: 'string', default: '' },
  'inject-link': { type: 'string', default: '' },
  'sender-priority': { type: 'string', default: '' },
  source: { type: 'string', default: '' },
  'source-name': { type: 'string', default: '' },
  out: { type: 'string', default: 'results' },
  ll: { type: 'boolean', default: false },
  shard: { type: 'string' },
  parallel: { type: 'string', default: '1' },
  help: { type: 'boolean', short: 'h', default: false },
};
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options });
} catch (e) {
  console.error(`experiment: ${e.message.split('. ')[0]} (npm run experiment -- --help lists the options)`);
  process.exit(2);
}
const { values: a, positionals } = parsed;
if (a.help) {
  // The usage is this file's header comment, so the two cannot drift apart.
  const { readFileSync } = await import('node:fs');
  const head = readFileSync(new URL(import.meta.url), 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.startsWith('//'));
  console.log(head.map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
if (process.getuid?.() !== 0) {
  console.error('experiment: needs root (network namespaces); run as root or with sudo');
  process.exit(2);
}
const parallel = Number(a.parallel);
if (!(Number.isInteger(parallel) && parallel >= 1 && parallel <= 8)) {
  console.error(`experiment: --parallel must be an integer 1–8, got ${a.parallel}`);
  process.exit(2);
}
if (parallel > 1 && a.receiver !== 'virtual') {
  // Chromium decoding 4K-sized segments takes most of a core: two at once measure the box.
  console.error('experiment: --parallel > 1 needs --receiver virtual (Chromium runs one at a time)');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const env = {
  ...process.env,
  EXP_RTT: a.rtt,
  EXP_STREAM: a.stream,
  EXP_RAN: a.ran,
  EXP_SCHEME: a.scheme,
  EXP_REPEATS: a.repeats,
  EXP_DURATION: a.duration,
  EXP_PLAYER: a.player,
  EXP_CC: a.cc,
  EXP_TCP_BUFFERS: a['tcp-buffers'],
  EXP_RECEIVER: a.receiver,
  EXP_RECEIVERS: a.receivers,
  EXP_CELL: a.cell,
  EXP_JOIN: a.join,
  EXP_BACKHAUL_MBPS: a['backhaul-mbps'],
  EXP_BACKHAUL_LOSS: a['backhaul-loss'],
  EXP_LATE_BAR_MS: a['late-bar'],
  EXP_INJECT_LATENESS: a['inject-lateness'],
  EXP_INJECT_STALLS: a['inject-stalls'],
  EXP_INJECT_LINK: a['inject-link'],
  EXP_SENDER_PRIORITY: a['sender-priority'],
  EXP_LL: a.ll ? '1' : '0',
  EXP_SOURCE: a.source,
  EXP_SOURCE_NAME: a['source-name'],
  EXP_WORKERS: String(parallel),
  EXP_OUT: new URL(a.out, `file://${process.cwd()}/`).pathname,
};
const args = [
  'playwright',
  'test',
  '-c',
  'e2e/experiments/playwright.config.ts',
  ...(a.shard ? [`--shard=${a.shard}`] : []),
  ...positionals,
];
// Ctrl-C reaches Playwright and its workers (one process group) and may end a worker before its
// testbed's teardown runs: this process outlives it (the handler only keeps it alive) and removes
// the namespaces that appeared during the run (another run started meanwhile would lose its
// own: experiments run alone on the box), leaving those from before.
let netlabError;
const netlab = process.getuid?.() === 0 ? await import('@ethle/netlab').catch((e) => void (netlabError = e)) : undefined;
const before = new Set(netlab?.testbedNamespaces() ?? []);
let interrupted;
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => (interrupted = sig));
const r = spawnSync('npx', args, { cwd: root, env, stdio: 'inherit' });
if (interrupted || r.signal) {
  if (netlab) {
    const left = await netlab.cleanupTestbeds({ keep: before });
    if (left.length > 0) console.error(`experiment: removed ${left.length} namespaces the stopped run left (${left.join(', ')})`);
  } else if (netlabError)
    console.error(
      `experiment: could not load @ethle/netlab to remove what the stopped run left (${netlabError.message}); \`ip netns list\` shows its ethle-* namespaces`,
    );
}
process.exit(r.status ?? (interrupted ? 130 : 1));
