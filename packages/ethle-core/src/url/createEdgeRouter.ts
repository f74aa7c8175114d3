import { EthleError } from '../errors/EthleError.js';
import { crossOriginPath } from './crossOriginPath.js';
import { originKey } from './originKey.js';
import { resolveUrlParts } from './resolveUrl.js';
import { setQueryParam } from './setQueryParam.js';
import { splitUrl, type UrlParts } from './splitUrl.js';
import type { UriRouter } from './UriRouter.js';

export interface EdgeRouterOptions {
  /** Absolute origin URL the manifest was fetched from; the manifest's relative URIs resolve against it. */
  manifestUrl: string;
  /** Per-receiver session token placed in every routed URI (see header X-Ethle-Session); none if undefined. */
  sessionToken?: string;
  /** Query parameter that carries the token. Default `ethle_session`. */
  sessionParam?: string;
  /**
   * Path under which the edge serves the origin's paths: `''` (default) = the same path on the edge
   * host; `/o/a` = origin `/live/x.ts` is edge `/o/a/live/x.ts`. Only used where a URI cannot stay
   * relative to the manifest.
   */
  edgePathPrefix?: string;
  /**
   * URIs on another host than the manifest: `'keep'` (default) leaves them absolute — the player
   * fetches them directly; `'proxy'` maps them onto the edge under {@link CROSS_ORIGIN_PATH}.
   */
  crossOrigin?: 'keep' | 'proxy';
  /**
   * Other spellings of the manifest's origin that reach the same server and the same paths — its
   * IP address, https where the manifest came over http (`https://o.example`, `http://10.0.0.5:8081`).
   * URIs on them are routed to the edge like the manifest's own. (Default ports, case, userinfo and
   * a trailing dot are normalised without being listed here.)
   */
  originAliases?: readonly string[];
  /**
   * Called for every http(s) URI left absolute because it is on another host ('keep'): the player
   * fetches it directly, bypassing the edge. Gives the caller a way to say so in its log.
   */
  onLeftAbsolute?: (uri: string, kind: string) => void;
}

// Routing is deterministic, so a router memoizes: a rewrite per origin version sees mostly the
// URIs it saw last time. Bounded so a long-running stream cannot grow it without limit.
const MEMO_LIMIT = 512;
const HTTP_RE = /^https?$/i;
// An absolute http(s) URI or a network-path reference: what, returned unchanged, leaves the edge.
const FOREIGN_RE = /^(?:https?:)?\/\//i;
// Fast path: a plain relative path (no scheme, query, fragment, leading "/" or dot segments)
// resolves into the manifest's directory and relativizes back to itself — most segment URIs.
const PLAIN_RELATIVE_RE = /^[^:/?#\u0000-\u0020"<>\u007f][^:?#\u0000-\u0020"<>\u007f]*$/;
const DOT_SEGMENT_RE = /(?:^|\/)\.\.?(?:\/|$)/;

/**
 * A router that sends the player back to the edge: every http(s) URI in the manifest is resolved
 * against the manifest's origin URL; if it is on the manifest's host it becomes a URI relative to
 * the manifest (or an absolute path under `edgePathPrefix`), so the player — which fetched the
 * manifest from the edge — resolves it to the edge. Other schemes (`skd:`, `data:`) pass unchanged.
 */
export function createEdgeRouter(options: EdgeRouterOptions): UriRouter {
  const base = splitUrl(options.manifestUrl);
  if (base.scheme === undefined || base.authority === undefined || !HTTP_RE.test(base.scheme)) {
    throw new EthleError('ERR_URL_INVALID', 'manifestUrl must be an absolute http(s) URL', { manifestUrl: options.manifestUrl });
  }
  const prefix = (options.edgePathPrefix ?? '').replace(/\/+$/, '');
  if (prefix !== '' && !prefix.startsWith('/')) {
    throw new EthleError('ERR_URL_INVALID', 'edgePathPrefix must be empty or start with "/"', { edgePathPrefix: options.edgePathPrefix });
  }
  const token = options.sessionToken;
  const param = options.sessionParam ?? 'ethle_session';
  const crossOrigin = options.crossOrigin ?? 'keep';
  const origins = new Set([originKey(base)]);
  for (const alias of options.originAliases ?? []) {
    const a = typeof alias === 'string' ? splitUrlOrUndefined(alias) : undefined;
    if (a === undefined || a.scheme === undefined || a.authority === undefined || !HTTP_RE.test(a.scheme)) {
      throw new EthleError('ERR_URL_INVALID', 'originAliases must be absolute http(s) URLs', { alias });
    }
    origins.add(originKey(a));
  }
  const onLeftAbsolute = options.onLeftAbsolute;
  // URIs routed before and left absolute: a memo hit must still be reported.
  const leftAbsolute = new Set<string>();
  const dir = base.path.slice(0, base.path.lastIndexOf('/') + 1);
  let memo: Map<string, string> | undefined; // created on the first URI that needs real resolution
  const tokenQuery = token === undefined ? '' : '?' + encodeURIComponent(param) + '=' + encodeURIComponent(token);

  return (raw: string, kind: string): string => {
    // Unencoded spaces occur in real playlists; browsers send them as %20, so do we.
    const uri = raw.includes(' ') ? raw.replaceAll(' ', '%20') : raw;
    if (PLAIN_RELATIVE_RE.test(uri) && !DOT_SEGMENT_RE.test(uri)) return uri + tokenQuery;
    const hit = memo?.get(uri);
    if (hit !== undefined) {
      if (onLeftAbsolute !== undefined && leftAbsolute.has(uri)) onLeftAbsolute(raw, kind);
      return hit;
    }
    const routed = route(uri);
    memo ??= new Map();
    if (memo.size >= MEMO_LIMIT) {
      memo.clear();
      leftAbsolute.clear();
    }
    memo.set(uri, routed);
    if (routed === uri && onLeftAbsolute !== undefined && FOREIGN_RE.test(uri)) {
      leftAbsolute.add(uri);
      onLeftAbsolute(raw, kind);
    }
    return routed;
  };

  function route(uri: string): string {
    const ref = splitUrl(uri);
    if (ref.scheme !== undefined && !HTTP_RE.test(ref.scheme)) return uri; // skd:, data:, … are not fetched from us
    const t = resolveUrlParts(ref, base);
    const frag = t.fragment === undefined ? '' : '#' + t.fragment;
    let out: string;
    if (origins.has(originKey(t))) {
      out = relativePath(t.path) + (t.query === undefined ? '' : '?' + t.query);
    } else if (crossOrigin === 'proxy') {
      out = prefix + crossOriginPath(t.scheme ?? 'http', t.authority ?? '', t.path, t.query);
    } else {
      return uri; // the player leaves the edge for this one; no token for a host that does not know it
    }
    if (token !== undefined) out = setQueryParam(out, param, token);
    return out + frag;
  }

  // Relative to the manifest's directory (with "../" where needed): the player resolves it against
  // the edge URL it fetched the manifest from, whatever host and prefix that was.
  function relativePath(rawPath: string): string {
    const path = rawPath === '' ? '/' : rawPath;
    let common = 0;
    const max = Math.min(dir.length, path.length);
    for (let i = 0; i < max && dir[i] === path[i]; i++) if (dir[i] === '/') common = i + 1;
    const rest = path.slice(common);
    if (common === 0 || rest.startsWith('/')) {
      // No shared root, or "//" in the path: an absolute path, anchored so "//x" cannot read as an authority.
      const abs = prefix + path;
      return abs.startsWith('//') ? '/.' + abs : abs;
    }
    let ups = 0;
    for (let i = common; i < dir.length; i++) if (dir[i] === '/') ups++;
    if (ups > 0) return '../'.repeat(ups) + rest;
    if (rest === '') return './';
    const slash = rest.indexOf('/');
    // "a:b.ts" would read as a scheme: anchor it with "./".
    return (slash < 0 ? rest : rest.slice(0, slash)).includes(':') ? './' + rest : rest;
  }
}

function splitUrlOrUndefined(u: string): UrlParts | undefined {
  try {
    return splitUrl(u);
  } catch {
    return undefined; // reported by the caller as ERR_URL_INVALID with the alias in its details
  }
}
