import type { HlsMediaPlaylist } from './HlsMediaPlaylist.js';
import type { HlsMultivariantPlaylist } from './HlsMultivariantPlaylist.js';
import { scanMediaPlaylist } from './scanMediaPlaylist.js';
import { scanMultivariantPlaylist } from './scanMultivariantPlaylist.js';

const MULTIVARIANT_TAG_RE = /^#EXT-X-(?:STREAM-INF|I-FRAME-STREAM-INF|MEDIA|SESSION-DATA|SESSION-KEY|CONTENT-STEERING):/m;

/** Parses an HLS media playlist. Throws EthleError (ERR_HLS_NOT_A_PLAYLIST, ERR_HLS_MALFORMED) only. */
export function parseMediaPlaylist(text: string): HlsMediaPlaylist {
  return scanMediaPlaylist(text).playlist;
}

/** Parses an HLS multivariant (master) playlist. Throws EthleError only. */
export function parseMultivariantPlaylist(text: string): HlsMultivariantPlaylist {
  return scanMultivariantPlaylist(text).playlist;
}

/** True if the text has a variant, rendition or session tag, i.e. is a multivariant playlist if it is a playlist at all. */
export function isMultivariantPlaylist(text: string): boolean {
  return typeof text === 'string' && MULTIVARIANT_TAG_RE.test(text);
}

/** Parses either kind; `kind` tells which. */
export function parsePlaylist(text: string): HlsMediaPlaylist | HlsMultivariantPlaylist {
  return isMultivariantPlaylist(text) ? parseMultivariantPlaylist(text) : parseMediaPlaylist(text);
}
