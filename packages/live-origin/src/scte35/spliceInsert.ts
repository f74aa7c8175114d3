import { crc32Mpeg2 } from './crc32Mpeg2.js';

export interface SpliceInsertOptions {
  /** splice_event_id: the same id on the cue-out and the matching cue-in. */
  eventId: number;
  /** true: leave the network feed (ad break starts); false: return to it. */
  outOfNetwork: boolean;
  /** splice_time pts_time, 90 kHz (taken mod 2^33). */
  pts90k: number;
  /** break_duration, 90 kHz; with auto_return set (only on a cue-out). */
  duration90k?: number;
}

const PTS_WRAP = 2 ** 33;

/**
 * A splice_info_section carrying a splice_insert() (ANSI/SCTE 35 §9.6, §9.7.3): program splice at
 * a given PTS, no descriptors, not encrypted. What an encoder puts in EXT-X-DATERANGE SCTE35-OUT/IN
 * and in a DASH `urn:scte:scte35:2014:xml+bin` event.
 */
export function spliceInsert(o: SpliceInsertOptions): Buffer {
  const dur = o.duration90k !== undefined;
  const command = Buffer.alloc(4 + 1 + 1 + 5 + (dur ? 5 : 0) + 4);
  let p = command.writeUInt32BE(o.eventId >>> 0, 0);
  command[p++] = 0x7f; // splice_event_cancel_indicator 0, reserved
  // out_of_network_indicator, program_splice_flag 1, duration_flag, splice_immediate_flag 0,
  // event_id_compliance_flag 1, reserved.
  command[p++] = (o.outOfNetwork ? 0x80 : 0) | 0x40 | (dur ? 0x20 : 0) | 0x0f;
  p = write33(command, p, 0xfe, o.pts90k); // splice_time: time_specified_flag 1, reserved
  if (dur) p = write33(command, p, 0xfe, o.duration90k!); // break_duration: auto_return 1, reserved
  p = command.writeUInt16BE(o.eventId & 0xffff, p); // unique_program_id
  command[p++] = 0; // avail_num
  command[p] = 0; // avails_expected

  // Header after section_length (11 bytes) + command + descriptor_loop_length (2) + CRC (4).
  const sectionLength = 11 + command.length + 2 + 4;
  const out = Buffer.alloc(3 + sectionLength);
  out[0] = 0xfc; // table_id
  // section_syntax_indicator 0, private_indicator 0, sap_type 3 (not specified), section_length.
  out.writeUInt16BE(0x3000 | sectionLength, 1);
  out[3] = 0; // protocol_version
  // encrypted_packet 0, encryption_algorithm 0, pts_adjustment 0 (33 bits), cw_index 0: bytes 4–9 stay 0.
  // tier 0xFFF (12 bits) and splice_command_length (12 bits).
  out.writeUIntBE((0xfff << 12) | command.length, 10, 3);
  out[13] = 0x05; // splice_command_type: splice_insert
  command.copy(out, 14);
  out.writeUInt16BE(0, 14 + command.length); // descriptor_loop_length
  out.writeUInt32BE(crc32Mpeg2(out.subarray(0, out.length - 4)), out.length - 4);
  return out;
}

/** A 33-bit field after a 7-bit prefix (its low bit is the field's top bit): 5 bytes. */
function write33(b: Buffer, at: number, prefix: number, value: number): number {
  const v = ((Math.round(value) % PTS_WRAP) + PTS_WRAP) % PTS_WRAP;
  b[at] = prefix | (v >= 2 ** 32 ? 1 : 0);
  b.writeUInt32BE(v % 2 ** 32, at + 1);
  return at + 5;
}
