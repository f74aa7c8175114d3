// The LTE-A model against the paper's Fig. 6 (20–180 ms RTT at 50 % cell load): a ping from the
// client to the edge over the radio (a 64-byte UDP echo every 50 ms: the namespaces have no
// iputils), first with nothing else of ours on the bearer, then while a bulk flow of ours loads
// the cell to ~50 % (a paced TCP flow edge → client, as iperf3 -b would: the paper's load
// generator; CUBIC by default, as iperf3 on a stock Linux). The other users' load is the model's
// own (lteA's seeded load process). Figures: docs/netlab.md ("The LTE-A radio model").
// Run as root: npx tsx packages/netlab/scripts/radioRtt.ts [--ran lte-a|walk] [--mbps 56]
//   [--seconds 60] [--cc cubic|bbr] [--seed 16]
import { parseArgs } from 'node:util';
import { backhaul, createTestbed, lteA, lteAWalk, type CongestionControl } from '../src/index.js';
import { startBulkServer } from '../src/validate/measure.js';
import { distFile } from '../src/testbed/sh.js';

// The echo runs from the build, as the relays do (the echo at real-time priority 40, below the relays).
const UDP_PING = distFile(new URL('../src/validate/x.ts', import.meta.url).href, './udpPing.js');

const { values: a } = parseArgs({
  options: {
    ran: { type: 'string', default: 'lte-a' },
    mbps: { type: 'string', default: '56' },
    seconds: { type: 'string', default: '60' },
    cc: { type: 'string', default: 'cubic' },
    seed: { type: 'string', default: '16' },
  },
});
const seed = Number(a.seed);
const seconds = Number(a.seconds);
const mbps = Number(a.mbps);
const ran = a.ran === 'walk' ? lteAWalk({ seed }) : lteA({ seed });
const tb = await createTestbed({ ran, backhaul: backhaul(224), cc: a.cc as CongestionControl });

/** A UDP ping every 50 ms for `s` seconds from the client to the edge; the RTTs in ms. */
async function ping(s: number): Promise<number[]> {
  const out = JSON.parse(await tb.exec('client', process.execPath, [UDP_PING, 'client', tb.hosts.edge.ranIp, '9100', '50', String(s)])) as {
    sent: number;
    rtts: number[];
  };
  if (out.rtts.length === 0) throw new Error('no echo came back');
  return out.rtts;
}

const pct = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(0);
  return `${s.length} replies: min ${q(0)}, p10 ${q(0.1)}, p50 ${q(0.5)}, p90 ${q(0.9)}, p99 ${q(0.99)}, max ${s.at(-1)!.toFixed(0)} ms`;
};

try {
  const stop = await startBulkServer(tb, 'edge');
  const echo = tb.spawn('edge', 'chrt', ['-f', '40', process.execPath, UDP_PING, 'server', '9100']);
  await new Promise((r) => echo.stdout!.once('data', r));
  const idle = await ping(Math.min(20, seconds));
  const bytes = Math.round(((mbps * 1e6) / 8) * (seconds + 5));
  const flow = tb.exec('client', process.execPath, [
    '-e',
    `fetch('http://${tb.hosts.edge.ranIp}:9000/paced/${bytes}/${mbps}').then(r=>r.arrayBuffer()).then(b=>console.log(b.byteLength))`,
  ]);
  await new Promise((r) => setTimeout(r, 2000)); // past the flow's start-up
  const loaded = await ping(seconds);
  const st = await tb.stats();
  stop();
  echo.kill();
  await flow.catch(() => undefined);
  const d = st.ran.down;
  console.log(`ran ${a.ran} (seed ${seed}), ${a.cc}; ping client → edge every 50 ms`);
  console.log(`| condition | RTT |\n|---|---|`);
  console.log(`| nothing else of ours on the bearer (${Math.min(20, seconds)} s) | ${pct(idle)} |`);
  console.log(`| a paced ${mbps} Mbit/s ${a.cc} flow edge → client (${seconds} s) | ${pct(loaded)} |`);
  const offered = d.servedTtis
    ? `, the cell offered ${((d.offeredBytes! * 8) / (d.servedTtis * 1e3)).toFixed(1)} Mbit/s while we had data`
    : '';
  console.log(
    `ran down: ${d.packets} packets, ${d.drops} drops${d.discardDrops ? ` (${d.discardDrops} by the discard timer)` : ''}${offered}; relay lateness p99 ${d.lateness.p99Ms.toFixed(2)} / up ${st.ran.up.lateness.p99Ms.toFixed(2)} ms`,
  );
} finally {
  await tb.close();
}
