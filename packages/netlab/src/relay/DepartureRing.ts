/**
 * A single-producer single-consumer queue of datagrams with their departure times, in shared
 * memory: the relay's receiving thread (producer) shapes each datagram and writes it here, its
 * sending thread (consumer) reads it and sends it when it is due. Shared memory rather than
 * postMessage because the sender never returns to its event loop while it waits for a departure
 * (it sleeps in Atomics.wait, the one sub-millisecond sleep Node has), so a message port would
 * never deliver.
 *
 * Layout: an Int32Array header [write offset, read offset, sequence, stop] and a data area of records
 * [length u32 | pipe u32 | departure f64 | bytes, padded to 8]. A record never wraps: when it does
 * not fit before the end, a wrap marker sends the reader back to offset 0.
 */
const HEADER_BYTES = 16;
const RECORD_HEAD = 16;
const WRAP = 0xffffffff;
const W = 0;
const R = 1;
/** Index of the sequence number the consumer sleeps on; bumped after every write. */
export const RING_SEQ = 2;
/** Index of the stop flag: non-zero tells the consumer to end. */
const STOP = 3;

const align8 = (n: number) => (n + 7) & ~7;

export class DepartureRing {
  /** The shared memory: hand it to the other thread's DepartureRing. */
  readonly buffer: SharedArrayBuffer;
  readonly header: Int32Array;
  private readonly view: DataView;
  private readonly bytes: Uint8Array;
  private readonly size: number;

  /** A new ring of `dataBytes` of records (rounded up to 8), or a view of one made in another thread. */
  constructor(source: SharedArrayBuffer | number) {
    const sab = typeof source === 'number' ? new SharedArrayBuffer(HEADER_BYTES + align8(source)) : source;
    this.buffer = sab;
    this.header = new Int32Array(sab, 0, 4);
    this.size = sab.byteLength - HEADER_BYTES;
    this.view = new DataView(sab, HEADER_BYTES);
    this.bytes = new Uint8Array(sab, HEADER_BYTES);
  }

  /**
   * Queues a datagram for pipe `pipe` at `at` (performance.now() ms). False when the ring is
   * full — the consumer has fallen a whole ring behind — and the datagram is the caller's to drop.
   */
  push(pipe: number, at: number, buf: Uint8Array): boolean {
    const need = align8(RECORD_HEAD + buf.length);
    let w = Atomics.load(this.header, W);
    const r = Atomics.load(this.header, R);
    // Free space, keeping one byte unused so that w === r always means empty.
    const free = (start: number, end: number) => (end > start ? end - start - 1 : this.size - start + end - 1);
    if (w + need > this.size) {
      // Wrap: the tail from w is wasted; the record goes at 0, which must not reach r.
      if (r > w || need >= r) return false;
      if (w + 4 <= this.size) this.view.setUint32(w, WRAP, true);
      w = 0;
    } else if (free(w, r) < need) {
      return false;
    }
    this.view.setUint32(w, buf.length, true);
    this.view.setUint32(w + 4, pipe, true);
    this.view.setFloat64(w + 8, at, true);
    this.bytes.set(buf, w + RECORD_HEAD);
    Atomics.store(this.header, W, w + need === this.size ? 0 : w + need);
    Atomics.add(this.header, RING_SEQ, 1);
    Atomics.notify(this.header, RING_SEQ);
    return true;
  }

  /** Bytes of records waiting (with their headers and padding): how far the consumer is behind. */
  usedBytes(): number {
    const w = Atomics.load(this.header, W);
    const r = Atomics.load(this.header, R);
    return w >= r ? w - r : this.size - r + w;
  }

  /** The ring's size, bytes: when usedBytes() nears it, push() starts refusing. */
  get capacityBytes(): number {
    return this.size;
  }

  /** Tells the consumer to end (it sees this within one of its sleeps). */
  stop(): void {
    Atomics.store(this.header, STOP, 1);
    Atomics.notify(this.header, RING_SEQ);
  }

  get stopped(): boolean {
    return Atomics.load(this.header, STOP) !== 0;
  }

  /** Hands every queued record to `take` (with a copy of its bytes), oldest first. */
  drain(take: (pipe: number, at: number, buf: Buffer) => void): number {
    let r = Atomics.load(this.header, R);
    const w = Atomics.load(this.header, W);
    let n = 0;
    while (r !== w) {
      if (r + RECORD_HEAD > this.size || this.view.getUint32(r, true) === WRAP) {
        r = 0;
        continue;
      }
      const len = this.view.getUint32(r, true);
      const pipe = this.view.getUint32(r + 4, true);
      const at = this.view.getFloat64(r + 8, true);
      take(pipe, at, Buffer.from(this.bytes.subarray(r + RECORD_HEAD, r + RECORD_HEAD + len)));
      const next = r + align8(RECORD_HEAD + len);
      r = next === this.size ? 0 : next;
      n += 1;
    }
    Atomics.store(this.header, R, r);
    return n;
  }
}
