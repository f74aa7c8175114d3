// One flow per Table I segment size over the 224 ms backhaul on an otherwise idle testbed (BBR,
// fresh connection each), against the core model (IW 10): how far the backhaul itself goes
// before Chromium, the edge and the RAN relay share the machine (docs/experiments.md, "Which x";
// docs/netlab.md, "One flow per Table I segment size").
// Run as root: npx tsx packages/netlab/scripts/segmentTransfers.ts [--buffers BYTES]
// --buffers raises the hosts' TCP send/receive buffer maximum (tcp_wmem/tcp_rmem; a new network
// namespace starts with Linux's defaults, 4 MB send, 6 MB receive).
import { slowStartDeliverySeconds } from '@ethle/core';
import { accountSummary, backhaul, createTestbed, symmetric } from '../src/index.js';
import { startBulkServer, transfer } from '../src/validate/measure.js';

const sizes = [3.7e6, 7.5e6, 18.8e6, 12.2e6, 24.4e6, 61.1e6];
const i = process.argv.indexOf('--buffers');
const buffers = i < 0 ? undefined : Number(process.argv[i + 1]);
const tb = await createTestbed({ ran: symmetric({ delayMs: 5 }), backhaul: backhaul(224), tcpBufferBytes: buffers });
const rows: string[] = [];
try {
  const stop = await startBulkServer(tb);
  for (const bytes of sizes) {
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await transfer(tb, 'edge', tb.hosts.origin.ip, bytes);
      runs.push((bytes * 8) / (r.totalMs / 1000) / 1e6);
    }
    // The transfer's time includes the handshake and the request: 2 RTTs before slow start.
    const model = (bytes * 8) / (2 * 0.224 + slowStartDeliverySeconds({ bytes, rttSeconds: 0.224, initialWindowSegments: 10 })) / 1e6;
    rows.push(`| ${(bytes / 1e6).toFixed(1)} MB | ${model.toFixed(1)} | ${runs.map((x) => x.toFixed(1)).join(', ')} |`);
  }
  stop();
  rows.push('', accountSummary(await tb.account({ settle: true })));
} finally {
  await tb.close();
}
console.log(
  `TCP buffer maximum: ${buffers === undefined ? 'Linux defaults' : `${buffers} bytes`}\n| segment | model IW 10, incl. handshake + request (Mbit/s) | measured, 3 fresh BBR connections (Mbit/s) |\n|---|---|---|\n${rows.join('\n')}`,
);
