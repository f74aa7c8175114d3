import { keepQueryParams } from '../url/keepQueryParams.js';

/**
 * Which stream a manifest request is, at either edge: its path plus the query parameters the
 * operator names (`streamQueryParams`, none by default), as written. Cache busters, per-viewer
 * tokens, CMCD and LL-HLS directives (`_HLS_msn`, …) name the same stream — one origin poller,
 * one x, one window — however many receivers ask. `rawQuery` is without its '?'.
 */
export function streamIdentity(path: string, rawQuery: string, identityParams: ReadonlySet<string>): string {
  return path + (rawQuery === '' || identityParams.size === 0 ? '' : keepQueryParams(rawQuery, (n) => identityParams.has(n)));
}
