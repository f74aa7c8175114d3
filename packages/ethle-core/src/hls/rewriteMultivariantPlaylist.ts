import { EthleError } from '../errors/EthleError.js';
import { applyHlsRouter, isRoutableUri, routeAttributeInLine } from './applyHlsRouter.js';
import type { HlsRouter } from './HlsUriKind.js';
import { scanMultivariantPlaylist } from './scanMultivariantPlaylist.js';

/**
 * Routes every variant (EXT-X-STREAM-INF URI line), I-frame stream, EXT-X-MEDIA rendition,
 * session key and session data URI of a multivariant playlist; all other bytes are kept.
 * Throws EthleError only (ERR_HLS_NOT_A_PLAYLIST, ERR_HLS_MALFORMED, ERR_HLS_INVALID_OPTIONS, ERR_URL_INVALID).
 */
export function rewriteMultivariantPlaylist(text: string, options: { route: HlsRouter }): string {
  const route = options?.route;
  if (typeof route !== 'function') throw new EthleError('ERR_HLS_INVALID_OPTIONS', 'route must be a function');
  const { playlist, sites } = scanMultivariantPlaylist(text);
  const out = playlist.lines.slice();
  for (const site of sites) {
    const line = out[site.line] as string;
    if (site.attr === undefined) {
      const uri = line.trim();
      if (isRoutableUri(uri)) out[site.line] = applyHlsRouter(route, uri, site.kind);
    } else out[site.line] = routeAttributeInLine(line, site.attr, route, site.kind);
  }
  let s = out.join(playlist.lineEnding);
  if (playlist.trailingNewline) s += playlist.lineEnding;
  return s;
}
