// A relay's sending thread: takes shaped datagrams from the DepartureRing and sends each at its
// departure time. It sleeps in Atomics.wait, which wakes within ~0.1 ms (measured: p99 0.09 ms at
// SCHED_FIFO, 0.03 ms with both cores busy), where a Node timer fires on whole milliseconds
// (p99 0.84–0.89 ms late even on an idle box): with timers, a relay's own lateness alone would
// take most of the lateness bar (LATE_P99_LIMIT_MS) and any load push it over.
import { createSocket, type Socket } from 'node:dgram';
import { parentPort, workerData } from 'node:worker_threads';
import { DepartureRing, RING_SEQ } from './DepartureRing.js';
import { FreezeSchedule, type LatenessInjection } from './FreezeSchedule.js';
import { LatenessHistogram } from './LatenessHistogram.js';
import { ownThreadId } from './threadTimes.js';

export interface SenderData {
  ring: SharedArrayBuffer;
  /** Per pipe: the local port it sends to and the histogram (index into `lateness`) it records in. */
  pipes: { port: number; lateness: number }[];
  lateness: SharedArrayBuffer[];
  /** How early a datagram leaves against its departure time: the socat and TUN hop after the relay. */
  earlyMs: number;
  /** SO_SNDBUF of its sockets (linkBuffers). */
  socketBytes: number;
  /**
   * Lateness put in on purpose (freezes of this thread); with it, each `natural` histogram (same
   * index as `lateness`) records each datagram's lateness beyond the freeze that held it — the
   * box's own — and `injected` (Float64Array [freezes, frozen ms]) what the freezes cost.
   */
  injection?: { spec: LatenessInjection; natural: SharedArrayBuffer[]; injected: SharedArrayBuffer };
}

/** Longest sleep without looking at the stop flag and the event loop, ms. */
const MAX_SLEEP_MS = 20;

/** One pipe's departures: a FIFO whose times only grow (one user's delay walk and rate). */
class PipeQueue {
  private at: number[] = [];
  private buf: Buffer[] = [];
  private head = 0;
  constructor(
    private readonly socket: Socket,
    private readonly lateness: LatenessHistogram,
    private readonly earlyMs: number,
    private readonly natural: LatenessHistogram | undefined,
  ) {}

  push(at: number, buf: Buffer): void {
    this.at.push(at);
    this.buf.push(buf);
  }

  /**
   * Sends every datagram whose departure is by `until` (now + earlyMs); returns the next departure
   * time (Infinity: none). `thawedAt`: when the last injected freeze ended.
   */
  sendDue(until: number, thawedAt: number): number {
    while (this.head < this.at.length && this.at[this.head]! <= until) {
      // A connected socket sends synchronously (uv_udp_try_send): no event loop needed.
      this.socket.send(this.buf[this.head]!);
      // Against the planned release (departure − earlyMs), so the figure is the relay's own error.
      const planned = this.at[this.head]! - this.earlyMs;
      const now = performance.now();
      this.lateness.record(now - planned);
      this.natural?.record(now - Math.max(planned, thawedAt));
      this.buf[this.head] = undefined as unknown as Buffer;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.at.length) {
      this.at = this.at.slice(this.head);
      this.buf = this.buf.slice(this.head);
      this.head = 0;
    }
    return this.head < this.at.length ? this.at[this.head]! : Infinity;
  }
}

async function connected(port: number, bufferBytes: number): Promise<Socket> {
  const s = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.connect(port, '127.0.0.1', () => resolve());
  });
  s.setSendBufferSize(bufferBytes);
  return s;
}

async function run(data: SenderData): Promise<void> {
  const ring = new DepartureRing(data.ring);
  const histograms = data.lateness.map((b) => new LatenessHistogram(b));
  const natural = data.injection?.natural.map((b) => new LatenessHistogram(b));
  const sockets = new Map<number, Socket>();
  for (const { port } of data.pipes) if (!sockets.has(port)) sockets.set(port, await connected(port, data.socketBytes));
  const pipes = data.pipes.map((p) => new PipeQueue(sockets.get(p.port)!, histograms[p.lateness]!, data.earlyMs, natural?.[p.lateness]));
  const freezes = data.injection ? new FreezeSchedule(data.injection.spec) : undefined;
  const injected = data.injection ? new Float64Array(data.injection.injected) : undefined;
  /** The freezes' clock starts with the first datagram, as the cell's load does: the same freezes for every scheme of a repeat. */
  let t0: number | undefined;
  let thawedAt = -Infinity;
  const frozen = new Int32Array(new SharedArrayBuffer(4));
  const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
  let lastYield = performance.now();
  while (!ring.stopped) {
    const seq = Atomics.load(ring.header, RING_SEQ);
    if (freezes) {
      if (t0 === undefined && ring.drain((pipe, at, buf) => pipes[pipe]!.push(at, buf)) > 0) t0 = performance.now();
      if (t0 !== undefined) {
        // Frozen: nothing runs here until the freeze ends (a notification from the receiving thread does not wake it).
        let now = performance.now();
        const thaw = freezes.thawAt(now - t0) + t0;
        if (thaw > now) {
          while (now < thaw) {
            Atomics.wait(frozen, 0, 0, thaw - now);
            now = performance.now();
          }
          thawedAt = thaw;
        }
        const s = freezes.statsAt(now - t0);
        injected![0] = s.freezes;
        injected![1] = s.frozenMs;
      }
    }
    ring.drain((pipe, at, buf) => pipes[pipe]!.push(at, buf));
    const until = performance.now() + data.earlyMs;
    let next = Infinity;
    for (const p of pipes) next = Math.min(next, p.sendDue(until, thawedAt));
    const now = performance.now();
    // Now and then let the event loop run: a send the kernel could not take at once completes there.
    if (now - lastYield > MAX_SLEEP_MS) {
      await yieldToLoop();
      lastYield = performance.now();
      continue;
    }
    const sleep = next - data.earlyMs - now;
    // Wakes at the next departure, or at once when the receiving thread queues a datagram.
    if (sleep > 0) Atomics.wait(ring.header, RING_SEQ, seq, Math.min(sleep, MAX_SLEEP_MS));
  }
  for (const s of sockets.values()) s.close();
}

// Its thread id, so the testbed can raise its priority above the forwarding threads' and read its times.
parentPort?.postMessage({ type: 'tid', tid: ownThreadId() });
void run(workerData as SenderData);
