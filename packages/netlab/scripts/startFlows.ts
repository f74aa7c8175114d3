// A cold start's parallel flows over the 224 ms backhaul with a CUBIC origin (HyStart on, Linux's
// default): when does each flow finish? The plans split one or three 12.2 MB segments (50M-2s)
// into byte ranges as the edge may at a start. Each flow is a fresh connection from the edge host,
// timed by its own process (connect to last byte); "all by" is wall time including the processes'
// start. Run as root, on a quiet box:
// npx tsx packages/netlab/scripts/startFlows.ts [plan ...]   (plans: one, split8, start444, start842)
import { backhaul, createTestbed, symmetric } from '../src/index.js';
import { startBulkServer, transfer } from '../src/validate/measure.js';

const SEG = 12.2e6;
const plans: Record<string, number[]> = {
  one: [SEG],
  split8: Array<number>(8).fill(SEG / 8),
  start444: Array<number>(12).fill(SEG / 4),
  start842: [...Array<number>(8).fill(SEG / 8), ...Array<number>(4).fill(SEG / 4), ...Array<number>(2).fill(SEG / 2)],
};
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(plans);
const probe = { realtime: true };
const tb = await createTestbed({ ran: symmetric({ delayMs: 5 }), backhaul: backhaul(224), cc: 'cubic' });
try {
  const stop = await startBulkServer(tb, 'origin', 9000, probe);
  for (const name of wanted) {
    const sizes = plans[name];
    if (!sizes) throw new Error(`unknown plan ${name}; plans: ${Object.keys(plans).join(', ')}`);
    const t0 = performance.now();
    const done = await Promise.all(
      sizes.map((b) =>
        transfer(tb, 'edge', tb.hosts.origin.ip, Math.round(b), 9000, probe).then((r) => ({
          b,
          ms: r.totalMs,
          wall: performance.now() - t0,
        })),
      ),
    );
    const wall = Math.max(...done.map((d) => d.wall));
    const mb = sizes.reduce((a, b) => a + b, 0) / 1e6;
    console.log(
      `${name}: ${sizes.length} flows, each (MB: ms) ${done.map((d) => `${(d.b / 1e6).toFixed(2)}: ${d.ms.toFixed(0)}`).join(', ')}; all by ${wall.toFixed(0)} ms wall (${mb.toFixed(1)} MB)`,
    );
  }
  stop();
  const s = (await tb.stats()).backhaul;
  console.log(`backhaul relay lateness down: p99 ${s.down.lateness.p99Ms.toFixed(2)} ms, max ${s.down.lateness.maxMs.toFixed(1)} ms`);
} finally {
  await tb.close();
}
