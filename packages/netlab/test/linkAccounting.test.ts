import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backhaul, createTestbed, judgeRun, symmetric, type LinkSpec, type Testbed, type TestbedAccount } from '@ethle/netlab';
import { startBulkServer, transfer } from '../src/validate/measure.js';

// Issue 35: the testbed loses no packet it does not model, and counts every one it does. Real
// kernel TCP through namespaces, TUN devices, socat and the relays; needs root; run alone in the
// netlab stage. Every assertion is a count (packets, retransmissions), never a duration, so a
// loaded box slows these tests down without failing them. ~35 s on this 2-core machine.
const root = process.getuid?.() === 0;
const d = root ? describe : describe.skip;
const probe = { realtime: true };
/** Child processes run the build (npm run build), as the relays do. */
const script = new URL('../dist/validate/udpBurst.js', import.meta.url).pathname;

/** Every link direction's unmodelled drops, by place (all zero on a sound testbed). */
const unmodelled = (a: TestbedAccount) =>
  Object.fromEntries(
    Object.entries(a.links).flatMap(([l, x]) => (['up', 'down'] as const).map((dir) => [`${l} ${dir}`, x[dir].unmodelled])),
  );
const unaccounted = (a: TestbedAccount) =>
  Object.fromEntries(
    Object.entries(a.links).flatMap(([l, x]) => (['up', 'down'] as const).map((dir) => [`${l} ${dir}`, x[dir].unaccounted])),
  );
const zeros = (a: TestbedAccount, v: unknown) => Object.fromEntries(Object.keys(unmodelled(a)).map((k) => [k, v]));

async function withTestbed<T>(bh: LinkSpec, f: (tb: Testbed) => Promise<T>): Promise<T> {
  const tb = await createTestbed({ ran: symmetric({ delayMs: 5 }), backhaul: bh, cc: 'cubic' });
  try {
    return await f(tb);
  } finally {
    await tb.close();
  }
}

/** One fresh-connection transfer origin → edge, then the links' account once they are quiet. */
async function transferAndAccount(bh: LinkSpec, bytes: number): Promise<TestbedAccount> {
  return withTestbed(bh, async (tb) => {
    const stop = await startBulkServer(tb, 'origin', 9000, probe);
    try {
      expect((await transfer(tb, 'edge', tb.hosts.origin.ip, bytes, 9000, probe)).bytes).toBe(bytes);
    } finally {
      stop();
    }
    const a = await tb.account({ settle: true });
    expect(a.settled).toBe(true);
    return a;
  });
}

d('link accounting (real TCP): no packet lost that the links do not model', () => {
  it('a 24 MB CUBIC transfer over a lossless 224 ms backhaul: 0 retransmissions, 0 unmodelled drops, every packet accounted for', async () => {
    const a = await transferAndAccount(backhaul(224), 24e6);
    // The whole transfer crossed the backhaul's down direction: ≥ 24 MB / 1448-byte segments.
    expect(a.links.backhaul.down.entered).toBeGreaterThan(24e6 / 1448);
    expect(a.links.backhaul.down.delivered).toBe(a.links.backhaul.down.entered);
    expect(unmodelled(a)).toEqual(zeros(a, { tunTx: 0, qdisc: 0, relaySocket: 0, ring: 0, socatSocket: 0, tunRx: 0 }));
    expect(unaccounted(a)).toEqual(zeros(a, 0));
    expect(a.tcp.origin.TcpRetransSegs).toBe(0);
    expect(a.tcp.origin.TcpExtTCPTimeouts).toBe(0);
    expect(judgeRun(a.links, { lateP99BarMs: Infinity }).failed).toEqual([]);
  }, 90_000);

  it('over 1 % modelled loss each way: TCP retransmits what the link dropped, every drop counted as modelled, none unmodelled', async () => {
    const bh = backhaul(224);
    // Seeded: the same datagrams are lost every run. 1 MB, not 24: at 1 % loss and 224 ms CUBIC
    // moves ~0.6 Mbit/s (Mathis), and 24 MB would take minutes.
    const lossy: LinkSpec = { up: { ...bh.up, loss: 0.01, seed: 1 }, down: { ...bh.down, loss: 0.01, seed: 2 } };
    const a = await transferAndAccount(lossy, 1e6);
    const down = a.links.backhaul.down;
    expect(down.modelled.loss).toBeGreaterThan(0);
    expect(down.delivered).toBe(down.entered - down.modelled.loss);
    expect(unmodelled(a)).toEqual(zeros(a, { tunTx: 0, qdisc: 0, relaySocket: 0, ring: 0, socatSocket: 0, tunRx: 0 }));
    expect(unaccounted(a)).toEqual(zeros(a, 0));
    // Each data segment the link dropped was sent again (one lost packet down may be a pure ACK).
    expect(a.tcp.origin.TcpRetransSegs).toBeGreaterThanOrEqual(Math.max(1, down.modelled.loss - 1));
    expect(judgeRun(a.links, { lateP99BarMs: Infinity }).failed).toEqual([]);
  }, 120_000);

  it('a burst of 500 datagrams at line rate through a link reaches the receiver whole', async () => {
    // A link that delivers in bursts: its down direction has 500 delivery opportunities (one
    // 1500-byte datagram each) at the end of every second (a mahimahi trace), so the datagrams
    // queue in the relay and leave it back to back; the edge's socat and its TUN must take them
    // all. (With Linux's default socket buffer, 208 KB, the socat's held ~90.)
    const bursty: LinkSpec = { up: { delayMs: 10 }, down: { delayMs: 10, traceMs: new Array<number>(500).fill(1000) } };
    await withTestbed(bursty, async (tb) => {
      const recv = tb.spawn('client', process.execPath, [script, 'recv', '9100']);
      let out = '';
      recv.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise((r) => recv.once('exit', r));
      await expect.poll(() => out, { timeout: 10_000 }).toContain('ready');
      await tb.exec('origin', process.execPath, [script, 'send', tb.hosts.client.ip, '9100', '500', '1472']);
      await exited;
      expect(JSON.parse(out.slice(out.indexOf('{')))).toEqual({ received: 500, distinct: 500 });
      const a = await tb.account({ settle: true });
      expect(a.links.backhaul.down.entered).toBe(500);
      expect(a.links.ran.down.delivered).toBe(500);
      expect(unmodelled(a)).toEqual(zeros(a, { tunTx: 0, qdisc: 0, relaySocket: 0, ring: 0, socatSocket: 0, tunRx: 0 }));
    });
  }, 60_000);

  it('raises net.core.rmem_max/wmem_max while testbeds live and restores them when the last one closes', async () => {
    const read = (k: string) => Number(readFileSync(`/proc/sys/net/core/${k}`, 'utf8'));
    const before = [read('rmem_max'), read('wmem_max')];
    const one = await createTestbed({ ran: symmetric({ delayMs: 1 }), backhaul: backhaul(2) });
    const two = await createTestbed({ ran: symmetric({ delayMs: 1 }), backhaul: backhaul(2) });
    const raised = (await one.account()).buffers.socketBytes;
    expect(read('rmem_max')).toBeGreaterThanOrEqual(raised);
    await one.close();
    // The other testbed still needs them.
    expect([read('rmem_max'), read('wmem_max')].every((v) => v >= raised)).toBe(true);
    await two.close();
    // Restored, unless another testbed (another test run on this machine) holds them too.
    if (before.every((v) => v < raised)) expect([read('rmem_max'), read('wmem_max')]).toEqual(before);
  }, 60_000);
});
