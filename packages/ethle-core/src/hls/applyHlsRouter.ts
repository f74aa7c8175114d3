import { EthleError, isEthleError } from '../errors/EthleError.js';
import type { HlsRouter, HlsUriKind } from './HlsUriKind.js';
import type { HlsAttribute } from './parseAttributeList.js';

const SCHEME_RE = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const HTTP_RE = /^https?$/i;
const BAD_OUTPUT_RE = /["\r\n]/;

/** Only relative and http(s) URIs are fetched through the edge; `skd:`, `data:` and the like are left alone. */
export function isRoutableUri(uri: string): boolean {
  const m = SCHEME_RE.exec(uri);
  return m === null || HTTP_RE.test(m[1] as string);
}

/** Calls the router and checks its answer, so a bad router cannot produce a broken playlist or a foreign exception. */
export function applyHlsRouter(router: HlsRouter, uri: string, kind: HlsUriKind): string {
  let out: unknown;
  try {
    out = router(uri, kind);
  } catch (e) {
    if (isEthleError(e)) throw e;
    throw new EthleError('ERR_URL_INVALID', 'router failed', { uri, kind, cause: e instanceof Error ? e.message : String(e) });
  }
  if (typeof out !== 'string' || out.length === 0 || BAD_OUTPUT_RE.test(out)) {
    throw new EthleError('ERR_URL_INVALID', 'router returned an empty string, a non-string, or text with quotes or line breaks', {
      uri,
      kind,
    });
  }
  return out;
}

/** The line with one attribute's value replaced by the routed URI; everything else byte for byte. */
export function routeAttributeInLine(line: string, attr: HlsAttribute, router: HlsRouter, kind: HlsUriKind): string {
  if (!isRoutableUri(attr.value)) return line;
  const routed = applyHlsRouter(router, attr.value, kind);
  if (routed === attr.value) return line;
  if (!attr.quoted && routed.includes(',')) {
    throw new EthleError('ERR_URL_INVALID', 'router returned a URI with a comma for an unquoted attribute', { uri: attr.value, kind });
  }
  return line.slice(0, attr.start) + routed + line.slice(attr.end);
}
