import type { UrlParts } from './splitUrl.js';

const DEFAULT_PORT: Readonly<Record<string, string>> = { http: '80', https: '443' };
// userinfo@ host :port — the host is a bracketed IPv6 literal or runs up to the port colon.
const AUTHORITY_RE = /^(?:[^@]*@)?(\[[^\]]*\]|[^:]*)(?::(\d*))?$/;

/**
 * `scheme://host[:port]` in one spelling, so two URLs of one server compare equal: scheme and host
 * lower-cased, userinfo dropped, a trailing dot of a fully qualified host name dropped, the port
 * without leading zeros and left out when it is the scheme's default (or empty). A host name and its
 * IP address stay different: telling them apart needs DNS, which the core does not do.
 */
export function originKey(p: UrlParts): string {
  const scheme = (p.scheme ?? '').toLowerCase();
  const m = AUTHORITY_RE.exec(p.authority ?? '');
  if (m === null) return scheme + '://' + (p.authority ?? '').toLowerCase();
  let host = (m[1] ?? '').toLowerCase();
  if (host.endsWith('.') && host.length > 1) host = host.slice(0, -1);
  const digits = (m[2] ?? '').replace(/^0+(?=\d)/, '');
  const port = digits === '' || digits === DEFAULT_PORT[scheme] ? '' : ':' + digits;
  return scheme + '://' + host + port;
}
