import { child, readBoxes } from './readBoxes.js';

/** One CMAF chunk (moof+mdat) cut from a larger fragment. */
export interface SplitChunk {
  bytes: Buffer;
  /** Start and end of the chunk's media, seconds from the fragment's first decode time (the split track's). */
  startSeconds: number;
  endSeconds: number;
  /** The chunk's first sample of the split track is a sync sample (a key frame for video). */
  independent: boolean;
}

interface TrackRun {
  trackId: number;
  tfhd: Buffer;
  baseDecodeTime: bigint;
  timescale: number;
  trunFlags: number;
  firstSampleFlags?: number;
  defaultFlags: number;
  samples: { duration: number; size: number; flags?: number; cto?: number; decode: number; dataAt: number }[];
}

const TRUN_DATA_OFFSET = 0x01;
const TRUN_FIRST_FLAGS = 0x04;
const TRUN_DURATION = 0x100;
const TRUN_SIZE = 0x200;
const TRUN_FLAGS = 0x400;
const TRUN_CTO = 0x800;
const SAMPLE_NON_SYNC = 0x10000;

/**
 * Cuts one fragment (a single moof+mdat, one trun per track, default-base-is-moof — what our
 * ffmpeg loop has) into CMAF chunks of about `chunkSeconds` each: chunk i holds every sample of
 * every track whose decode time is before cut i+1. Cuts fall on the first sample of `splitTrackId`
 * (video) at or after i·chunkSeconds, so a chunk is whole frames; other tracks (audio) follow the
 * same cut times. The chunks are what a CMAF packager emits for low latency: each is decodable once
 * it and the chunks before it arrived, and concatenated they carry every sample of the fragment.
 */
export function splitFragment(
  fragment: Buffer,
  timescales: ReadonlyMap<number, number>,
  trexDefaults: ReadonlyMap<number, number>,
  chunkSeconds: number,
  splitTrackId: number,
): SplitChunk[] {
  const top = readBoxes(fragment).filter((b) => b.type === 'moof' || b.type === 'mdat');
  if (top.length !== 2 || top[0]!.type !== 'moof' || top[1]!.type !== 'mdat') throw new Error('expected one moof followed by one mdat');
  const moof = top[0]!;
  const tracks: TrackRun[] = [];
  for (const traf of readBoxes(fragment, moof.payload, moof.end).filter((b) => b.type === 'traf')) {
    tracks.push(readTrack(fragment, moof.start, traf, timescales, trexDefaults));
  }
  const split = tracks.find((t) => t.trackId === splitTrackId);
  if (!split) throw new Error(`no track ${splitTrackId} to split on`);
  const total = split.samples.reduce((a, s) => a + s.duration, 0);
  const count = Math.max(1, Math.round(total / split.timescale / chunkSeconds));
  // Cut times in the split track's timescale, relative to the fragment start: whole samples.
  const cuts: number[] = [0];
  for (let i = 1; i < count; i++) {
    const at = split.samples.find((s) => s.decode >= i * chunkSeconds * split.timescale);
    if (at === undefined || at.decode <= cuts[cuts.length - 1]!)
      throw new Error(`cannot cut ${chunkSeconds} s chunks from a ${total / split.timescale} s fragment`);
    cuts.push(at.decode);
  }
  cuts.push(total);
  const out: SplitChunk[] = [];
  for (let i = 0; i < count; i++) {
    const from = cuts[i]! / split.timescale;
    const to = cuts[i + 1]! / split.timescale;
    const last = i === count - 1;
    const pieces = tracks.map((t) => {
      const lo = from * t.timescale;
      const hi = to * t.timescale;
      return { t, samples: t.samples.filter((s) => s.decode >= lo && (last || s.decode < hi)) };
    });
    const first = pieces.find((p) => p.t === split)!.samples[0]!;
    const flags =
      split.samples.indexOf(first) === 0 && split.firstSampleFlags !== undefined
        ? split.firstSampleFlags
        : (first.flags ?? split.defaultFlags);
    out.push({ bytes: writeChunk(fragment, pieces), startSeconds: from, endSeconds: to, independent: (flags & SAMPLE_NON_SYNC) === 0 });
  }
  return out;
}

function readTrack(
  b: Buffer,
  moofStart: number,
  traf: ReturnType<typeof readBoxes>[number],
  timescales: ReadonlyMap<number, number>,
  trex: ReadonlyMap<number, number>,
): TrackRun {
  const tfhd = child(b, traf, 'tfhd')!;
  const tfdt = child(b, traf, 'tfdt')!;
  const truns = readBoxes(b, traf.payload, traf.end).filter((x) => x.type === 'trun');
  if (truns.length !== 1) throw new Error('expected one trun per traf');
  const tfhdFlags = b.readUInt32BE(tfhd.payload) & 0xffffff;
  if (!(tfhdFlags & 0x20000) || tfhdFlags & 0x01) throw new Error('expected default-base-is-moof without base-data-offset');
  const trackId = b.readUInt32BE(tfhd.payload + 4);
  let p = tfhd.payload + 8;
  if (tfhdFlags & 0x02) p += 4;
  const defaultDuration = tfhdFlags & 0x08 ? b.readUInt32BE(p) : (trex.get(trackId) ?? 0);
  if (tfhdFlags & 0x08) p += 4;
  const defaultSize = tfhdFlags & 0x10 ? b.readUInt32BE(p) : 0;
  if (tfhdFlags & 0x10) p += 4;
  const defaultFlags = tfhdFlags & 0x20 ? b.readUInt32BE(p) : 0;
  if (b[tfdt.payload] !== 1) throw new Error('tfdt version 0 is not supported');
  const t = truns[0]!.payload;
  const trunFlags = b.readUInt32BE(t) & 0xffffff;
  if (!(trunFlags & TRUN_DATA_OFFSET)) throw new Error('trun without data offset');
  const n = b.readUInt32BE(t + 4);
  let dataAt = moofStart + b.readInt32BE(t + 8);
  let q = t + 12;
  const firstSampleFlags = trunFlags & TRUN_FIRST_FLAGS ? b.readUInt32BE(q) : undefined;
  if (trunFlags & TRUN_FIRST_FLAGS) q += 4;
  const samples: TrackRun['samples'] = [];
  let decode = 0;
  for (let i = 0; i < n; i++) {
    const duration = trunFlags & TRUN_DURATION ? b.readUInt32BE(q) : defaultDuration;
    if (trunFlags & TRUN_DURATION) q += 4;
    const size = trunFlags & TRUN_SIZE ? b.readUInt32BE(q) : defaultSize;
    if (trunFlags & TRUN_SIZE) q += 4;
    const flags = trunFlags & TRUN_FLAGS ? b.readUInt32BE(q) : undefined;
    if (trunFlags & TRUN_FLAGS) q += 4;
    const cto = trunFlags & TRUN_CTO ? b.readInt32BE(q) : undefined;
    if (trunFlags & TRUN_CTO) q += 4;
    samples.push({ duration, size, decode, dataAt, ...(flags === undefined ? {} : { flags }), ...(cto === undefined ? {} : { cto }) });
    decode += duration;
    dataAt += size;
  }
  return {
    trackId,
    tfhd: Buffer.from(b.subarray(tfhd.start, tfhd.end)),
    baseDecodeTime: b.readBigUInt64BE(tfdt.payload + 4),
    timescale: timescales.get(trackId) ?? 1,
    trunFlags,
    ...(firstSampleFlags === undefined ? {} : { firstSampleFlags }),
    defaultFlags,
    samples,
  };
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const size = 8 + payload.reduce((a, p) => a + p.length, 0);
  const h = Buffer.alloc(8);
  h.writeUInt32BE(size, 0);
  h.write(type, 4, 'latin1');
  return Buffer.concat([h, ...payload]);
}

function writeChunk(src: Buffer, pieces: { t: TrackRun; samples: TrackRun['samples'] }[]): Buffer {
  // Sequence number 0 here: the origin numbers every fragment when it writes the endless stream.
  const mfhd = box('mfhd', Buffer.alloc(8));
  const trafs: Buffer[] = [];
  const trunDataOffsetAt: number[] = []; // offset of each trun's data_offset field inside its traf
  for (const { t, samples } of pieces) {
    const tfdt = Buffer.alloc(12);
    tfdt.writeUInt32BE(0x01000000, 0);
    tfdt.writeBigUInt64BE(t.baseDecodeTime + BigInt(samples[0]?.decode ?? 0), 4);
    // The first-sample flags stay only with the sample they were written for (the key frame).
    const keepFirst = t.firstSampleFlags !== undefined && samples[0] === t.samples[0];
    const flags = (t.trunFlags & ~TRUN_FIRST_FLAGS) | (keepFirst ? TRUN_FIRST_FLAGS : 0) | TRUN_DATA_OFFSET;
    const fields: number[] = [];
    for (const s of samples) {
      if (flags & TRUN_DURATION) fields.push(s.duration);
      if (flags & TRUN_SIZE) fields.push(s.size);
      if (flags & TRUN_FLAGS) fields.push(s.flags!);
      if (flags & TRUN_CTO) fields.push(s.cto! >>> 0);
    }
    const trun = Buffer.alloc(12 + (keepFirst ? 4 : 0) + fields.length * 4);
    trun.writeUInt32BE(flags, 0); // version 0
    trun.writeUInt32BE(samples.length, 4);
    let q = 12;
    if (keepFirst) q = trun.writeUInt32BE(t.firstSampleFlags!, q);
    for (const f of fields) q = trun.writeUInt32BE(f >>> 0, q);
    const trafBody = [t.tfhd, box('tfdt', tfdt)];
    trunDataOffsetAt.push(8 + trafBody.reduce((a, x) => a + x.length, 0) + 8 + 8);
    trafs.push(box('traf', ...trafBody, box('trun', trun)));
  }
  const moofSize = 8 + mfhd.length + trafs.reduce((a, x) => a + x.length, 0);
  // Sample data follow the moof's mdat header, track after track, as in the source fragment.
  let dataOffset = moofSize + 8;
  pieces.forEach(({ samples }, i) => {
    trafs[i]!.writeInt32BE(dataOffset, trunDataOffsetAt[i]!);
    dataOffset += samples.reduce((a, s) => a + s.size, 0);
  });
  const data = pieces.flatMap(({ samples }) => samples.map((s) => src.subarray(s.dataAt, s.dataAt + s.size)));
  return Buffer.concat([box('moof', mfhd, ...trafs), box('mdat', ...data)]);
}
