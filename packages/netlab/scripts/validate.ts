// Link validation for docs/netlab.md: measured RTT vs configured, throughput vs a rate cap, and a
// 3.7 MB transfer at 224 ms (slow start, time vs bytes) against the core model for IW 10.
// Run as root: npx tsx packages/netlab/scripts/validate.ts
import { modelHold, slowStartDeliverySeconds } from '@ethle/core';
import { backhaul, createTestbed, symmetric, unmodelledTotal, type Testbed } from '../src/index.js';
import { startBulkServer, steadyWireBps, tcpRttMs, timeToFraction, transfer } from '../src/validate/measure.js';

const rows: string[] = [];

/**
 * What the links and the sender's TCP counted since the last call on this testbed (the links read
 * once quiet): the origin's retransmissions and the packets lost where the links do not model it.
 */
function lossMeter(tb: Testbed): () => Promise<string> {
  let last = { retrans: 0, unmodelled: 0 };
  return async () => {
    const a = await tb.account({ settle: true });
    const now = {
      retrans: a.tcp.origin.TcpRetransSegs ?? 0,
      unmodelled: [a.links.ran.up, a.links.ran.down, a.links.backhaul.up, a.links.backhaul.down].reduce(
        (x, d) => x + unmodelledTotal(d),
        0,
      ),
    };
    const out = `${now.retrans - last.retrans} / ${now.unmodelled - last.unmodelled}${a.settled ? '' : ' (links not quiet)'}`;
    last = now;
    return out;
  };
}
{
  const tb = await createTestbed({ ran: symmetric({ delayMs: 5 }), backhaul: backhaul(224) });
  const losses = lossMeter(tb);
  try {
    const stop = await startBulkServer(tb);
    for (const [from, expected] of [
      ['edge', 224],
      ['client', 234],
    ] as const) {
      const rtt = await tcpRttMs(tb, from, tb.hosts.origin.ip, 9000, 10);
      rows.push(`| RTT ${from} → origin | ${expected} ms | ${rtt.toFixed(2)} ms | ${(rtt - expected).toFixed(2)} ms | ${await losses()} |`);
    }
    for (const cc of ['bbr', 'cubic'] as const) {
      await tb.exec('origin', 'sysctl', ['-q', '-w', `net.ipv4.tcp_congestion_control=${cc}`]);
      const r = await transfer(tb, 'edge', tb.hosts.origin.ip, 3.7e6);
      // Predicted arrival of a fraction f of the bytes: handshake + request + slow start (IW 10).
      const pred = (f: number) =>
        2 * 224 + 1000 * slowStartDeliverySeconds({ bytes: 3.7e6 * f, rttSeconds: 0.224, initialWindowSegments: 10 });
      const fr = [1 / 8, 1 / 4, 1 / 2, 1];
      rows.push(
        `| 3.7 MB at 224 ms, ${cc}: time to 1/8, 1/4, 1/2, all bytes (measured / model IW 10) | ${fr.map((f) => pred(f).toFixed(0)).join(', ')} ms | ${fr.map((f) => timeToFraction(r, f).toFixed(0)).join(', ')} ms | ${((r.totalMs / pred(1) - 1) * 100).toFixed(1)} % | ${await losses()} |`,
      );
    }
    stop();
  } finally {
    await tb.close();
  }
}
for (const cap of [50, 112]) {
  const tb = await createTestbed({ ran: symmetric({ delayMs: 0.5 }), backhaul: backhaul(20, cap) });
  try {
    const stop = await startBulkServer(tb);
    const r = await transfer(tb, 'edge', tb.hosts.origin.ip, (cap * 1e6 * 4) / 8);
    stop();
    const wire = steadyWireBps(r);
    // Retransmissions here are the cap's drop-tail queue (modelled), not the testbed's.
    rows.push(
      `| rate cap ${cap} Mbit/s (20 ms RTT, steady state, wire rate) | ${cap} Mbit/s | ${(wire / 1e6).toFixed(2)} Mbit/s | ${((wire / (cap * 1e6) - 1) * 100).toFixed(2)} % | ${await lossMeter(tb)()} |`,
    );
  } finally {
    await tb.close();
  }
}
{
  const tb = await createTestbed({ ran: symmetric({ delayMs: 0.5 }), backhaul: symmetric({ delayMs: 0.5 }) });
  try {
    const stop = await startBulkServer(tb);
    const r = await transfer(tb, 'edge', tb.hosts.origin.ip, 200e6);
    stop();
    rows.push(
      `| relay ceiling (no cap, 1 ms RTT, 200 MB) | – | ${((r.bytes * 8) / (r.totalMs / 1000) / 1e6).toFixed(0)} Mbit/s goodput | – | ${await lossMeter(tb)()} |`,
    );
  } finally {
    await tb.close();
  }
}
const m = modelHold({ rttSeconds: 0.224, segmentBytes: 3.7e6, segmentSeconds: 2, ranBps: 60e6, initialWindowSegments: 10 });
console.log(
  `| check | configured / predicted | measured | difference | origin retransmits / unmodelled drops |\n|---|---|---|---|---|\n${rows.join('\n')}`,
);
console.log(
  `\nmodel (IW 10, no request RTT): 3.7 MB at 224 ms in ${m.backhaul.deliverySeconds.toFixed(3)} s = ${(m.backhaul.bps / 1e6).toFixed(1)} Mbit/s`,
);
