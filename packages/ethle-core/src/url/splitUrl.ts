import { EthleError } from '../errors/EthleError.js';

/** The five components of a URI reference (RFC 3986 §3); `undefined` means "not present", which differs from empty. */
export interface UrlParts {
  scheme: string | undefined;
  authority: string | undefined;
  path: string;
  query: string | undefined;
  fragment: string | undefined;
}

// RFC 3986 Appendix B: every string matches; the groups give the components. Module-level: hot path.
const URI_RE = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
const SCHEME_RE = /^[A-Za-z][A-Za-z0-9+.-]*$/;
// Characters that can never appear in a URI reference, not even loosely (controls, space, quote, angle brackets).
const FORBIDDEN_RE = /[\u0000-\u0020"<>\u007f]/;

/** Splits a URI reference into its components; throws ERR_URL_INVALID for text that is no URI reference. */
export function splitUrl(ref: string): UrlParts {
  if (FORBIDDEN_RE.test(ref)) {
    throw new EthleError('ERR_URL_INVALID', 'URI reference contains a control character, space, quote or angle bracket', { uri: ref });
  }
  const m = URI_RE.exec(ref);
  if (m === null) throw new EthleError('ERR_URL_INVALID', 'not a URI reference', { uri: ref });
  const scheme = m[1];
  if (scheme !== undefined && !SCHEME_RE.test(scheme)) {
    throw new EthleError('ERR_URL_INVALID', 'invalid URI scheme', { uri: ref, scheme });
  }
  return { scheme, authority: m[2], path: m[3] ?? '', query: m[4], fragment: m[5] };
}

/** Recomposes components (RFC 3986 §5.3). */
export function joinUrl(p: UrlParts): string {
  let s = '';
  if (p.scheme !== undefined) s += p.scheme + ':';
  if (p.authority !== undefined) s += '//' + p.authority;
  s += p.path;
  if (p.query !== undefined) s += '?' + p.query;
  if (p.fragment !== undefined) s += '#' + p.fragment;
  return s;
}
