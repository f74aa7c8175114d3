// One link's user-space relay, run as its own process (one event loop per link): UDP datagrams
// from the socat of side A (a TUN device in one namespace) go to side B's socat after the
// `up` shaping, and back after the `down` shaping. Started by startRelay through fork(), with the
// path of its JSON config (a RelayConfig) as the only argument.
import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { CellShaper, userOf } from './CellShaper.js';
import type { CellSpec } from './CellSpec.js';
import { DirectionShaper } from './DirectionShaper.js';
import { LatenessHistogram } from './LatenessHistogram.js';
import { seededRandom } from './seededRandom.js';
import type { LinkSpec } from './LinkSpec.js';

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
}

/** Measured here: relay + socat + TUN add ≈ 0.5 ms per traversal; timers fire ≈ 0.5 ms late. */
const EARLY_MS = 1;

interface Pending {
  at: number;
  buf: Buffer;
}

/** A FIFO of packets with monotonically increasing departure times, and one timer for its head. */
class Pipe {
  private q: Pending[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly out: Socket,
    private readonly port: number,
    /** How late each datagram left against its departure time (the relay's own timing error); shared by a direction's pipes. */
    readonly lateness: LatenessHistogram,
  ) {}

  /** Queues a datagram leaving at `at` (never earlier than the one queued before it). */
  push(buf: Buffer, at: number): void {
    this.q.push({ at, buf });
    if (this.q.length - this.head === 1) this.arm();
  }

  private arm(): void {
    const next = this.q[this.head];
    if (!next) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), Math.max(0, next.at - EARLY_MS - performance.now()));
  }

  private flush(): void {
    // Node timers fire on whole ms and late; with the socat and loopback hops a packet would
    // always arrive ~0.5 ms after its due time. Releasing up to EARLY_MS early centres the error.
    const now = performance.now() + EARLY_MS;
    while (this.head < this.q.length && this.q[this.head]!.at <= now) {
      const p = this.q[this.head]!;
      this.out.send(p.buf, this.port, '127.0.0.1');
      this.lateness.record(performance.now() - p.at);
      this.q[this.head] = undefined as unknown as Pending;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.q.length) {
      this.q = this.q.slice(this.head);
      this.head = 0;
    }
    this.arm();
  }

  close(): void {
    clearTimeout(this.timer);
  }
}

/**
 * One direction: its shaping and a FIFO pipe per user (a user's departures only ever grow; two
 * users' do not, as each has its own delay walk).
 */
function direction(spec: LinkSpec['up'], cell: RelayConfig['cell'], clientSide: 'src' | 'dst', out: Socket, port: number) {
  const rnd = (seed: number | undefined) => (seed === undefined ? Math.random : seededRandom(seed));
  const lateness = new LatenessHistogram();
  if (!cell || cell.users <= 1) {
    const shaper = new DirectionShaper(spec, rnd(spec.seed));
    const pipe = new Pipe(out, port, lateness);
    return {
      push(buf: Buffer) {
        const at = shaper.admit(buf.length, performance.now());
        if (at !== null) pipe.push(buf, at);
      },
      stats: () => ({ ...shaper.stats, lateness: lateness.summary() }),
      close: () => pipe.close(),
    };
  }
  const shaper = new CellShaper(spec, cell, rnd);
  const pipes = Array.from({ length: cell.users }, () => new Pipe(out, port, lateness));
  return {
    push(buf: Buffer) {
      const user = userOf(buf, clientSide, cell.firstHost, cell.users);
      const at = shaper.admit(user, buf.length, performance.now());
      if (at !== null) pipes[user]!.push(buf, at);
    },
    stats: () => ({ ...shaper.stats, lateness: lateness.summary(), userBytes: shaper.userBytes() }),
    close: () => pipes.forEach((p) => p.close()),
  };
}

function start(cfg: RelayConfig): void {
  const a = createSocket('udp4');
  const b = createSocket('udp4');
  const toB = direction(cfg.link.up, cfg.cell, 'src', b, cfg.bPeer);
  const toA = direction(cfg.link.down, cfg.cell, 'dst', a, cfg.aPeer);
  a.on('message', (m) => toB.push(m));
  b.on('message', (m) => toA.push(m));
  let bound = 0;
  const ready = () => {
    bound += 1;
    if (bound === 2) process.send?.({ type: 'ready' });
  };
  for (const s of [a, b]) {
    s.on('error', (e) => {
      process.send?.({ type: 'error', message: e.message });
      process.exit(1);
    });
  }
  a.bind(cfg.aListen, '127.0.0.1', () => {
    a.setRecvBufferSize(8 * 1024 * 1024);
    a.setSendBufferSize(8 * 1024 * 1024);
    ready();
  });
  b.bind(cfg.bListen, '127.0.0.1', () => {
    b.setRecvBufferSize(8 * 1024 * 1024);
    b.setSendBufferSize(8 * 1024 * 1024);
    ready();
  });
  process.on('message', (msg: { type: string }) => {
    if (msg.type === 'stats') {
      process.send?.({ type: 'stats', up: toB.stats(), down: toA.stats() });
    }
  });
  process.on('disconnect', () => {
    toA.close();
    toB.close();
    a.close();
    b.close();
    process.exit(0);
  });
}

start(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as RelayConfig);
