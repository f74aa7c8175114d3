// Does the links' timing depend on CPU load? The same checks idle and with every core kept busy by
// a CPU hog (normal priority, as Chromium decoding or other work would): RTT vs the configured one,
// rate caps' wire rate, and a 24.4 MB transfer edge → client over the LTE-A profile (a 50M-4s
// segment the edge holds), each in a fresh testbed, with the relays' own departure lateness.
// Figures: docs/netlab.md ("Timing under CPU load").
// Run as root: npx tsx packages/netlab/scripts/validateUnderLoad.ts [--realtime off] [--repeats 5] [--verbose] [--rt-probes]
// (--verbose prints every testbed's relay counters to stderr)
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import {
  backhaul,
  createTestbed,
  lteA,
  relayTimingProblems,
  startCpuHogs,
  symmetric,
  type LinkStats,
  type TestbedOptions,
} from '../src/index.js';
import { startBulkServer, tcpRttMs, steadyWireBps, transfer } from '../src/validate/measure.js';
import type { HostName, Testbed } from '../src/testbed/createTestbed.js';

const { values: a } = parseArgs({
  options: {
    realtime: { type: 'string', default: 'on' },
    repeats: { type: 'string', default: '5' },
    verbose: { type: 'boolean', default: false },
    'rt-probes': { type: 'boolean', default: false },
  },
});
// --rt-probes: the measuring processes at real-time priority 40 (below the relays), as the test does.
const probe = { realtime: a['rt-probes'] };
const realtime = a.realtime !== 'off';
const repeats = Number(a.repeats);

/** One measurement in a fresh testbed, and the worst relay direction's lateness there. */
interface Sample {
  value: number;
  p99: number;
  max: number;
  late: boolean;
}

async function inTestbed(o: Omit<TestbedOptions, 'realtime'>, server: HostName, f: (tb: Testbed) => Promise<number>): Promise<Sample> {
  const tb = await createTestbed({ ...o, realtime });
  try {
    const stop = await startBulkServer(tb, server, 9000, probe);
    const value = await f(tb);
    stop();
    const s = (await tb.stats()) as Record<string, LinkStats>;
    if (a.verbose) console.error(JSON.stringify(s, (_, v) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v)));
    const dirs = Object.values(s)
      .flatMap((l) => [l.up.lateness, l.down.lateness])
      .filter((l) => l.count > 0);
    return {
      value,
      p99: Math.max(...dirs.map((l) => l.p99Ms)),
      max: Math.max(...dirs.map((l) => l.maxMs)),
      late: relayTimingProblems(s).length > 0,
    };
  } finally {
    await tb.close();
  }
}

const wireMbps = (cap: number) => async (tb: Testbed) => {
  const r = await transfer(tb, 'edge', tb.hosts.origin.ip, (cap * 1e6 * 4) / 8, 9000, probe);
  return steadyWireBps(r) / 1e6;
};

async function measure(): Promise<Record<string, Sample[]>> {
  const out: Record<string, Sample[]> = { rttEdge: [], rttClient: [], cap50: [], cap112: [], lte: [] };
  const path = { ran: symmetric({ delayMs: 5 }), backhaul: backhaul(224) };
  out.rttEdge!.push(await inTestbed(path, 'origin', (tb) => tcpRttMs(tb, 'edge', tb.hosts.origin.ip, 9000, 10, probe)));
  out.rttClient!.push(await inTestbed(path, 'origin', (tb) => tcpRttMs(tb, 'client', tb.hosts.origin.ip, 9000, 10, probe)));
  out.cap50!.push(await inTestbed({ ran: symmetric({ delayMs: 0.5 }), backhaul: backhaul(20, 50) }, 'origin', wireMbps(50)));
  out.cap112!.push(await inTestbed({ ran: symmetric({ delayMs: 0.5 }), backhaul: backhaul(20, 112) }, 'origin', wireMbps(112)));
  for (let i = 0; i < repeats; i++) {
    // A fresh testbed per transfer: the seeded delay walk starts with the link's first packet
    // (this connection's SYN), so every transfer, idle or loaded, crosses the same radio.
    out.lte!.push(
      await inTestbed({ ran: lteA({ seed: 16 }), backhaul: backhaul(224) }, 'edge', async (tb) => {
        const r = await transfer(tb, 'client', tb.hosts.edge.ranIp, 24.4e6, 9000, probe);
        return (r.bytes * 8) / (r.totalMs / 1000) / 1e6;
      }),
    );
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const started = new Date().toISOString();
const idle = await measure();
const hogs = availableParallelism();
const stopHogs = startCpuHogs(hogs);
let load: Record<string, Sample[]>;
try {
  load = await measure();
} finally {
  stopHogs();
}
const f = (x: number, d = 2) => x.toFixed(d);
const ok = (b: boolean) => (b ? 'yes' : '**no**');
const late = (ss: Sample[]) => `${ss.map((s) => f(s.p99)).join(', ')} / ${f(Math.max(...ss.map((s) => s.max)), 1)}`;
const one = (ss: Sample[], unit: string) => `${f(ss[0]!.value)} ${unit}`;
console.log(
  `realtime: ${realtime ? 'on (relays and socats SCHED_FIFO 50)' : 'off'}; probes ${probe.realtime ? 'SCHED_FIFO 40' : 'normal priority'}; load: ${hogs} CPU hogs on ${availableParallelism()} cores; ${started}`,
);
console.log(
  '| check | target | idle | under load | within | relay lateness p99 / max (ms), idle | under load |\n|---|---|---|---|---|---|---|',
);
const rows: [string, string, string, Sample[], Sample[], boolean][] = [
  ['RTT edge → origin', '224 ms ± 2', 'ms', idle.rttEdge!, load.rttEdge!, Math.abs(load.rttEdge![0]!.value - 224) <= 2],
  ['RTT client → origin', '234 ms ± 2', 'ms', idle.rttClient!, load.rttClient!, Math.abs(load.rttClient![0]!.value - 234) <= 2],
  ['rate cap 50 Mbit/s (wire, steady state)', '± 2 %', 'Mbit/s', idle.cap50!, load.cap50!, Math.abs(load.cap50![0]!.value / 50 - 1) < 0.02],
  [
    'rate cap 112 Mbit/s (wire, steady state)',
    '± 2 %',
    'Mbit/s',
    idle.cap112!,
    load.cap112!,
    Math.abs(load.cap112![0]!.value / 112 - 1) < 0.02,
  ],
];
for (const [name, target, unit, i, l, pass] of rows)
  console.log(`| ${name} | ${target} | ${one(i, unit)} | ${one(l, unit)} | ${ok(pass)} | ${late(i)} | ${late(l)} |`);
const [mi, ml] = [median(idle.lte!.map((s) => s.value)), median(load.lte!.map((s) => s.value))];
const list = (ss: Sample[]) => `${ss.map((s) => f(s.value, 1)).join(', ')} (median ${f(median(ss.map((s) => s.value)), 1)})`;
console.log(
  `| 24.4 MB edge → client over LTE-A (seed 16), ${repeats} fresh testbeds, Mbit/s | idle ± 5 % | ${list(idle.lte!)} | ${list(load.lte!)} | ${ok(Math.abs(ml / mi - 1) <= 0.05)} (${f((ml / mi - 1) * 100, 1)} %) | ${late(idle.lte!)} | ${late(load.lte!)} |`,
);
const all = [...Object.values(idle), ...Object.values(load)].flat();
console.log(
  `\ntestbeds with a relay direction at p99 ≥ 1 ms (a run there would be marked invalid): ${all.filter((s) => s.late).length} of ${all.length}`,
);
