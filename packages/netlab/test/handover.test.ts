import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backhaul, createTestbed, symmetric, type Testbed } from '@ethle/netlab';

// Issue 21, a handover in netlab: two edges of one fleet in two "cells" behind one service
// address, a virtual receiver in the client namespace playing through edge A; mid-stream its
// traffic is re-routed (kernel routes, real TCP; its connections to A reset) to edge B, which
// takes the session over from A (the token in the receiver's URLs; B asks A for the state). QoE
// is recorded. Runs the built CLIs (npm run build); needs root; in the netlab stage (alone).
const root = process.getuid?.() === 0;
const d = root ? describe : describe.skip;
const repo = new URL('../../../', import.meta.url).pathname;
const EDGE = join(repo, 'packages/edge-node/bin/ethle-edge.js');
const ORIGIN = join(repo, 'packages/live-origin/bin/ethle-origin.js');
const VPLAYER = join(repo, 'packages/virtual-player/bin/ethle-vplayer.js');
const VIP = '10.77.9.1';

type Proc = ReturnType<Testbed['spawn']>;
const lines = (p: Proc): string[] => {
  const out: string[] = [];
  let buf = '';
  p.stdout!.on('data', (c: Buffer) => {
    buf += c.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    out.push(...parts);
  });
  return out;
};
const until = async (cond: () => boolean, what: string, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

d('handover between two edges (netlab)', () => {
  let tb: Testbed | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ethle-handover-'));
  afterAll(async () => {
    await tb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a receiver re-routed from edge A to edge B mid-stream keeps its session: same x, no jump, QoE recorded', async () => {
    // RAN 20 ms RTT; backhaul 80 ms: edge A (edge namespace) is far from the origin, edge B sits
    // in the origin's namespace (the other cell's edge, reached across the backhaul).
    tb = await createTestbed({ ran: symmetric({ delayMs: 10 }), backhaul: backhaul(80) });
    for (const host of ['edge', 'origin'] as const) await tb.exec(host, 'ip', ['addr', 'add', `${VIP}/32`, 'dev', 'lo']);
    const origin = tb.spawn('origin', process.execPath, [ORIGIN, '--host', '0.0.0.0', '--port', '8081', '--streams', '2M-2s']);
    const secret = join(dir, 'secret');
    writeFileSync(secret, 'netlab-fleet-secret-0123456789\n');
    const config = (pathway: string, peer: string, peerUrl: string) => {
      const f = join(dir, `${pathway}.json`);
      writeFileSync(f, JSON.stringify({ fleet: { pathway, publicUrl: `http://${VIP}:8080`, peers: [{ id: peer, url: peerUrl }] } }));
      return f;
    };
    // A thinks its receivers' radio slow (hold-x from the first request), B fast (a new receiver is hold-0 there).
    const edgeArgs = (originUrl: string, cfg: string, ran: string) => [
      EDGE,
      'serve',
      '--origin',
      originUrl,
      '--host',
      '0.0.0.0',
      '--port',
      '8080',
      '--hold',
      'auto',
      '--default-ran-mbps',
      ran,
      '--config',
      cfg,
      '--session-secret-file',
      secret,
      '--log-level',
      'info',
    ];
    const a = tb.spawn(
      'edge',
      process.execPath,
      edgeArgs(`http://${tb.hosts.origin.ip}:8081`, config('edge-a', 'edge-b', `http://${tb.hosts.origin.ip}:8080`), '2.5'),
    );
    const b = tb.spawn(
      'origin',
      process.execPath,
      edgeArgs('http://127.0.0.1:8081', config('edge-b', 'edge-a', `http://${tb.hosts.edge.backhaulIp}:8080`), '1000'),
    );
    const [aLog, bLog, originLog] = [lines(a), lines(b), lines(origin)];
    await until(
      () => originLog.some((l) => /listening/.test(l)) && aLog.some((l) => /listening/.test(l)) && bLog.some((l) => /listening/.test(l)),
      'origin and edges listening',
    );

    const seconds = 26;
    const player = tb.spawn('client', process.execPath, [
      VPLAYER,
      '--url',
      `http://${VIP}:8080/live/master.m3u8?seconds=2`,
      '--seconds',
      String(seconds),
      '--scheme',
      'handover',
    ]);
    const playerOut: string[] = [];
    player.stdout!.on('data', (c: Buffer) => playerOut.push(c.toString()));
    const done = new Promise<number | null>((r) => player.once('exit', r));

    // Mid-stream, the handover: the service address leaves cell A; the edge namespace routes it on to B.
    await new Promise((r) => setTimeout(r, 11_000));
    const handoverAt = Date.now();
    await tb.exec('edge', 'ip', ['addr', 'del', `${VIP}/32`, 'dev', 'lo']);
    await tb.exec('edge', 'ip', ['route', 'add', `${VIP}/32`, 'via', tb.hosts.origin.ip]);
    // The old cell resets the receiver's connections to A (without it they hang until the
    // player's timeout, 10 s in hls.js: B's kernel answers them with nothing, measured).
    await tb.exec('edge', 'ss', ['-K', '-t', 'dst', tb.hosts.client.ip]);
    expect(await done).toBe(0);

    const run = JSON.parse(playerOut.join('')) as {
      report: {
        startupMs: number | null;
        stalls: { count: number; totalMs: number };
        latency: { mean: number | null };
        segments: { count: number; list: Array<{ url: string; requestStart: number }> };
      };
    };
    const adopted = bLog
      .filter((l) => /session adopted/.test(l))
      .map((l) => JSON.parse(l) as { from: string; x: number; requests: number; group: string });
    const holdsA = aLog.filter((l) => /hold change/.test(l)).map((l) => (JSON.parse(l) as { hold: number }).hold);
    const media = run.report.segments.list.filter((s) => /\/\d+\.m4s$/.test(s.url));
    const seq = media.map((s) => Number(/\/(\d+)\.m4s$/.exec(s.url)![1]));
    const figures = {
      startupMs: run.report.startupMs,
      stalls: run.report.stalls,
      meanLatencyS: run.report.latency.mean,
      mediaSegments: media.length,
      mediaSegmentsAfterHandover: media.filter((s) => s.requestStart >= handoverAt).length,
      xAtA: holdsA.at(-1),
      adopted,
    };
    console.log(`handover (netlab): ${JSON.stringify(figures)}`);
    // B took the session over from A with A's group and x, and its requests.
    expect(adopted).toHaveLength(1);
    expect(adopted[0]).toMatchObject({ from: 'edge-a', group: 'hold-x' });
    expect(adopted[0]!.x).toBeGreaterThan(0);
    expect(adopted[0]!.requests).toBeGreaterThan(3);
    // Playback went on through B: segments after the handover, none skipped, none twice.
    expect(figures.mediaSegmentsAfterHandover).toBeGreaterThan(3);
    for (let i = 1; i < seq.length; i++) expect(seq[i], `segment ${i}`).toBe(seq[i - 1]! + 1);
  }, 120_000);
});
