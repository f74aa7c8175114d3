import { EthleError } from '../errors/EthleError.js';
import { removeDotSegments } from './removeDotSegments.js';
import { joinUrl, splitUrl, type UrlParts } from './splitUrl.js';

/**
 * Resolves a URI reference against an absolute base URI (RFC 3986 §5.2, strict). The core has no
 * WHATWG `URL` (lib ES2022 only), and playlists need nothing beyond RFC 3986 resolution.
 * Throws ERR_URL_INVALID if `base` has no scheme or either string is no URI reference.
 */
export function resolveUrl(ref: string, base: string): string {
  return joinUrl(resolveUrlParts(splitUrl(ref), splitUrl(base)));
}

/** Component form of {@link resolveUrl}; lets callers that resolve many references split the base once. */
export function resolveUrlParts(r: UrlParts, b: UrlParts): UrlParts {
  if (b.scheme === undefined) {
    throw new EthleError('ERR_URL_INVALID', 'base URI is not absolute', { base: joinUrl(b) });
  }
  if (r.scheme !== undefined) {
    return { scheme: r.scheme, authority: r.authority, path: removeDotSegments(r.path), query: r.query, fragment: r.fragment };
  }
  if (r.authority !== undefined) {
    return { scheme: b.scheme, authority: r.authority, path: removeDotSegments(r.path), query: r.query, fragment: r.fragment };
  }
  if (r.path === '') {
    return { scheme: b.scheme, authority: b.authority, path: b.path, query: r.query ?? b.query, fragment: r.fragment };
  }
  let path: string;
  if (r.path.startsWith('/')) path = removeDotSegments(r.path);
  else if (b.authority !== undefined && b.path === '') path = removeDotSegments('/' + r.path);
  else path = removeDotSegments(b.path.slice(0, b.path.lastIndexOf('/') + 1) + r.path);
  return { scheme: b.scheme, authority: b.authority, path, query: r.query, fragment: r.fragment };
}
