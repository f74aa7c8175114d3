// Does the links' timing depend on CPU load? The same checks idle and with every core kept busy by
// a CPU hog (normal priority, as Chromium decoding or other work would): RTT vs the configured one,
// a rate cap's wire rate, and a 24.4 MB transfer edge → client over the LTE-A profile (the size of
// a 50M-4s segment the edge holds), plus the relays' own departure lateness. docs/netlab.md.
// Run as root: npx tsx packages/netlab/scripts/validateUnderLoad.ts [--realtime off] [--repeats 3] [--verbose]
// (--verbose prints every testbed's relay counters to stderr)
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { backhaul, createTestbed, lteA, relayTimingProblems, startCpuHogs, symmetric, type LinkStats, type Testbed } from '../src/index.js';
import { startBulkServer, tcpRttMs, timeToFraction, transfer } from '../src/validate/measure.js';

const { values: a } = parseArgs({ options: { realtime: { type: 'string', default: 'on' }, repeats: { type: 'string', default: '3' }, verbose: { type: 'boolean', default: false } } });
const realtime = a.realtime !== 'off';
const repeats = Number(a.repeats);

/** Worst p99 / max departure lateness over every relay direction of a testbed. */
async function lateness(tb: Testbed): Promise<{ p99: number; max: number; problems: string[] }> {
  const s = (await tb.stats()) as Record<string, LinkStats>;
  const dirs = Object.values(s).flatMap((l) => [l.up.lateness, l.down.lateness]).filter((l) => l.count > 0);
  const problems = relayTimingProblems(s);
  if (a.verbose) console.error(JSON.stringify(s, (k, v) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v)));
  return { p99: Math.max(...dirs.map((l) => l.p99Ms)), max: Math.max(...dirs.map((l) => l.maxMs)), problems };
}

interface Figures {
  rttEdge: number;
  rttClient: number;
  cap50: number;
  cap112: number;
  lteMbps: number[];
  lateP99: number;
  lateMax: number;
}

async function measure(): Promise<Figures> {
  const late: { p99: number; max: number }[] = [];
  let rttEdge = 0;
  let rttClient = 0;
  {
    const tb = await createTestbed({ ran: symmetric({ delayMs: 5 }), backhaul: backhaul(224), realtime });
    try {
      const stop = await startBulkServer(tb);
      rttEdge = await tcpRttMs(tb, 'edge', tb.hosts.origin.ip, 9000, 10);
      rttClient = await tcpRttMs(tb, 'client', tb.hosts.origin.ip, 9000, 10);
      stop();
      late.push(await lateness(tb));
    } finally {
      await tb.close();
    }
  }
  const caps: number[] = [];
  for (const cap of [50, 112]) {
    const tb = await createTestbed({ ran: symmetric({ delayMs: 0.5 }), backhaul: backhaul(20, cap), realtime });
    try {
      const stop = await startBulkServer(tb);
      const r = await transfer(tb, 'edge', tb.hosts.origin.ip, (cap * 1e6 * 4) / 8);
      stop();
      const t1 = timeToFraction(r, 0.3);
      caps.push(((r.bytes * 0.7 * 8) / ((r.totalMs - t1) / 1000)) * (1500 / 1448) / 1e6);
      late.push(await lateness(tb));
    } finally {
      await tb.close();
    }
  }
  const lteMbps: number[] = [];
  for (let i = 0; i < repeats; i++) {
    // A fresh testbed per transfer: the seeded delay walk starts with the link's first packet
    // (this connection's SYN), so every transfer, idle or loaded, crosses the same radio.
    const tb = await createTestbed({ ran: lteA({ seed: 16 }), backhaul: backhaul(224), realtime });
    try {
      const stop = await startBulkServer(tb, 'edge');
      const r = await transfer(tb, 'client', tb.hosts.edge.ranIp, 24.4e6);
      lteMbps.push((r.bytes * 8) / (r.totalMs / 1000) / 1e6);
      stop();
      late.push(await lateness(tb));
    } finally {
      await tb.close();
    }
  }
  return { rttEdge, rttClient, cap50: caps[0]!, cap112: caps[1]!, lteMbps, lateP99: Math.max(...late.map((l) => l.p99)), lateMax: Math.max(...late.map((l) => l.max)) };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const idle = await measure();
const hogs = availableParallelism();
const stopHogs = startCpuHogs(hogs);
let load: Figures;
try {
  load = await measure();
} finally {
  stopHogs();
}
const f = (x: number, d = 2) => x.toFixed(d);
const ok = (b: boolean) => (b ? 'yes' : '**no**');
console.log(`realtime: ${realtime ? 'on (relays and socats SCHED_FIFO 50)' : 'off'}; load: ${hogs} CPU hogs on ${availableParallelism()} cores; ${new Date().toISOString()}`);
console.log('| check | target | idle | under load | within |\n|---|---|---|---|---|');
console.log(`| RTT edge → origin | 224 ms ± 2 | ${f(idle.rttEdge)} ms | ${f(load.rttEdge)} ms | ${ok(Math.abs(load.rttEdge - 224) <= 2)} |`);
console.log(`| RTT client → origin | 234 ms ± 2 | ${f(idle.rttClient)} ms | ${f(load.rttClient)} ms | ${ok(Math.abs(load.rttClient - 234) <= 2)} |`);
console.log(`| rate cap 50 Mbit/s (wire) | ± 2 % | ${f(idle.cap50)} Mbit/s | ${f(load.cap50)} Mbit/s | ${ok(Math.abs(load.cap50 / 50 - 1) < 0.02)} |`);
console.log(`| rate cap 112 Mbit/s (wire) | ± 2 % | ${f(idle.cap112)} Mbit/s | ${f(load.cap112)} Mbit/s | ${ok(Math.abs(load.cap112 / 112 - 1) < 0.02)} |`);
console.log(`| 24.4 MB edge → client, LTE-A (seed 16), Mbit/s, ${repeats} runs (median) | idle ± 5 % | ${idle.lteMbps.map((x) => f(x, 1)).join(', ')} (${f(median(idle.lteMbps), 1)}) | ${load.lteMbps.map((x) => f(x, 1)).join(', ')} (${f(median(load.lteMbps), 1)}) | ${ok(Math.abs(median(load.lteMbps) / median(idle.lteMbps) - 1) <= 0.05)} |`);
console.log(`| relay departure lateness, worst direction: p99 / max | p99 < 1 ms | ${f(idle.lateP99)} / ${f(idle.lateMax, 1)} ms | ${f(load.lateP99)} / ${f(load.lateMax, 1)} ms | ${ok(load.lateP99 < 1)} |`);
