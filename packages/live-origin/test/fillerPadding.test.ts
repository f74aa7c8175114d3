import { describe, expect, it } from 'vitest';
import { LoopMedia, readBoxes } from '@ethle/live-origin';
import { FillerPadding } from '../src/mp4/FillerPadding.js';

const media = new LoopMedia();

/** Every trun's samples as byte ranges of `b` (moof-relative data offsets), per track. */
function samples(b: Buffer): Map<number, Buffer[]> {
  const out = new Map<number, Buffer[]>();
  const top = readBoxes(b);
  for (const [i, moof] of top.entries()) {
    if (moof.type !== 'moof') continue;
    const mdat = top[i + 1]!;
    for (const traf of readBoxes(b, moof.payload, moof.end).filter((x) => x.type === 'traf')) {
      const kids = readBoxes(b, traf.payload, traf.end);
      const tfhd = kids.find((k) => k.type === 'tfhd')!;
      const trun = kids.find((k) => k.type === 'trun')!.payload;
      const flags = b.readUInt32BE(trun) & 0xffffff;
      const count = b.readUInt32BE(trun + 4);
      let p = moof.start + b.readInt32BE(trun + 8);
      let q = trun + 12 + (flags & 0x04 ? 4 : 0);
      const list = out.get(b.readUInt32BE(tfhd.payload + 4)) ?? [];
      for (let s = 0; s < count; s++) {
        const size = b.readUInt32BE(q + (flags & 0x100 ? 4 : 0));
        q += (flags & 0x100 ? 4 : 0) + 4 + (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
        expect(p + size).toBeLessThanOrEqual(mdat.end);
        list.push(b.subarray(p, p + size));
        p += size;
      }
      out.set(b.readUInt32BE(tfhd.payload + 4), list);
    }
  }
  return out;
}

describe('FillerPadding', () => {
  // 10 s of the muxed HLS flavour (5 fragments, video then audio in each mdat) and DASH video.
  it.each(['av', 'v'] as const)('%s: pads to exactly the target with one filler NAL per video sample, other bytes unchanged', (v) => {
    const body = media.mp4Segment(v, 7 * 5, 5);
    const target = 61.1e6;
    const video = media.videoTrackId(v)!;
    const padded = Buffer.concat(new FillerPadding(target).pad(body, target, video));
    expect(padded.length).toBe(target);
    expect(readBoxes(padded).map((x) => x.type)).toEqual(readBoxes(body).map((x) => x.type));

    const before = samples(body);
    const after = samples(padded);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [track, list] of before) {
      const grown = after.get(track)!;
      expect(grown.length).toBe(list.length);
      list.forEach((orig, i) => {
        const s = grown[i]!;
        if (track !== video) return expect(s.equals(orig)).toBe(true);
        // The original NAL units, then one filler NAL: length, type 12, 0xFF…, trailing 0x80.
        expect(s.subarray(0, orig.length).equals(orig)).toBe(true);
        const nal = s.subarray(orig.length);
        expect(nal.readUInt32BE(0)).toBe(nal.length - 4);
        expect(nal[4]! & 0x1f).toBe(12);
        expect(nal.at(-1)).toBe(0x80);
        expect(nal.subarray(5, -1).every((x) => x === 0xff)).toBe(true);
      });
    }
    // Spread evenly, as CBR spreads bits: sample sizes differ by at most one byte of filler.
    const fills = after.get(video)!.map((s, i) => s.length - before.get(video)![i]!.length);
    expect(Math.max(...fills) - Math.min(...fills)).toBeLessThanOrEqual(1);
  });

  it('leaves media alone when there is no room for a filler NAL in every sample', () => {
    const body = media.mp4Segment('av', 0, 1);
    const parts = new FillerPadding(1e6).pad(body, body.length + 10, media.videoTrackId('av')!);
    expect(parts).toEqual([body]);
  });

  it('rejects a fragment whose video samples lie outside its mdat', () => {
    const body = Buffer.from(media.mp4Segment('v', 0, 1));
    const moof = readBoxes(body).find((x) => x.type === 'moof')!;
    const trun = body.indexOf('trun', moof.start, 'latin1') + 4;
    body.writeInt32BE(body.length * 2, trun + 8); // data offset past the end
    expect(() => new FillerPadding(1e6).pad(body, 1e6, media.videoTrackId('v')!)).toThrow(/outside their mdat/);
  });
});
