/**
 * One 2 s chunk of MPEG-TS from the committed loop, indexed for the rewrites that make the loop
 * one continuous stream: PTS/DTS in PES headers, PCR in adaptation fields, and the per-PID
 * continuity counters (renumbered globally so they never jump, also across the loop boundary).
 */
export const TS_PACKET = 188;

export interface TsChunk {
  bytes: Buffer;
  /** Offsets of 5-byte PTS/DTS fields. */
  timestampOffsets: number[];
  /** Offsets of 6-byte PCR fields. */
  pcrOffsets: number[];
  /** For each packet carrying payload: its offset and PID (continuity counter renumbering). */
  payloadPackets: { offset: number; pid: number }[];
  /** Payload-carrying packets per PID in this chunk. */
  payloadCount: Map<number, number>;
}

export function parseTsChunk(bytes: Buffer): TsChunk {
  if (bytes.length % TS_PACKET !== 0) throw new Error(`TS chunk of ${bytes.length} bytes is not a whole number of packets`);
  const timestampOffsets: number[] = [];
  const pcrOffsets: number[] = [];
  const payloadPackets: TsChunk['payloadPackets'] = [];
  const payloadCount = new Map<number, number>();
  for (let p = 0; p < bytes.length; p += TS_PACKET) {
    if (bytes[p] !== 0x47) throw new Error(`lost TS sync at ${p}`);
    const pid = ((bytes[p + 1]! & 0x1f) << 8) | bytes[p + 2]!;
    const pusi = (bytes[p + 1]! & 0x40) !== 0;
    const afc = (bytes[p + 3]! >> 4) & 3;
    let payload = p + 4;
    if (afc & 2) {
      const afLen = bytes[p + 4]!;
      if (afLen > 0 && bytes[p + 5]! & 0x10) pcrOffsets.push(p + 6);
      payload = p + 5 + afLen;
    }
    if (afc & 1) {
      payloadPackets.push({ offset: p, pid });
      payloadCount.set(pid, (payloadCount.get(pid) ?? 0) + 1);
      // A PES header (00 00 01 + stream id); PSI sections (PAT/PMT) start with a pointer field instead.
      if (pusi && bytes[payload] === 0 && bytes[payload + 1] === 0 && bytes[payload + 2] === 1) {
        const flags = bytes[payload + 7]! >> 6;
        if (flags & 2) timestampOffsets.push(payload + 9);
        if (flags === 3) timestampOffsets.push(payload + 14);
      }
    }
  }
  return { bytes, timestampOffsets, pcrOffsets, payloadPackets, payloadCount };
}

const WRAP = 2n ** 33n;

function readTs(b: Buffer, o: number): bigint {
  return (
    (BigInt((b[o]! >> 1) & 0x07) << 30n) |
    (BigInt(b[o + 1]!) << 22n) |
    (BigInt(b[o + 2]! >> 1) << 15n) |
    (BigInt(b[o + 3]!) << 7n) |
    BigInt(b[o + 4]! >> 1)
  );
}

function writeTs(b: Buffer, o: number, v: bigint): void {
  const n = Number(v);
  b[o] = (b[o]! & 0xf1) | ((Math.floor(n / 2 ** 30) & 0x07) << 1);
  b[o + 1] = (n >>> 22) & 0xff;
  b[o + 2] = (((n >>> 15) & 0x7f) << 1) | 1;
  b[o + 3] = (n >>> 7) & 0xff;
  b[o + 4] = ((n & 0x7f) << 1) | 1;
}

/**
 * Copies `chunk` into `out` at `at`, adding `shift90k` (90 kHz ticks, mod 2^33) to every PTS, DTS
 * and PCR base, and numbering continuity counters from `counters` (per PID, updated in place).
 */
export function writeTsChunk(chunk: TsChunk, out: Buffer, at: number, shift90k: bigint, counters: Map<number, number>): void {
  chunk.bytes.copy(out, at);
  for (const o of chunk.timestampOffsets) writeTs(out, at + o, (readTs(chunk.bytes, o) + shift90k) % WRAP);
  for (const o of chunk.pcrOffsets) {
    const b = chunk.bytes;
    const base =
      (BigInt(b[o]!) << 25n) | (BigInt(b[o + 1]!) << 17n) | (BigInt(b[o + 2]!) << 9n) | (BigInt(b[o + 3]!) << 1n) | BigInt(b[o + 4]! >> 7);
    const v = Number((base + shift90k) % WRAP);
    const q = at + o;
    out[q] = Math.floor(v / 2 ** 25) & 0xff;
    out[q + 1] = (v >>> 17) & 0xff;
    out[q + 2] = (v >>> 9) & 0xff;
    out[q + 3] = (v >>> 1) & 0xff;
    out[q + 4] = ((v & 1) << 7) | (b[o + 4]! & 0x7f);
  }
  for (const { offset, pid } of chunk.payloadPackets) {
    const cc = counters.get(pid) ?? 0;
    out[at + offset + 3] = (out[at + offset + 3]! & 0xf0) | cc;
    counters.set(pid, (cc + 1) & 0x0f);
  }
}

/** Reads the PTS of the first PES header in `b` (tests and diagnostics). */
export function firstPts(b: Buffer): bigint | undefined {
  const c = parseTsChunk(b);
  const o = c.timestampOffsets[0];
  return o === undefined ? undefined : readTs(b, o);
}
