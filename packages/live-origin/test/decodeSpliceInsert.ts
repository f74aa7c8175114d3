import { crc32Mpeg2 } from '../src/scte35/crc32Mpeg2.js';

/**
 * Test-side reader of a splice_info_section with a splice_insert(), written from ANSI/SCTE 35
 * §9.6 / §9.7.3 bit by bit (independently of the encoder's byte arithmetic).
 */
export function decodeSpliceInsert(b: Buffer) {
  let bit = 0;
  const read = (n: number): number => {
    let v = 0;
    for (let i = 0; i < n; i++, bit++) v = v * 2 + ((b[bit >> 3]! >> (7 - (bit & 7))) & 1);
    return v;
  };
  const tableId = read(8);
  read(1); // section_syntax_indicator
  read(1); // private_indicator
  read(2); // sap_type
  const sectionLength = read(12);
  read(8); // protocol_version
  const encrypted = read(1);
  read(6); // encryption_algorithm
  const ptsAdjustment = read(33);
  read(8); // cw_index
  read(12); // tier
  const commandLength = read(12);
  const commandType = read(8);
  const commandStart = bit;
  const eventId = read(32);
  const cancel = read(1) === 1;
  read(7);
  const outOfNetwork = read(1) === 1;
  const programSplice = read(1) === 1;
  const durationFlag = read(1) === 1;
  const immediate = read(1) === 1;
  read(4);
  let ptsTime: number | undefined;
  if (programSplice && !immediate) {
    if (read(1) === 1) {
      read(6);
      ptsTime = read(33);
    } else read(7);
  }
  let autoReturn: boolean | undefined;
  let duration: number | undefined;
  if (durationFlag) {
    autoReturn = read(1) === 1;
    read(6);
    duration = read(33);
  }
  read(16); // unique_program_id
  read(8); // avail_num
  read(8); // avails_expected
  const commandLengthOk = (bit - commandStart) / 8 === commandLength;
  const descriptorLoopLength = read(16);
  bit += descriptorLoopLength * 8;
  const crc = read(32);
  return {
    tableId,
    sectionLengthOk: sectionLength === b.length - 3 && bit / 8 === b.length,
    crcOk: crc === crc32Mpeg2(b.subarray(0, b.length - 4)),
    encrypted,
    ptsAdjustment,
    commandType,
    commandLengthOk,
    eventId,
    cancel,
    outOfNetwork,
    programSplice,
    immediate,
    ptsTime,
    autoReturn,
    duration,
    descriptorLoopLength,
  };
}
