// `npm start -- --backhaul RTT`: the live origin behind an emulated long-RTT backhaul and the
// LTE-A radio in front of the players, on real kernel TCP (packages/netlab: network namespaces,
// TUN devices, a user-space delay/rate relay), as the experiments build it (e2e/experiments/
// runScenario.ts): client — RAN (LTE-A) — edge — backhaul — origin. The origin and the edge run
// in their namespaces; the page's requests enter the client namespace through a forwarder
// (forwardThroughNamespace.mjs), so both players' segments cross the radio, and the direct
// player's the backhaul too. Needs root.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHostForwarder } from './forwardThroughNamespace.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ORIGIN_BIN = join(root, 'packages/live-origin/bin/ethle-origin.js');
const EDGE_BIN = join(root, 'packages/edge-node/bin/ethle-edge.js');
const FORWARDER = fileURLToPath(new URL('./forwardThroughNamespace.mjs', import.meta.url));

/** Resolves when a child prints a line matching `re`; rejects with its output if it exits first. */
function ready(p, re, what) {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 20 s: ${out.slice(-300)}`)), 20_000);
    const on = (c) => {
      out += c.toString();
      if (!re.test(out)) return;
      clearTimeout(timer);
      p.stdout.off('data', on);
      // Keep draining: a child whose stdout pipe fills up blocks.
      p.stdout.resume();
      resolve();
    };
    p.stdout.on('data', on);
    p.stderr.on('data', (c) => (out += c.toString()));
    p.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${out.slice(-300)}`)));
  });
}

/** One direction of a relay, in one line: what it carried, dropped, and how late it sent. */
const direction = (d) =>
  `${d.sent} sent, ${d.drops} dropped (${d.lossDrops} modelled loss), ring full ${d.ringFull}, late p99 ${d.lateness.p99Ms.toFixed(1)} ms max ${d.lateness.maxMs.toFixed(1)} ms`;

/**
 * @param {{ rttMs: number, hold: number | 'auto', host: string, ports: { origin: number, edge: number }, logFile: string }} o
 *   logFile: the edge's log (it runs in a namespace, out of sight) and, at close, the relays' counters.
 * @returns {Promise<{ originUrl: string, edgeUrl: string, describe: string, close(): Promise<void> }>}
 */
export async function startOverTestbed(o) {
  const { createTestbed, lteA, backhaul } = await import('@ethle/netlab');
  // Two users of the radio cell, each with a link of its own: the direct player's connections leave
  // from the first client address, the edge player's from the second, so the two columns do not
  // share (and fight over) one radio — each sees the radio as if it were alone, as each scheme did
  // in the paper's runs. They do share the backhaul (uncapped).
  // The origin's TCP is CUBIC, Linux's default, which restarts slow start after an idle gap: the
  // paper's premise. Behind an origin that keeps its window (BBR) the direct player barely waits
  // and the edge, learning that, holds nothing — there would be nothing for the page to show.
  const tb = await createTestbed({
    ran: lteA(),
    backhaul: backhaul(o.rttMs),
    cell: { users: 2, mode: 'per-user' },
    cc: { origin: 'cubic' },
  });
  const procs = [];
  const forwarders = [];
  const dir = mkdtempSync(join(tmpdir(), 'ethle-demo-'));
  const log = createWriteStream(o.logFile);
  const close = async () => {
    await Promise.allSettled(forwarders.map((f) => f.close()));
    // The relays' lateness says whether a stall was the network modelled or the box's CPU.
    const stats = await tb.stats().catch((e) => ({ error: String(e?.message ?? e) }));
    for (const p of procs) p.kill('SIGTERM');
    const line = stats.error
      ? `netlab: no relay counters (${stats.error})`
      : ['ran', 'backhaul'].map((l) => `netlab ${l}: down ${direction(stats[l].down)}; up ${direction(stats[l].up)}`).join('\n');
    await new Promise((r) => log.end(`${line}\n`, r));
    await tb.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const origin = tb.spawn('origin', process.execPath, [ORIGIN_BIN, '--host', '0.0.0.0', '--port', '8081']);
    procs.push(origin);
    await ready(origin, /listening/, 'the origin');
    const originInside = `http://${tb.hosts.origin.ip}:8081`;
    // One forwarder per server, both entering at the client: the page reaches the edge over the
    // radio and the origin over the radio and the backhaul (routed through the edge's host). The
    // forwarders connect on demand, so they go up before the edge, which must know the origin's
    // host URL: a receiver it redirects to the origin (eq. 3, `--hold auto`) goes there, not to a
    // namespace address the browser cannot reach.
    const targets = [
      ['origin', tb.hosts.origin.ip, 8081, o.ports.origin, tb.hosts.client.ips[0]],
      ['edge', tb.hosts.edge.ranIp, 8080, o.ports.edge, tb.hosts.client.ips[1]],
    ];
    const urls = {};
    for (const [name, ip, port, hostPort, from] of targets) {
      const socketPath = join(dir, `${name}.sock`);
      const f = tb.spawn('client', process.execPath, [FORWARDER, socketPath, ip, String(port), from]);
      procs.push(f);
      await ready(f, /forwarding/, `the ${name} forwarder`);
      const h = await startHostForwarder({ host: o.host, port: hostPort, socketPath }).catch((e) => {
        // start.mjs names the flag that changes a port in use.
        throw Object.assign(e, { flag: `${name}-port`, port: hostPort });
      });
      forwarders.push(h);
      urls[name] = h.url;
    }
    const edge = tb.spawn('edge', process.execPath, [
      EDGE_BIN,
      'serve',
      '--origin',
      originInside,
      '--origin-public-url',
      urls.origin,
      '--host',
      '0.0.0.0',
      '--port',
      '8080',
      '--hold',
      String(o.hold),
    ]);
    procs.push(edge);
    edge.stdout.pipe(log, { end: false });
    edge.stderr.pipe(log, { end: false });
    await ready(edge, /listen/i, 'the edge');
    return {
      originUrl: urls.origin,
      edgeUrl: urls.edge,
      describe: `emulated network (real TCP): players — LTE-A radio, a link per player (a 112/50 Mbit/s cell at 50 % load, 20–180 ms RTT under load) — edge ${tb.hosts.edge.ranIp} — backhaul ${o.rttMs} ms RTT — origin ${tb.hosts.origin.ip} (TCP CUBIC)`,
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
