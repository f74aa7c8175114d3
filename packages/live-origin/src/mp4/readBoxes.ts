/** One ISO-BMFF box: its type, where it starts, where its payload starts, and where it ends. */
export interface Box {
  type: string;
  start: number;
  payload: number;
  end: number;
}

/** The boxes directly inside [start, end) of `buf` (size 1 = 64-bit size; size 0 = to the end). */
export function readBoxes(buf: Buffer, start = 0, end = buf.length): Box[] {
  const out: Box[] = [];
  let p = start;
  while (p + 8 <= end) {
    let size = buf.readUInt32BE(p);
    const type = buf.toString('latin1', p + 4, p + 8);
    let header = 8;
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(p + 8));
      header = 16;
    } else if (size === 0) {
      size = end - p;
    }
    if (size < header || p + size > end) throw new Error(`malformed box ${JSON.stringify(type)} at ${p} (size ${size})`);
    out.push({ type, start: p, payload: p + header, end: p + size });
    p += size;
  }
  if (p !== end) throw new Error(`trailing bytes at ${p} of ${end}`);
  return out;
}

/** The first child of `parent` with type `type`, or undefined. */
export function child(buf: Buffer, parent: Box, type: string, skip = 0): Box | undefined {
  return readBoxes(buf, parent.payload + skip, parent.end).find((b) => b.type === type);
}
