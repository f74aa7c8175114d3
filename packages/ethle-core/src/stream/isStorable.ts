import { forbidsStore } from './forbidsStore.js';

// Module-level: every origin segment response of both edges is tested against it.
const CHUNKED = /chunked/i;

/** The response headers the rule reads (as each edge sees them; null or undefined: absent). */
export interface StorableHeaders {
  cacheControl: string | null | undefined;
  contentLength: string | null | undefined;
  transferEncoding: string | null | undefined;
}

/**
 * Whether an edge may keep an origin response to serve it again: the origin allows it (no
 * no-store, no-cache, private or max-age=0: the origin wants to be asked each time), and its end
 * is framed. A body delimited only by the connection closing (no Content-Length, not chunked)
 * looks the same whole or cut off: it is served through to its readers but never kept as
 * complete. (A service worker sees no Transfer-Encoding on a cross-origin response: there a body
 * without Content-Length is served, not kept.)
 */
export function isStorable(h: StorableHeaders): boolean {
  if (forbidsStore(h.cacheControl)) return false;
  return (h.contentLength !== null && h.contentLength !== undefined) || CHUNKED.test(h.transferEncoding ?? '');
}
