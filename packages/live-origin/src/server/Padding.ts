import { TS_PACKET } from '../ts/TsChunk.js';

/**
 * Shared, preallocated padding, written by reference (subarray) so serving a 61 MB segment never
 * copies it per request. fMP4 pads with one top-level `free` box (players and MSE skip it); TS
 * pads with null packets on PID 0x1FFF (demuxers drop them).
 */
export class Padding {
  private zeros: Buffer | undefined;
  private nulls: Buffer | undefined;
  constructor(private readonly maxBytes: number) {}

  /** Chunks that make a `free` box of exactly `bytes` (≥ 8) bytes; [] if fewer than 8 are needed. */
  mp4(bytes: number): Buffer[] {
    if (bytes < 8) return [];
    this.zeros ??= Buffer.alloc(this.maxBytes);
    const header = Buffer.allocUnsafe(8);
    header.writeUInt32BE(bytes, 0);
    header.write('free', 4, 'latin1');
    return [header, this.zeros.subarray(0, bytes - 8)];
  }

  /** Whole null packets filling at most `bytes`. */
  ts(bytes: number): Buffer[] {
    const packets = Math.floor(bytes / TS_PACKET);
    if (packets <= 0) return [];
    if (!this.nulls) {
      const n = Math.ceil(this.maxBytes / TS_PACKET);
      this.nulls = Buffer.alloc(n * TS_PACKET, 0xff);
      for (let i = 0; i < n; i++) {
        const p = i * TS_PACKET;
        this.nulls[p] = 0x47;
        this.nulls[p + 1] = 0x1f;
        this.nulls[p + 2] = 0xff;
        this.nulls[p + 3] = 0x10; // payload only; continuity counter is ignored on null packets
      }
    }
    return [this.nulls.subarray(0, packets * TS_PACKET)];
  }
}
