import { EthleError } from '../errors/EthleError.js';
import type { EthleErrorCode } from '../errors/EthleErrorCode.js';

/** An attribute with its decoded value and where its raw value sits in the source (between the quotes). */
export interface XmlAttr {
  name: string;
  value: string;
  valueStart: number;
  valueEnd: number;
}

/** An element with source offsets, so callers rewrite by splicing and leave the rest byte for byte. */
export interface XmlElement {
  name: string;
  /** Offset of '<' of the start tag. */
  start: number;
  /** Offset just past '>' of the start tag. */
  openEnd: number;
  /** Offset of '<' of the end tag (= openEnd when self-closing). */
  closeStart: number;
  /** Offset just past the element. */
  end: number;
  attrs: XmlAttr[];
  children: XmlElement[];
  parent: XmlElement | undefined;
}

const NAME_RE = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const ATTR_RE = /\s+([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END_RE = /\s*(\/?)>/y;
const ENTITY_RE = /&(amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9A-Fa-f]{1,6});/g;
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXmlEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY_RE, (_, e: string) => {
    if (e[0] !== '#') return NAMED[e]!;
    const cp = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
  });
}

export function encodeXmlAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

export function attr(e: XmlElement, name: string): string | undefined {
  for (const a of e.attrs) if (a.name === name) return a.value;
  return undefined;
}

/** Local name without a namespace prefix (`mpd:Period` → `Period`). */
export function localName(e: XmlElement): string {
  const i = e.name.indexOf(':');
  return i < 0 ? e.name : e.name.slice(i + 1);
}

/**
 * A small, strict XML scanner: elements, attributes and their source offsets; comments, CDATA,
 * processing instructions and DOCTYPE are skipped. Enough for MPDs, which use no DTD entities.
 * Throws `code` on anything not well-formed (unbalanced or truncated tags, junk outside the root).
 */
export function scanXml(text: string, code: EthleErrorCode = 'ERR_DASH_MALFORMED'): XmlElement {
  const fail = (msg: string, at: number): never => {
    throw new EthleError(code, `${msg} at offset ${at}`, { offset: at });
  };
  let root: XmlElement | undefined;
  const stack: XmlElement[] = [];
  let p = 0;
  const n = text.length;
  while (p < n) {
    const lt = text.indexOf('<', p);
    const textEnd = lt < 0 ? n : lt;
    if (stack.length === 0 && /\S/.test(text.slice(p, textEnd).replace(/^\uFEFF/, ''))) fail('text outside the root element', p);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const e = text.indexOf('-->', lt + 4);
      if (e < 0) fail('unterminated comment', lt);
      p = e + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      if (stack.length === 0) fail('CDATA outside the root element', lt);
      const e = text.indexOf(']]>', lt + 9);
      if (e < 0) fail('unterminated CDATA', lt);
      p = e + 3;
    } else if (text.startsWith('<?', lt)) {
      const e = text.indexOf('?>', lt + 2);
      if (e < 0) fail('unterminated processing instruction', lt);
      p = e + 2;
    } else if (text.startsWith('<!', lt)) {
      if (root) fail('declaration after the root element', lt);
      const e = text.indexOf('>', lt + 2);
      if (e < 0) fail('unterminated declaration', lt);
      p = e + 1;
    } else if (text[lt + 1] === '/') {
      NAME_RE.lastIndex = lt + 2;
      const m = NAME_RE.exec(text);
      if (!m) fail('bad end tag', lt);
      const top = stack.pop();
      if (!top || top.name !== m![0]) fail(`end tag </${m![0]}> does not match <${top?.name ?? ''}>`, lt);
      const gt = text.indexOf('>', NAME_RE.lastIndex);
      if (gt < 0 || /\S/.test(text.slice(NAME_RE.lastIndex, gt))) fail('bad end tag', lt);
      top!.closeStart = lt;
      top!.end = gt + 1;
      p = gt + 1;
    } else {
      if (root && stack.length === 0) fail('a second root element', lt);
      NAME_RE.lastIndex = lt + 1;
      const m = NAME_RE.exec(text);
      if (!m) fail('bad start tag', lt);
      let q = NAME_RE.lastIndex;
      const attrs: XmlAttr[] = [];
      for (;;) {
        ATTR_RE.lastIndex = q;
        const a = ATTR_RE.exec(text);
        if (!a) break;
        const raw = a[2] ?? a[3] ?? '';
        const valueEnd = ATTR_RE.lastIndex - 1;
        attrs.push({ name: a[1]!, value: decodeXmlEntities(raw), valueStart: valueEnd - raw.length, valueEnd });
        q = ATTR_RE.lastIndex;
      }
      TAG_END_RE.lastIndex = q;
      const t = TAG_END_RE.exec(text);
      if (!t) fail(`bad start tag <${m![0]}>`, lt);
      const parent = stack[stack.length - 1];
      const el: XmlElement = {
        name: m![0],
        start: lt,
        openEnd: TAG_END_RE.lastIndex,
        closeStart: -1,
        end: -1,
        attrs,
        children: [],
        parent,
      };
      if (parent) parent.children.push(el);
      else root = el;
      if (t![1] === '/') {
        el.closeStart = el.openEnd;
        el.end = el.openEnd;
      } else stack.push(el);
      p = TAG_END_RE.lastIndex;
    }
  }
  if (stack.length > 0) fail(`truncated: <${stack[stack.length - 1]!.name}> is not closed`, n);
  if (!root) fail('no root element', 0);
  return root!;
}
