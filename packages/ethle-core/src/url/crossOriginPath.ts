import { EthleError } from '../errors/EthleError.js';

/**
 * Path prefix under which an edge router places URIs whose host differs from the manifest's
 * (`crossOrigin: 'proxy'`): `/_ethle/x/{scheme}/{authority}{path}?{query}`. The edge decodes it with
 * {@link crossOriginTarget} and MUST check the host against an allow-list before fetching (else it
 * is an open proxy).
 */
export const CROSS_ORIGIN_PATH = '/_ethle/x/';

const CROSS_RE = /^\/_ethle\/x\/(https?)\/([^/?#]+)(\/[^?#]*)?(\?[^#]*)?$/;

/** Inverse of the 'proxy' mapping: edge request path (prefix stripped, query included) → absolute origin URL, or undefined if the path is not a cross-origin path. */
export function crossOriginTarget(pathAndQuery: string): string | undefined {
  const m = CROSS_RE.exec(pathAndQuery);
  if (m === null) return undefined;
  return `${m[1]}://${m[2]}${m[3] ?? '/'}${m[4] ?? ''}`;
}

/** Builds the cross-origin edge path for an absolute http(s) URL's components. */
export function crossOriginPath(scheme: string, authority: string, path: string, query: string | undefined): string {
  const s = scheme.toLowerCase();
  if (s !== 'http' && s !== 'https') {
    throw new EthleError('ERR_URL_INVALID', 'only http(s) URLs can be proxied through the edge', { scheme });
  }
  return CROSS_ORIGIN_PATH + s + '/' + authority + (path === '' ? '/' : path) + (query === undefined ? '' : '?' + query);
}
