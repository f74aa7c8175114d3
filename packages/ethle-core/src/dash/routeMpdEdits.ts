import { createEdgeRouter } from '../url/createEdgeRouter.js';
import { resolveUrl } from '../url/resolveUrl.js';
import type { UriRouter } from '../url/UriRouter.js';
import { decodeXmlEntities, encodeXmlAttr, localName, type XmlElement } from '../xml/scanXml.js';

/** A splice of the source text. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Where a player resolves an element's URIs: on the edge at a path (as an absolute URL on a
 * stand-in host, so nested BaseURLs can be combined without knowing the edge's real URL), or not
 * on the edge (a BaseURL left on another host: nothing under it can point back at the edge).
 */
type Base = { edge: true; at: string } | { edge: false };

// Stand-in for the manifest URL when the caller gives none; deep enough that no "../" climbs above it.
const STAND_IN = 'http://edge.invalid/' + 'd/'.repeat(64) + 'm';
// Absolute URI, network-path or absolute-path reference: these need the router to come back to the edge.
const NOT_RELATIVE_RE = /^(?:[A-Za-z][A-Za-z0-9+.-]*:|\/)/;
const FOREIGN_RE = /^(?:https?:|\/\/)/i;
const QUERY_RE = /[?#].*$/;

// URI-valued attributes of the addressing elements: [element, attribute, router kind].
const URI_ATTRS: ReadonlyArray<readonly [string, string, string]> = [
  ['SegmentTemplate', 'media', 'segment'],
  ['SegmentTemplate', 'initialization', 'init'],
  ['SegmentTemplate', 'index', 'index'],
  ['SegmentURL', 'media', 'segment'],
  ['SegmentURL', 'index', 'index'],
  ['Initialization', 'sourceURL', 'init'],
  ['RepresentationIndex', 'sourceURL', 'index'],
];

/**
 * Edits that route every URI of an MPD back through the edge: `<Location>` / `<PatchLocation>`
 * (kind `location`, query kept: the session token belongs on the manifest URL), `<BaseURL>`
 * (kind `base-url`; a query goes, a BaseURL only serves as a resolution base), SegmentTemplate
 * media/initialization/index and SegmentList/SegmentBase URLs (`segment`, `init`, `index`).
 *
 * BaseURLs nest (MPD → Period → AdaptationSet → Representation): a relative one under a BaseURL
 * that now points at the edge stays as written (the edge mirrors origin paths); an absolute one is
 * written relative to the BaseURL above it (exact given `manifestUrl`; without it, exact unless a
 * reference climbs out of the manifest's directory and back into another one). Under a BaseURL the
 * router left on another host nothing is changed — the player is not on the edge there, and an
 * absolute origin URL beneath it could only point back at the edge by the edge's own URL.
 */
export function routeMpdEdits(text: string, root: XmlElement, route: UriRouter, manifestUrl?: string): TextEdit[] {
  const edits: TextEdit[] = [];
  // Paths on the edge mirror the origin's, so relations between BaseURLs are worked out on origin URLs.
  const MANIFEST_AT = manifestUrl ?? STAND_IN;
  const MANIFEST: Base = { edge: true, at: MANIFEST_AT };

  const place = (raw: string, base: Base, kind: string): { out: string; base: Base } => {
    const u = raw.includes(' ') ? raw.replaceAll(' ', '%20') : raw;
    if (!base.edge) return { out: raw, base };
    if (base.at !== MANIFEST_AT && !NOT_RELATIVE_RE.test(u)) {
      // Relative under an edge BaseURL: same path on the edge; only the token (if any) to add.
      const out = kind === 'base-url' ? raw : route(u, kind);
      return { out, base: kind === 'base-url' ? { edge: true, at: resolveUrl(u, base.at) } : base };
    }
    let out = route(u, kind);
    if (FOREIGN_RE.test(out)) return { out, base: { edge: false } };
    const isBase = kind === 'base-url';
    if (isBase) out = out.replace(QUERY_RE, '') || './';
    // Hot path (templates at the top level): nothing to resolve; a base only matters for BaseURLs.
    if (!isBase && base.at === MANIFEST_AT) return { out, base };
    const at = resolveUrl(out, MANIFEST_AT);
    if (base.at !== MANIFEST_AT && !out.startsWith('/')) out = relativeTo(base.at, at, isBase);
    return { out, base: isBase ? { edge: true, at } : base };
  };

  const visit = (e: XmlElement, parentBase: Base): void => {
    let base = parentBase;
    let first = true;
    for (const c of e.children) {
      const name = localName(c);
      if (name === 'BaseURL') {
        const uri = elementText(text, c);
        if (uri === '' || uri.includes('<')) continue;
        const r = place(uri, parentBase, 'base-url');
        if (r.out !== uri) edits.push({ start: c.openEnd, end: c.closeStart, text: encodeXmlAttr(r.out) });
        // Alternatives: players start with the first.
        if (first) base = r.base;
        first = false;
      } else if ((name === 'Location' || name === 'PatchLocation') && e === root) {
        const uri = elementText(text, c);
        if (uri === '' || uri.includes('<')) continue;
        const out = route(uri, 'location');
        if (out !== uri) edits.push({ start: c.openEnd, end: c.closeStart, text: encodeXmlAttr(out) });
      }
    }
    for (const c of e.children) {
      const name = localName(c);
      for (const [el, attrName, kind] of URI_ATTRS) {
        if (name !== el) continue;
        const a = c.attrs.find((x) => x.name === attrName);
        if (a === undefined || a.value === '') continue;
        const r = place(a.value, base, kind);
        if (r.out !== a.value) edits.push({ start: a.valueStart, end: a.valueEnd, text: encodeXmlAttr(r.out) });
      }
      if (name !== 'BaseURL' && name !== 'Location' && name !== 'PatchLocation') visit(c, base);
    }
  };
  visit(root, MANIFEST);
  return edits;
}

/** An element's text content, entities decoded (`&amp;` in a query is `&`). */
function elementText(text: string, e: XmlElement): string {
  return decodeXmlEntities(text.slice(e.openEnd, e.closeStart).trim());
}

/** `to` (absolute, on the stand-in host) as a reference relative to the base URL `from`. */
function relativeTo(from: string, to: string, dropQuery: boolean): string {
  const out = createEdgeRouter({ manifestUrl: from })(to, 'base-url');
  return dropQuery ? out.replace(QUERY_RE, '') || './' : out;
}
