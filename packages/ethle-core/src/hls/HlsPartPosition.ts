/** A part of a parent segment: EXT-X-PART number `part` (0-based) of media sequence number `msn` (what `_HLS_msn`/`_HLS_part` name). */
export interface HlsPartPosition {
  msn: number;
  part: number;
}
