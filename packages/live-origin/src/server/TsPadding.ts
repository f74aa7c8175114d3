import { TS_PACKET } from '../ts/TsChunk.js';

/**
 * Shared, preallocated TS padding, written by reference (subarray) so serving a 61 MB segment
 * never copies it per request: null packets on PID 0x1FFF (demuxers drop them). fMP4 is padded
 * inside its video samples instead (`mp4/FillerPadding.ts`).
 */
export class TsPadding {
  private nulls: Buffer | undefined;
  constructor(private readonly maxBytes: number) {}

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
