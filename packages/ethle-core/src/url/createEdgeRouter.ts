import { EthleError } from '../errors/EthleError.js';
import { crossOriginPath } from './crossOriginPath.js';
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
}

// Routing is deterministic, so a router memoizes: a rewrite per origin version sees mostly the
// URIs it saw last time. Bounded so a long-running stream cannot grow it without limit.
const MEMO_LIMIT = 512;
const HTTP_RE = /^https?$/i;
// Fast path: a plain relative path (no scheme, query, fragment, leading "/" or dot segments)
// resolves into the manifest's directory and relativizes back to itself — most segment URIs.
const PLAIN_RELATIVE_RE = /^[^:/?#\u0000-\u0020"<>\u007f][^:?#\u0000-\u0020"<>\u007f]*$/;
const DOT_SEGMENT_RE = /(?:^|\/)\.\.?(?:\/|$)/;
const DEFAULT_PORT: Readonly<Record<string, string>> = { http: ':80', https: ':443' };

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
  const origin = originKey(base);
  const dir = base.path.slice(0, base.path.lastIndexOf('/') + 1);
  let memo: Map<string, string> | undefined; // created on the first URI that needs real resolution
  const tokenQuery = token === undefined ? '' : '?' + encodeURIComponent(param) + '=' + encodeURIComponent(token);

  return (raw: string): string => {
    // Unencoded spaces occur in real playlists; browsers send them as %20, so do we.
    const uri = raw.includes(' ') ? raw.replaceAll(' ', '%20') : raw;
    if (PLAIN_RELATIVE_RE.test(uri) && !DOT_SEGMENT_RE.test(uri)) return uri + tokenQuery;
    const hit = memo?.get(uri);
    if (hit !== undefined) return hit;
    const routed = route(uri);
    memo ??= new Map();
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(uri, routed);
    return routed;
  };

  function route(uri: string): string {
    const ref = splitUrl(uri);
    if (ref.scheme !== undefined && !HTTP_RE.test(ref.scheme)) return uri; // skd:, data:, … are not fetched from us
    const t = resolveUrlParts(ref, base);
    const frag = t.fragment === undefined ? '' : '#' + t.fragment;
    let out: string;
    if (originKey(t) === origin) {
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

function originKey(p: UrlParts): string {
  const scheme = (p.scheme ?? '').toLowerCase();
  let auth = (p.authority ?? '').toLowerCase();
  const port = DEFAULT_PORT[scheme];
  if (port !== undefined && auth.endsWith(port)) auth = auth.slice(0, -port.length);
  return scheme + '://' + auth;
}
