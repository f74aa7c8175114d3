// One link's user-space relay, run as its own process (one per link): UDP datagrams from the
// socat of side A (a TUN device in one namespace) go to side B's socat after the `up` shaping,
// and back after the `down` shaping. This thread receives and shapes; a sending thread
// (senderMain) sends each datagram at its departure time. Started by startRelay through fork(), with the
// path of its JSON config (a RelayConfig) as the only argument.
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { CellShaper, userOf } from './CellShaper.js';
import type { CellSpec } from './CellSpec.js';
import { DepartureRing } from './DepartureRing.js';
import { DirectionShaper } from './DirectionShaper.js';
import { latenessInjectionProblem, type LatenessInjection } from './FreezeSchedule.js';
import { LatenessHistogram } from './LatenessHistogram.js';
import { seededRandom } from './seededRandom.js';
import { spinReport, threadRunMs } from './spinReport.js';
import type { LinkSpec } from './LinkSpec.js';
import type { ShaperStats } from './DirectionShaper.js';
import type { SenderData } from './senderMain.js';
import { threadTimes } from './threadTimes.js';

export interface RelayConfig {
  /** Port the relay listens on for side A's socat; side A's socat listens on aPeer. */
  aListen: number;
  aPeer: number;
  bListen: number;
  bPeer: number;
  link: LinkSpec;
  /**
   * Several users on side A (the client side): datagrams are told apart by the client's IPv4
   * address, user i at `a.b.c.(firstHost + i)`, and shaped as a cell (CellSpec).
   */
  cell?: CellSpec & { firstHost: number };
  /** SO_RCVBUF/SO_SNDBUF of the relay's sockets, bytes (linkBuffers(); the kernel caps it at net.core.rmem_max/wmem_max, which the testbed raises). */
  socketBytes: number;
  /** Freeze the sending thread at seeded moments (FreezeSchedule), to measure what lateness does. */
  lateness?: LatenessInjection;
}

/**
 * Measured here: relay + socat + TUN add ≈ 0.5 ms per traversal, so a datagram leaves the relay
 * that much before it is due at the far TUN; the sending thread itself wakes ≲ 0.1 ms late.
 */
const EARLY_MS = 0.5;
/** Shaped datagrams waiting for the sending thread to take them (it takes them within ~0.1 ms). */
const RING_BYTES = 8 * 1024 * 1024;

interface Pipes {
  /** Pipe ids of this direction's users (one without a cell), and where they send. */
  ids: number[];
  lateness: LatenessHistogram;
  /** With lateness injected: the lateness beyond the freezes (the box's own). */
  natural?: LatenessHistogram;
}

/**
 * One direction: its shaping, in this (receiving) thread; the departures, in the sending thread's
 * pipes, one FIFO per user (a user's departures only ever grow; two users' do not, as each has
 * its own delay walk).
 */
function direction(
  spec: LinkSpec['up'],
  cell: RelayConfig['cell'],
  clientSide: 'src' | 'dst',
  ring: DepartureRing,
  pipes: Pipes,
  ringUse: { highWaterBytes: number },
) {
  const rnd = (seed: number | undefined) => (seed === undefined ? Math.random : seededRandom(seed));
  let received = 0;
  let ringFull = 0;
  const queue = (pipe: number, buf: Buffer, at: number | null) => {
    received += 1;
    if (at === null) return;
    if (!ring.push(pipe, at, buf)) ringFull += 1;
    else ringUse.highWaterBytes = Math.max(ringUse.highWaterBytes, ring.usedBytes());
  };
  const counters = (shaper: { stats: ShaperStats }) => {
    const lateness = pipes.lateness.summary();
    return {
      ...shaper.stats,
      received,
      sent: lateness.count,
      lateness,
      ringFull,
      ...(pipes.natural ? { naturalLateness: pipes.natural.summary() } : {}),
    };
  };
  if (!cell || cell.users <= 1) {
    const shaper = new DirectionShaper(spec, rnd(spec.seed));
    return {
      push: (buf: Buffer) => queue(pipes.ids[0]!, buf, shaper.admit(buf.length, performance.now())),
      stats: () => counters(shaper),
      received: () => received,
    };
  }
  const shaper = new CellShaper(spec, cell, rnd);
  return {
    push(buf: Buffer) {
      const user = userOf(buf, clientSide, cell.firstHost, cell.users);
      queue(pipes.ids[user]!, buf, shaper.admit(user, buf.length, performance.now()));
    },
    stats: () => ({ ...counters(shaper), userBytes: shaper.userBytes() }),
    received: () => received,
  };
}

/** The sending thread, and each direction's pipes in it. */
async function startSender(
  cfg: RelayConfig,
  ring: DepartureRing,
): Promise<{ worker: Worker; toB: Pipes; toA: Pipes; injected?: Float64Array; tid?: number }> {
  const users = cfg.cell && cfg.cell.users > 1 ? cfg.cell.users : 1;
  const inject = cfg.lateness && (cfg.lateness.p99Ms > 0 || cfg.lateness.stallsPerMinute > 0) ? cfg.lateness : undefined;
  const toB: Pipes = { ids: [], lateness: new LatenessHistogram(), ...(inject ? { natural: new LatenessHistogram() } : {}) };
  const toA: Pipes = { ids: [], lateness: new LatenessHistogram(), ...(inject ? { natural: new LatenessHistogram() } : {}) };
  const injected = inject ? new Float64Array(new SharedArrayBuffer(16)) : undefined;
  const data: SenderData = {
    ring: ring.buffer,
    pipes: [],
    lateness: [toB.lateness.buffer, toA.lateness.buffer],
    earlyMs: EARLY_MS,
    socketBytes: cfg.socketBytes,
    ...(inject
      ? {
          injection: { spec: inject, natural: [toB.natural!.buffer, toA.natural!.buffer], injected: injected!.buffer as SharedArrayBuffer },
        }
      : {}),
  };
  for (const [pipes, port, hist] of [
    [toB, cfg.bPeer, 0],
    [toA, cfg.aPeer, 1],
  ] as const) {
    for (let u = 0; u < users; u++) {
      pipes.ids.push(data.pipes.length);
      data.pipes.push({ port, lateness: hist });
    }
  }
  const worker = new Worker(new URL('./senderMain.js', import.meta.url), { workerData: data });
  // Its first message is its thread id (undefined without /proc/thread-self).
  const tid = await new Promise<number | undefined>((resolve, reject) => {
    worker.once('message', (m: { type: string; tid?: number }) => resolve(m.type === 'tid' ? m.tid : undefined));
    worker.once('error', reject);
  });
  return { worker, toB, toA, ...(injected ? { injected } : {}), ...(tid !== undefined ? { tid } : {}) };
}

async function start(cfg: RelayConfig): Promise<void> {
  const problem = cfg.lateness && latenessInjectionProblem(cfg.lateness);
  if (problem) throw new Error(`lateness injection: ${problem}`);
  const a = createSocket('udp4');
  const b = createSocket('udp4');
  const ring = new DepartureRing(RING_BYTES);
  const ringUse = { highWaterBytes: 0 };
  const sender = await startSender(cfg, ring);
  sender.worker.on('error', (e) => {
    process.send?.({ type: 'error', message: `sending thread: ${e.message}` });
    process.exit(1);
  });
  const toB = direction(cfg.link.up, cfg.cell, 'src', ring, sender.toB, ringUse);
  const toA = direction(cfg.link.down, cfg.cell, 'dst', ring, sender.toA, ringUse);
  a.on('message', (m) => toB.push(m));
  b.on('message', (m) => toA.push(m));
  let bound = 0;
  const ready = () => {
    bound += 1;
    if (bound === 2) process.send?.({ type: 'ready', ...(sender.tid !== undefined ? { senderTid: sender.tid } : {}) });
  };
  for (const s of [a, b]) {
    s.on('error', (e) => {
      process.send?.({ type: 'error', message: e.message });
      process.exit(1);
    });
  }
  for (const [s, port] of [
    [a, cfg.aListen],
    [b, cfg.bListen],
  ] as const) {
    s.bind(port, '127.0.0.1', () => {
      s.setRecvBufferSize(cfg.socketBytes);
      s.setSendBufferSize(cfg.socketBytes);
      ready();
    });
  }
  process.on('message', (msg: { type: string }) => {
    if (msg.type === 'stats') {
      const ringStats = { bytes: ring.capacityBytes, highWaterBytes: ringUse.highWaterBytes };
      const injected = sender.injected ? { injected: { freezes: sender.injected[0]!, frozenMs: sender.injected[1]! } } : {};
      const receiving = threadTimes(process.pid, process.pid);
      const sending = sender.tid !== undefined ? threadTimes(process.pid, sender.tid) : undefined;
      const threads = receiving && sending ? { threads: { receiving, sending } } : {};
      process.send?.({ type: 'stats', up: toB.stats(), down: toA.stats(), ring: ringStats, ...injected, ...threads });
    }
  });
  // SIGXCPU: a thread of this process ran its RLIMIT_RTTIME at real-time priority without sleeping.
  // Its default ends the process at once and says nothing of which thread; here this thread —
  // unless it is the one spinning, when the hard limit's SIGKILL follows — first measures which
  // thread is on a core, says so, then lets the signal end the process as before.
  process.once('SIGXCPU', () => {
    const windowMs = 50;
    const before = threadRunMs(process.pid);
    // The datagrams that came meanwhile: a receiving thread on a core the whole window with few of
    // them is a loop that spun; with thousands, the load outran it (a flood, a routing loop).
    const got = [toB.received(), toA.received()];
    setTimeout(() => {
      const names: Record<number, string> = {
        [process.pid]: 'receiving',
        ...(sender.tid !== undefined ? { [sender.tid]: 'sending' } : {}),
      };
      const report = `${spinReport(before, threadRunMs(process.pid), names, windowMs)}; datagrams received in those ${windowMs} ms: up ${toB.received() - got[0]!}, down ${toA.received() - got[1]!}`;
      console.error(`relay (pid ${process.pid}): SIGXCPU, ${report}`);
      process.send?.({ type: 'spin', report }, () => process.kill(process.pid, 'SIGXCPU'));
      if (!process.send) process.kill(process.pid, 'SIGXCPU');
    }, windowMs);
  });
  process.on('disconnect', () => {
    ring.stop();
    a.close();
    b.close();
    process.exit(0);
  });
}

start(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as RelayConfig).catch((e: Error) => {
  process.send?.({ type: 'error', message: e.message });
  process.exit(1);
});
