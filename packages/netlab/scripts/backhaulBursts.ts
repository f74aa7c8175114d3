// Is a relay's lateness on an uncapped backhaul the sending thread serialising bursts? The same
// 24.4 MB transfers (one 50M-4s segment) origin → edge over the 137 ms backhaul, uncapped and
// capped at 1 Gbit/s (departures spaced 11.6 µs per 1448 B datagram), alternating; the backhaul
// relay's own lateness per direction after each pair. Run as root:
// npx tsx packages/netlab/scripts/backhaulBursts.ts [rttMs] [pairs]
import { backhaul, createTestbed, symmetric } from '../src/index.js';
import { startBulkServer, transfer } from '../src/validate/measure.js';

const rtt = Number(process.argv[2] ?? 137);
const pairs = Number(process.argv[3] ?? 3);
const BYTES = 24.4e6;
for (let i = 0; i < pairs; i++) {
  for (const cap of [undefined, 1000]) {
    const tb = await createTestbed({ ran: symmetric({ delayMs: 0.5 }), backhaul: backhaul(rtt, cap) });
    try {
      const stop = await startBulkServer(tb);
      const times: number[] = [];
      for (let k = 0; k < 4; k++) times.push((await transfer(tb, 'edge', tb.hosts.origin.ip, BYTES)).totalMs);
      stop();
      const s = (await tb.stats()).backhaul;
      const d = (x: { lateness: { count: number; p99Ms: number; maxMs: number } }) =>
        `p99 ${x.lateness.p99Ms.toFixed(2)} max ${x.lateness.maxMs.toFixed(1)} ms (${x.lateness.count})`;
      console.log(
        `${rtt} ms ${cap === undefined ? 'uncapped ' : `cap ${cap}`}: transfers ${times.map((t) => t.toFixed(0)).join(', ')} ms; late down ${d(s.down)}; up ${d(s.up)}`,
      );
    } finally {
      await tb.close();
    }
  }
}
