// How much N receivers of one cell can move through the relays on this machine (issue 16 item 5):
// N simultaneous downloads, one per cell user (per-user links, no rate cap, 2 ms RAN and 20 ms
// backhaul RTT), from the edge namespace (the RAN relay only: what an edge serves) and from the
// origin (both relays: E2E). Prints the aggregate goodput and the relays' p99 lateness.
// Run as root: npx tsx packages/netlab/scripts/cellCeiling.ts [N,N,…] [MB per receiver]
import { accountSummary, backhaul, createTestbed, relayTimingProblems, symmetric } from '../src/index.js';
import { startBulkServer, transfer } from '../src/validate/measure.js';

const counts = (process.argv[2] ?? '1,4,16,64').split(',').map(Number);
const mb = Number(process.argv[3] ?? 400);
console.log('| N | from | MB each | aggregate goodput (Mbit/s) | slowest receiver (Mbit/s) | relays p99 late | links |');
console.log('|---|---|---|---|---|---|---|');
for (const n of counts) {
  for (const from of ['edge', 'origin'] as const) {
    // A fresh testbed per row: the relays' lateness counters are the row's alone.
    const tb = await createTestbed({ ran: symmetric({ delayMs: 1 }), backhaul: backhaul(20), cell: { users: n, mode: 'per-user' } });
    try {
      const stop = await startBulkServer(tb, from, 9000, { realtime: true });
      const ip = from === 'edge' ? tb.hosts.edge.ranIp : tb.hosts.origin.ip;
      const bytes = Math.round((mb * 1e6) / n);
      const t0 = performance.now();
      const runs = await Promise.all(
        tb.hosts.client.ips.map((localAddress) => transfer(tb, 'client', ip, bytes, 9000, { realtime: true, localAddress })),
      );
      const wallMs = performance.now() - t0;
      const late = relayTimingProblems(await tb.stats());
      stop();
      const total = runs.reduce((a, r) => a + r.bytes, 0);
      const slowest = Math.min(...runs.map((r) => (r.bytes * 8) / (r.totalMs * 1e3)));
      console.log(
        `| ${n} | ${from} | ${(bytes / 1e6).toFixed(1)} | ${((total * 8) / (wallMs * 1e3)).toFixed(0)} | ${slowest.toFixed(1)} | ${late.length > 0 ? late.join('; ') : '< 1 ms'} | ${accountSummary(await tb.account({ settle: true }))} |`,
      );
    } finally {
      await tb.close();
    }
  }
}
