import { child, readBoxes } from './readBoxes.js';

/** nal_unit_type 12: H.264 filler data (ISO/IEC 14496-10 §7.3.2.7); decoders discard it. */
const NAL_FILLER = 0x0c;
/** 4-byte NAL length prefix + NAL header + rbsp_trailing_bits (0x80). */
const FILLER_OVERHEAD = 6;

/**
 * Pads fMP4 media to a 4K CBR size *inside the video samples*, the way a CBR H.264 encoder does:
 * every video sample gets one trailing filler-data NAL unit, and the moof's sample sizes and
 * data offsets are rewritten to match.
 *
 * Why not a `free` box: players append whole segments to Media Source, and Chromium weighs an
 * append's size against each track's quota by the bytes each track already buffered. With our
 * small loop (90 kbit/s video, 32 kbit/s audio) a 61 MB append with a `free` box was charged ~16 MB
 * to the audio track, over Chromium's 12 MiB audio quota, so hls.js refused every 50M-10s segment
 * after the first. With the bytes in the video samples, Media Source buffers and evicts them as
 * video, as it would a real 50 Mbit/s stream.
 *
 * The result is a list of buffers written by reference: the sample data are subarrays of `body`,
 * the filler bytes a tail of one shared buffer.
 */
export class FillerPadding {
  private ff: Buffer | undefined;
  constructor(private readonly maxBytes: number) {}

  /**
   * `body` (moof+mdat pairs, one video track `videoTrackId`) grown to exactly `targetBytes`, or
   * `[body]` when it is already that size or there is too little room for a filler NAL per sample.
   */
  pad(body: Buffer, targetBytes: number, videoTrackId: number): Buffer[] {
    const fragments = readFragments(body, videoTrackId);
    const samples = fragments.reduce((a, f) => a + f.video.sizes.length, 0);
    const extra = targetBytes - body.length;
    if (samples === 0 || extra < samples * FILLER_OVERHEAD) return [body];
    this.ff ??= fillerBytes(this.maxBytes);
    const each = Math.floor(extra / samples);
    let remainder = extra - each * samples;
    const out: Buffer[] = [];
    let at = 0;
    for (const f of fragments) {
      if (f.moof.start > at) out.push(body.subarray(at, f.moof.start)); // styp and the like
      const fill = f.video.sizes.map(() => each + (remainder-- > 0 ? 1 : 0));
      const added = fill.reduce((a, b) => a + b, 0);
      const moof = Buffer.from(body.subarray(f.moof.start, f.moof.end));
      const rel = (abs: number) => abs - f.moof.start;
      f.video.sizes.forEach((size, i) => moof.writeUInt32BE(size + fill[i]!, rel(f.video.sizeOffsets[i]!)));
      // Tracks whose data follow the video samples in the mdat move by what was inserted.
      for (const o of f.others) if (o.dataOffset >= f.video.dataOffset) moof.writeInt32BE(o.dataOffset + added, rel(o.dataOffsetAt));
      out.push(moof);
      const mdatHeader = Buffer.from(body.subarray(f.mdat.start, f.mdat.payload));
      if (mdatHeader.length !== 8) throw new Error('64-bit mdat sizes are not supported');
      mdatHeader.writeUInt32BE(f.mdat.end - f.mdat.start + added, 0);
      out.push(mdatHeader);
      let p = f.moof.start + f.video.dataOffset;
      if (p > f.mdat.payload) out.push(body.subarray(f.mdat.payload, p));
      f.video.sizes.forEach((size, i) => {
        out.push(body.subarray(p, p + size), fillerHeader(fill[i]!), this.ff!.subarray(this.ff!.length - (fill[i]! - 5)));
        p += size;
      });
      out.push(body.subarray(p, f.mdat.end));
      at = f.mdat.end;
    }
    if (at < body.length) out.push(body.subarray(at));
    return out;
  }
}

/** 0xFF filler bytes ending in rbsp_trailing_bits; a NAL's payload is a tail of it. */
function fillerBytes(maxBytes: number): Buffer {
  const b = Buffer.alloc(maxBytes + 1, 0xff);
  b[maxBytes] = 0x80;
  return b;
}

function fillerHeader(bytes: number): Buffer {
  const h = Buffer.allocUnsafe(5);
  h.writeUInt32BE(bytes - 4, 0);
  h[4] = NAL_FILLER;
  return h;
}

interface Fragment {
  moof: { start: number; end: number };
  mdat: { start: number; payload: number; end: number };
  video: { dataOffset: number; sizes: number[]; sizeOffsets: number[] };
  others: { dataOffset: number; dataOffsetAt: number }[];
}

/** moof+mdat pairs with the video trun's sample sizes and every trun's data offset (moof-relative). */
function readFragments(b: Buffer, videoTrackId: number): Fragment[] {
  const top = readBoxes(b);
  const out: Fragment[] = [];
  for (let i = 0; i < top.length; i++) {
    const moof = top[i]!;
    if (moof.type !== 'moof') continue;
    const mdat = top[i + 1];
    if (mdat?.type !== 'mdat') throw new Error('moof not followed by mdat');
    let video: Fragment['video'] | undefined;
    const others: Fragment['others'] = [];
    for (const traf of readBoxes(b, moof.payload, moof.end).filter((x) => x.type === 'traf')) {
      const tfhd = child(b, traf, 'tfhd')!;
      const trackId = b.readUInt32BE(tfhd.payload + 4);
      if (!(b.readUInt32BE(tfhd.payload) & 0xffffff & 0x20000)) throw new Error('traf without default-base-is-moof');
      const truns = readBoxes(b, traf.payload, traf.end).filter((x) => x.type === 'trun');
      if (truns.length !== 1) throw new Error(`track ${trackId}: ${truns.length} truns in one traf`);
      const t = truns[0]!.payload;
      const flags = b.readUInt32BE(t) & 0xffffff;
      if (!(flags & 0x01)) throw new Error(`track ${trackId}: trun without data offset`);
      const dataOffset = b.readInt32BE(t + 8);
      if (trackId !== videoTrackId) {
        others.push({ dataOffset, dataOffsetAt: t + 8 });
        continue;
      }
      if (!(flags & 0x200)) throw new Error('video trun without per-sample sizes');
      const count = b.readUInt32BE(t + 4);
      let q = t + 12 + (flags & 0x04 ? 4 : 0);
      const stride = (flags & 0x100 ? 4 : 0) + 4 + (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
      q += flags & 0x100 ? 4 : 0; // the size follows the duration
      const sizes: number[] = [];
      const sizeOffsets: number[] = [];
      for (let s = 0; s < count; s++, q += stride) {
        sizeOffsets.push(q);
        sizes.push(b.readUInt32BE(q));
      }
      video = { dataOffset, sizes, sizeOffsets };
    }
    if (!video) continue;
    const end = moof.start + video.dataOffset + video.sizes.reduce((a, s) => a + s, 0);
    if (moof.start + video.dataOffset < mdat.payload || end > mdat.end) throw new Error('video samples outside their mdat');
    out.push({ moof, mdat, video, others });
  }
  return out;
}
