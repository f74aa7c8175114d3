import { describe, expect, it } from 'vitest';
import { LoopMedia, LOOP_CHUNKS, readBoxes } from '@ethle/live-origin';

// The low-latency parts must carry exactly the samples of the whole segment: same bytes, same
// sizes, same decode times, the key frame flagged in the first part only.

interface TrackSamples {
  decode: number[];
  sizes: number[];
  data: Buffer[];
  /** Sample flags as written: first-sample-flags if present, else undefined (tfhd defaults). */
  firstFlags: (number | undefined)[];
}

/** Every sample of every track of a run of moof+mdat fragments, in order. */
function samplesOf(buf: Buffer): Map<number, TrackSamples> {
  const out = new Map<number, TrackSamples>();
  for (const moof of readBoxes(buf).filter((b) => b.type === 'moof')) {
    for (const traf of readBoxes(buf, moof.payload, moof.end).filter((b) => b.type === 'traf')) {
      const kids = readBoxes(buf, traf.payload, traf.end);
      const tfhd = kids.find((b) => b.type === 'tfhd')!;
      const tfdt = kids.find((b) => b.type === 'tfdt')!;
      const trun = kids.find((b) => b.type === 'trun')!;
      const track = buf.readUInt32BE(tfhd.payload + 4);
      const tfhdFlags = buf.readUInt32BE(tfhd.payload) & 0xffffff;
      expect(tfhdFlags & 0x08, 'default duration in tfhd').toBeTruthy();
      const defaultDuration = buf.readUInt32BE(tfhd.payload + 8 + (tfhdFlags & 0x02 ? 4 : 0));
      const flags = buf.readUInt32BE(trun.payload) & 0xffffff;
      expect(flags & 0x100, 'no per-sample durations in our loop').toBe(0);
      const count = buf.readUInt32BE(trun.payload + 4);
      let at = moof.start + buf.readInt32BE(trun.payload + 8);
      let q = trun.payload + 12;
      const first = flags & 0x04 ? buf.readUInt32BE(q) : undefined;
      if (flags & 0x04) q += 4;
      const t = out.get(track) ?? { decode: [], sizes: [], data: [], firstFlags: [] };
      let decode = Number(buf.readBigUInt64BE(tfdt.payload + 4));
      for (let i = 0; i < count; i++) {
        const size = buf.readUInt32BE(q);
        q += 4 + (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
        t.decode.push(decode);
        t.sizes.push(size);
        t.data.push(buf.subarray(at, at + size));
        t.firstFlags.push(i === 0 ? first : undefined);
        decode += defaultDuration;
        at += size;
      }
      out.set(track, t);
    }
  }
  return out;
}

describe('low-latency parts (splitFragment via LoopMedia.mp4Parts)', () => {
  const media = new LoopMedia();
  for (const v of ['av', 'v', 'a'] as const) {
    it.each([0.25, 0.5, 1, 2])(`${v}: parts of %s s hold exactly the samples of the whole chunk, across the loop`, (P) => {
      for (const g of [0, 7, LOOP_CHUNKS + 3]) {
        const whole = samplesOf(media.mp4Segment(v, g, 1));
        const parts = media.mp4Parts(v, g, P);
        expect(parts).toHaveLength(Math.round(2 / P));
        const split = samplesOf(Buffer.concat(parts.map((p) => p.bytes)));
        expect([...split.keys()]).toEqual([...whole.keys()]);
        for (const [track, w] of whole) {
          const s = split.get(track)!;
          expect(s.decode).toEqual(w.decode);
          expect(s.sizes).toEqual(w.sizes);
          expect(Buffer.concat(s.data).equals(Buffer.concat(w.data))).toBe(true);
          // first-sample-flags (the key frame's) stay with the first sample only.
          expect(s.firstFlags.filter((f) => f !== undefined)).toEqual(w.firstFlags.filter((f) => f !== undefined));
        }
        for (const p of parts) expect(readBoxes(p.bytes).map((b) => b.type)).toEqual(['moof', 'mdat']);
        // Parts tile the chunk in time; video ones start on frames (25 fps).
        expect(parts[0]!.startSeconds).toBe(0);
        for (let i = 1; i < parts.length; i++) expect(parts[i]!.startSeconds).toBe(parts[i - 1]!.endSeconds);
        if (v !== 'a') for (const p of parts) expect(Math.abs(p.startSeconds * 25 - Math.round(p.startSeconds * 25))).toBeLessThan(1e-9);
        expect(parts.map((p) => p.independent)).toEqual(parts.map((_, i) => v === 'a' || i === 0));
      }
    });
  }
});
