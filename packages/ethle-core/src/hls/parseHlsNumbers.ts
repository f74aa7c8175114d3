import { hlsMalformed } from './hlsMalformed.js';

// RFC 8216 §4.2 decimal-integer and (non-negative) decimal-floating-point. Module-level: hot path.
const INT_RE = /^\d{1,16}$/;
const FLOAT_RE = /^(?:\d{1,16}(?:\.\d*)?|\.\d+)$/;

/** Longest duration we accept for a segment, part, target or hold-back: a day. Longer is absurd, not live. */
export const MAX_HLS_SECONDS = 86_400;

/** decimal-integer, 0 … 2^53-1 (larger sequence numbers cannot be exact in JS and are treated as absurd). */
export function parseHlsInteger(s: string, lineIndex: number, tag: string, what: string): number {
  if (!INT_RE.test(s)) throw hlsMalformed(lineIndex, tag, `${what} is not a decimal integer`, { value: s });
  const n = Number(s);
  if (n > Number.MAX_SAFE_INTEGER) throw hlsMalformed(lineIndex, tag, `${what} is absurdly large`, { value: s });
  return n;
}

/** Non-negative decimal-floating-point seconds, at most a day. */
export function parseHlsSeconds(s: string, lineIndex: number, tag: string, what: string): number {
  if (!FLOAT_RE.test(s)) throw hlsMalformed(lineIndex, tag, `${what} is not a non-negative decimal number`, { value: s });
  const n = Number(s);
  if (!(n <= MAX_HLS_SECONDS)) throw hlsMalformed(lineIndex, tag, `${what} is absurd (more than a day)`, { value: s });
  return n;
}

/** "n[@o]" → [length, offset | undefined]. */
export function parseHlsByteRange(s: string, lineIndex: number, tag: string): [number, number | undefined] {
  const at = s.indexOf('@');
  if (at < 0) return [parseHlsInteger(s, lineIndex, tag, 'byte range length'), undefined];
  return [
    parseHlsInteger(s.slice(0, at), lineIndex, tag, 'byte range length'),
    parseHlsInteger(s.slice(at + 1), lineIndex, tag, 'byte range offset'),
  ];
}
