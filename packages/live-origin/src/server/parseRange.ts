/**
 * A single byte range of a `Range` header (RFC 9110 §14.1.2) against a body of `length` bytes:
 * the inclusive [start, end] to send, 'unsatisfiable' (→ 416), or undefined to ignore the header
 * and send the whole body (absent, not `bytes=`, malformed, or several ranges — all allowed by
 * §14.2).
 */
export function parseRange(header: string | undefined, length: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (m === null) return undefined;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return undefined;
  if (a === '') {
    // Suffix: the last n bytes.
    const n = Number(b);
    if (n === 0) return 'unsatisfiable';
    return length === 0 ? 'unsatisfiable' : { start: Math.max(0, length - n), end: length - 1 };
  }
  const start = Number(a);
  const end = b === '' ? length - 1 : Math.min(Number(b), length - 1);
  if (!Number.isSafeInteger(start) || (b !== '' && Number(b) < start)) return undefined;
  if (start >= length) return 'unsatisfiable';
  return { start, end };
}

/** The bytes [start, end] (inclusive) of a body kept as parts, still by reference (subarrays). */
export function sliceParts(parts: readonly Buffer[], start: number, end: number): Buffer[] {
  const out: Buffer[] = [];
  let off = 0;
  for (const p of parts) {
    const pEnd = off + p.length; // exclusive
    if (pEnd > start && off <= end) out.push(p.subarray(Math.max(0, start - off), Math.min(p.length, end + 1 - off)));
    off = pEnd;
    if (off > end) break;
  }
  return out;
}
