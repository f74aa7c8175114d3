/** One satisfiable byte range of an object, inclusive bounds. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What to do with a receiver's `Range` header for an object of `size` bytes (RFC 9110 §14):
 * - `undefined`: no Range, or one the edge answers whole with 200 (not `bytes=`, several ranges,
 *   unparsable — a server may ignore Range; it must never answer with the wrong bytes);
 * - `'unsatisfiable'`: a single range that starts past the end (416 with `bytes *\/size`);
 * - a ByteRange clamped to the object (206).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const m = RANGE_RE.exec(header);
  if (m === null) return undefined;
  const [, a, b] = m;
  if (a === '' && b === '') return undefined;
  if (a === '') {
    // Suffix range: the last N bytes.
    const n = Number(b);
    if (!Number.isSafeInteger(n)) return undefined;
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? Infinity : Number(b);
  if (!Number.isSafeInteger(start) || (b !== '' && !Number.isSafeInteger(end)) || end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

// Module level (hot path). One range only: a comma means several, answered whole.
const RANGE_RE = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i;
