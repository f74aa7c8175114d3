/** CRC-32/MPEG-2 (poly 0x04C11DB7, init 0xFFFFFFFF, not reflected, no final xor), the CRC_32 of MPEG-2 sections and SCTE-35. zlib's crc32 is the reflected variant, so it can't be used. */
const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[i] = c >>> 0;
  }
  return t;
})();

export function crc32Mpeg2(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) crc = ((crc << 8) ^ TABLE[((crc >>> 24) ^ b) & 0xff]!) >>> 0;
  return crc >>> 0;
}
