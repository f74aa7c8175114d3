import { hlsMalformed } from './hlsMalformed.js';

/** One attribute of an attribute list, with the position of its value in the line (quotes excluded) for in-place rewriting. */
export interface HlsAttribute {
  name: string;
  value: string;
  quoted: boolean;
  /** Offset of the value's first character in the line (after the opening quote if quoted). */
  start: number;
  /** Offset just after the value's last character (before the closing quote if quoted). */
  end: number;
}

/** A-Z a-z 0-9 _ - (char codes: this runs for every character of every attribute name). */
function isNameChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 95;
}

/**
 * Parses an RFC 8216 §4.2 attribute list `NAME=value,NAME="quoted"` starting at `from` in `line`.
 * Tolerates spaces before names (seen in the wild); rejects unterminated quotes, missing `=`,
 * stray quotes in unquoted values and duplicate names (RFC: MUST NOT occur; ambiguous to rewrite).
 */
export function parseAttributeList(line: string, from: number, lineIndex: number, tag: string): HlsAttribute[] {
  const out: HlsAttribute[] = [];
  const n = line.length;
  let i = from;
  while (i < n) {
    while (i < n && line.charCodeAt(i) === 32) i++;
    if (i >= n) break;
    const nameStart = i;
    while (i < n && isNameChar(line.charCodeAt(i))) i++;
    if (i === nameStart || line.charCodeAt(i) !== 61 /* = */)
      throw hlsMalformed(lineIndex, tag, 'attribute list: expected NAME=value', { column: i + 1 });
    const name = line.slice(nameStart, i);
    i++; // '='
    let start: number;
    let end: number;
    let quoted = false;
    if (line.charCodeAt(i) === 34 /* " */) {
      quoted = true;
      start = i + 1;
      end = line.indexOf('"', start);
      if (end < 0) throw hlsMalformed(lineIndex, tag, `attribute ${name}: unterminated quoted string`);
      i = end + 1;
    } else {
      start = i;
      end = line.indexOf(',', i);
      if (end < 0) end = n;
      i = end;
      const q = line.indexOf('"', start);
      if (q >= 0 && q < end) throw hlsMalformed(lineIndex, tag, `attribute ${name}: stray quote in value`);
    }
    for (const a of out) if (a.name === name) throw hlsMalformed(lineIndex, tag, `attribute ${name} appears twice`);
    out.push({ name, value: line.slice(start, end), quoted, start, end });
    while (i < n && line.charCodeAt(i) === 32) i++;
    if (i < n) {
      if (line.charCodeAt(i) !== 44 /* , */)
        throw hlsMalformed(lineIndex, tag, `attribute ${name}: expected "," after value`, { column: i + 1 });
      i++;
    }
  }
  return out;
}

/** The attribute named `name`, if present. */
export function findAttribute(attrs: readonly HlsAttribute[], name: string): HlsAttribute | undefined {
  for (const a of attrs) if (a.name === name) return a;
  return undefined;
}
