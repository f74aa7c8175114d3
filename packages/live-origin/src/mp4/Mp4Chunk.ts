import { child, readBoxes } from './readBoxes.js';

/**
 * One 2 s chunk of fragmented MP4 (moof+mdat pairs) from the committed loop, with the byte
 * positions the origin rewrites when it repeats the loop: every tfdt (decode time) and every mfhd
 * (fragment sequence number). Per-segment `sidx` boxes are dropped: their times would be wrong
 * after the first loop and players don't need them in live fMP4.
 */
export interface Mp4Chunk {
  bytes: Buffer;
  /** Offsets of mfhd sequence_number fields in `bytes`. */
  sequenceOffsets: number[];
  /** Offsets of tfdt baseMediaDecodeTime (64-bit) fields, with their track. */
  decodeTimeOffsets: { offset: number; trackId: number }[];
  /** Decode time of the chunk's first sample, per track (timescale units). */
  firstDecodeTime: Map<number, number>;
  /** Sum of sample durations in the chunk, per track. */
  duration: Map<number, number>;
}

/** Per-track defaults from the init segment's `trex` boxes (used when a fragment omits durations). */
export function readTrexDefaults(init: Buffer): Map<number, number> {
  const out = new Map<number, number>();
  const moov = readBoxes(init).find((b) => b.type === 'moov');
  const mvex = moov && child(init, moov, 'mvex');
  if (!mvex) return out;
  for (const trex of readBoxes(init, mvex.payload, mvex.end).filter((b) => b.type === 'trex')) {
    out.set(init.readUInt32BE(trex.payload + 4), init.readUInt32BE(trex.payload + 12));
  }
  return out;
}

/** The timescale of each track, from the init segment's mdhd boxes. */
export function readTimescales(init: Buffer): Map<number, number> {
  const out = new Map<number, number>();
  const moov = readBoxes(init).find((b) => b.type === 'moov');
  if (!moov) throw new Error('init segment without moov');
  for (const trak of readBoxes(init, moov.payload, moov.end).filter((b) => b.type === 'trak')) {
    const tkhd = child(init, trak, 'tkhd')!;
    const trackId = init.readUInt32BE(tkhd.payload + (init[tkhd.payload] === 1 ? 20 : 12));
    const mdia = child(init, trak, 'mdia')!;
    const mdhd = child(init, mdia, 'mdhd')!;
    const timescale = init.readUInt32BE(mdhd.payload + (init[mdhd.payload] === 1 ? 20 : 12));
    out.set(trackId, timescale);
  }
  return out;
}

/** The id of the init segment's video track (handler `vide`), undefined if it has none. */
export function readVideoTrackId(init: Buffer): number | undefined {
  const moov = readBoxes(init).find((b) => b.type === 'moov');
  if (!moov) throw new Error('init segment without moov');
  for (const trak of readBoxes(init, moov.payload, moov.end).filter((b) => b.type === 'trak')) {
    const hdlr = child(init, child(init, trak, 'mdia')!, 'hdlr');
    if (hdlr && init.toString('latin1', hdlr.payload + 8, hdlr.payload + 12) === 'vide') {
      const tkhd = child(init, trak, 'tkhd')!;
      return init.readUInt32BE(tkhd.payload + (init[tkhd.payload] === 1 ? 20 : 12));
    }
  }
  return undefined;
}

export function parseMp4Chunk(file: Buffer, trexDefaults: Map<number, number>): Mp4Chunk {
  const kept = readBoxes(file).filter((b) => b.type !== 'sidx');
  const bytes = Buffer.concat(kept.map((b) => file.subarray(b.start, b.end)));
  const sequenceOffsets: number[] = [];
  const decodeTimeOffsets: Mp4Chunk['decodeTimeOffsets'] = [];
  const firstDecodeTime = new Map<number, number>();
  const duration = new Map<number, number>();
  for (const moof of readBoxes(bytes).filter((b) => b.type === 'moof')) {
    for (const box of readBoxes(bytes, moof.payload, moof.end)) {
      if (box.type === 'mfhd') sequenceOffsets.push(box.payload + 4);
      if (box.type !== 'traf') continue;
      const tfhd = child(bytes, box, 'tfhd');
      const tfdt = child(bytes, box, 'tfdt');
      if (!tfhd || !tfdt) throw new Error('traf without tfhd/tfdt');
      if (bytes[tfdt.payload] !== 1) throw new Error('tfdt version 0 is not supported (re-encode: ffmpeg writes version 1)');
      const trackId = bytes.readUInt32BE(tfhd.payload + 4);
      decodeTimeOffsets.push({ offset: tfdt.payload + 4, trackId });
      const t = Number(bytes.readBigUInt64BE(tfdt.payload + 4));
      if (!firstDecodeTime.has(trackId)) firstDecodeTime.set(trackId, t);
      duration.set(trackId, (duration.get(trackId) ?? 0) + trafDuration(bytes, box, tfhd.payload, trexDefaults.get(trackId) ?? 0));
    }
  }
  return { bytes, sequenceOffsets, decodeTimeOffsets, firstDecodeTime, duration };
}

function trafDuration(b: Buffer, traf: { payload: number; end: number }, tfhdPayload: number, trexDefault: number): number {
  const tfhdFlags = b.readUInt32BE(tfhdPayload) & 0xffffff;
  let p = tfhdPayload + 8;
  if (tfhdFlags & 0x01) p += 8; // base-data-offset
  if (tfhdFlags & 0x02) p += 4; // sample-description-index
  const defaultDuration = tfhdFlags & 0x08 ? b.readUInt32BE(p) : trexDefault;
  let total = 0;
  for (const trun of readBoxes(b, traf.payload, traf.end).filter((x) => x.type === 'trun')) {
    const flags = b.readUInt32BE(trun.payload) & 0xffffff;
    const count = b.readUInt32BE(trun.payload + 4);
    let q = trun.payload + 8;
    if (flags & 0x01) q += 4; // data-offset
    if (flags & 0x04) q += 4; // first-sample-flags
    const perSample = (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0) + (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
    for (let i = 0; i < count; i++, q += perSample) total += flags & 0x100 ? b.readUInt32BE(q) : defaultDuration;
  }
  return total;
}

/**
 * Copies `chunk` into `out` at `at`, moving every track's decode times by `shift(trackId)` and
 * numbering its fragments from `sequence`. Returns the next sequence number.
 */
export function writeMp4Chunk(chunk: Mp4Chunk, out: Buffer, at: number, sequence: number, shift: (trackId: number) => number): number {
  chunk.bytes.copy(out, at);
  for (const o of chunk.sequenceOffsets) out.writeUInt32BE(sequence++ >>> 0, at + o);
  for (const { offset, trackId } of chunk.decodeTimeOffsets) {
    out.writeBigUInt64BE(chunk.bytes.readBigUInt64BE(offset) + BigInt(shift(trackId)), at + offset);
  }
  return sequence;
}
