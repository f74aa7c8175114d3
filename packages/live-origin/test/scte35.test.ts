import { describe, expect, it } from 'vitest';
import { crc32Mpeg2 } from '../src/scte35/crc32Mpeg2.js';
import { spliceInsert } from '../src/scte35/spliceInsert.js';
import { CUE_BREAK_SECONDS, CUE_EVERY_SECONDS, segmentCue } from '../src/streams/CueSchedule.js';
import { decodeSpliceInsert } from './decodeSpliceInsert.js';

describe('CRC-32/MPEG-2', () => {
  it('matches the check value of the CRC catalogue and the CRC of a published SCTE-35 section', () => {
    expect(crc32Mpeg2(Buffer.from('123456789'))).toBe(0x0376e6e7);
    // ANSI/SCTE 35 sample splice_insert (with an avail descriptor): its CRC_32 is its last 4 bytes.
    const sample = Buffer.from('/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo=', 'base64');
    expect(crc32Mpeg2(sample.subarray(0, -4))).toBe(sample.readUInt32BE(sample.length - 4));
  });
});

describe('splice_insert', () => {
  it('a cue-out decodes field by field to what was asked, with a valid CRC', () => {
    const pts = 2 ** 33 + 123_456; // wraps modulo 2^33
    const s = decodeSpliceInsert(spliceInsert({ eventId: 42, outOfNetwork: true, pts90k: pts, duration90k: 20 * 90_000 }));
    expect(s).toMatchObject({
      tableId: 0xfc,
      sectionLengthOk: true,
      crcOk: true,
      encrypted: 0,
      ptsAdjustment: 0,
      commandType: 5,
      commandLengthOk: true,
      eventId: 42,
      cancel: false,
      outOfNetwork: true,
      programSplice: true,
      immediate: false,
      ptsTime: 123_456,
      autoReturn: true,
      duration: 1_800_000,
      descriptorLoopLength: 0,
    });
  });

  it('a cue-in has no break duration and out_of_network 0', () => {
    const s = decodeSpliceInsert(spliceInsert({ eventId: 7, outOfNetwork: false, pts90k: 90_000 }));
    expect(s).toMatchObject({ crcOk: true, eventId: 7, outOfNetwork: false, ptsTime: 90_000, duration: undefined });
  });
});

describe('the cue schedule', () => {
  it.each([2, 4, 10])('%i s segments: each break is out, cont…, in on segment boundaries, one every CUE_EVERY_SECONDS', (L) => {
    const kinds: string[] = [];
    for (let n = 0; n < (2 * CUE_EVERY_SECONDS) / L; n++) kinds.push(segmentCue(n, L)?.kind ?? '-');
    const per = CUE_EVERY_SECONDS / L;
    const inBreak = CUE_BREAK_SECONDS / L;
    const one = ['out', ...Array(inBreak - 1).fill('cont'), 'in', ...Array(per - inBreak - 1).fill('-')];
    expect(kinds).toEqual([...one, ...one]);
    expect(segmentCue(per, L)).toMatchObject({ kind: 'out', brk: { id: 1, startSegment: per, segments: inBreak } });
  });
});
